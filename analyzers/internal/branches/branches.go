// Package branches follows the outcomes of a function's branch
// conditions along the paths of its control-flow graph: once a path has
// taken the true edge of if handler != nil, a later if handler == nil
// on the same value takes its false edge.
//
// A fact is the outcome of a condition on an SSA value: a boolean value
// is true or false, any other value is nil or not. A fact holds on a
// path until the path runs the value's definition again (a value
// computed in a loop body is another value in the next round), and
// passes through a phi to the value the phi takes on the edge the path
// came in by. A load of a captured variable that holds one value is that
// value. Reachable is the plain reachability these facts refine.
package branches

import (
	"go/token"
	"maps"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// Facts maps a value to its outcome: for a boolean value, its value; for
// another value, whether it is nil.
type Facts map[ssa.Value]bool

// At returns the facts that hold on every path into block b: the
// outcomes of the conditions of the Ifs, up b's dominator tree, one of
// whose edges every path to b takes.
func At(b *ssa.BasicBlock) Facts {
	f := Facts{}
	for child := b; child.Idom() != nil; child = child.Idom() {
		d := child.Idom()
		for si, s := range d.Succs {
			if len(s.Preds) == 1 && s.Dominates(child) {
				f.learn(d, si)
			}
		}
	}
	return f
}

// On returns the facts that hold on every path taking the edge from
// block from to block to: those of the branches that dominate from (see
// At), and from's own outcome when it ends with an If.
func On(from, to *ssa.BasicBlock) Facts {
	f := At(from)
	for si, s := range from.Succs {
		if s == to {
			if v, outcome, ok := condition(from, si); ok {
				f[v] = outcome
			}
			break
		}
	}
	return f
}

// Steady returns the facts about values that hold one value for the
// whole run of their function: parameters, captured variables, values
// computed outside every loop. They hold on every path from where they
// were learnt, whatever the path runs again.
func (f Facts) Steady() Facts {
	out := Facts{}
	var loops []bool // by block index, of the function of f's instructions
	for v, outcome := range f {
		switch x := v.(type) {
		case *ssa.Parameter, *ssa.FreeVar:
			out[v] = outcome
		case ssa.Instruction:
			b := x.Block()
			if b == nil {
				continue
			}
			if loops == nil {
				loops = cyclic(b.Parent())
			}
			if !loops[b.Index] {
				out[v] = outcome
			}
		}
	}
	return out
}

// Reachable returns, by block index, the blocks a path from the end of
// block b reaches, following every edge: b itself only when it is in a
// cycle.
func Reachable(b *ssa.BasicBlock) []bool {
	seen := make([]bool, len(b.Parent().Blocks))
	stack := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[x.Index] {
			continue
		}
		seen[x.Index] = true
		stack = append(stack, x.Succs...)
	}
	return seen
}

// condition returns the value the If ending b tests and the fact its
// si'th edge establishes for it: x for !x, x's nilness for x == nil and
// x != nil, the condition itself otherwise.
func condition(b *ssa.BasicBlock, si int) (ssa.Value, bool, bool) {
	if len(b.Instrs) == 0 {
		return nil, false, false
	}
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok || len(b.Succs) != 2 || b.Succs[0] == b.Succs[1] {
		return nil, false, false
	}
	cond, outcome := ifi.Cond, si == 0
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			break
		}
		cond, outcome = u.X, !outcome
	}
	if bin, ok := cond.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		var x ssa.Value
		switch {
		case isNil(bin.Y):
			x = bin.X
		case isNil(bin.X):
			x = bin.Y
		}
		if x != nil {
			// x == nil holds: x is nil; x != nil holds: x is not.
			return canonical(x), outcome == (bin.Op == token.EQL), true
		}
	}
	return canonical(cond), outcome, true
}

// canonical returns the value v is: for a load of a variable function
// literals capture that holds only its initial value (a parameter they
// capture, loaded anew at each test), that value.
func canonical(v ssa.Value) ssa.Value {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if a, ok := u.X.(*ssa.Alloc); ok {
			if val := lockset.CellValue(a); val != nil {
				return val
			}
		}
	}
	return v
}

func isNil(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

// learn records the fact the si'th edge of b's If establishes.
func (f Facts) learn(b *ssa.BasicBlock, si int) {
	if v, outcome, ok := condition(b, si); ok {
		if _, known := f[v]; !known {
			f[v] = outcome
		}
	}
}

// Excludes reports whether the facts rule out the si'th successor edge
// of b: b tests a value whose outcome they fix the other way.
func (f Facts) Excludes(b *ssa.BasicBlock, si int) bool {
	if len(f) == 0 {
		return false
	}
	v, outcome, ok := condition(b, si)
	if !ok {
		return false
	}
	want, known := f[v]
	return known && want != outcome
}

// enter returns the facts on entering block b from block pred: without
// those about the values b defines (computed again), with those its
// phis take from the values of the edge.
func (f Facts) enter(pred, b *ssa.BasicBlock) Facts {
	out := f
	copied := false
	cp := func() {
		if !copied {
			out, copied = maps.Clone(f), true
		}
	}
	for _, instr := range b.Instrs {
		v, ok := instr.(ssa.Value)
		if !ok {
			continue
		}
		if _, known := out[v]; known {
			cp()
			delete(out, v)
		}
	}
	idx := -1
	for i, p := range b.Preds {
		if p == pred {
			idx = i
			break
		}
	}
	if idx < 0 {
		return out
	}
	for _, instr := range b.Instrs {
		phi, ok := instr.(*ssa.Phi)
		if !ok {
			break
		}
		if fact, known := f[phi.Edges[idx]]; known {
			cp()
			out[phi] = fact
		}
	}
	return out
}

// maxStates bounds the distinct fact sets a block is entered with in
// Reach; past it, the block is entered with none (every edge followed).
const maxStates = 4

// Reach returns, by block index, the blocks of from's function that a
// path from just after from reaches, following only the edges the facts
// of the path allow, starting with those of from's block (see At) and
// the edges taken from there. A block enters the result when a path
// enters it; from's own block only by coming round again. Only facts
// that can rule out a later edge are kept (see telling), so that paths
// differing in conditions tested once share their states.
func Reach(from ssa.Instruction) []bool {
	start := from.Block()
	fn := start.Parent()
	reached := make([]bool, len(fn.Blocks))
	type item struct {
		b     *ssa.BasicBlock
		facts Facts
	}
	seen := make([][]Facts, len(fn.Blocks))
	keep := telling(fn)
	var work []item
	visit := func(pred, b *ssa.BasicBlock, facts Facts) {
		facts = facts.enter(pred, b)
		reached[b.Index] = true
		for _, s := range seen[b.Index] {
			if maps.Equal(s, facts) || len(s) == 0 {
				return // (no facts: every edge was followed already)
			}
		}
		if len(seen[b.Index]) >= maxStates {
			facts = nil
		}
		seen[b.Index] = append(seen[b.Index], facts)
		work = append(work, item{b, facts})
	}
	follow := func(b *ssa.BasicBlock, facts Facts) {
		for si, s := range b.Succs {
			if facts.Excludes(b, si) {
				continue
			}
			next := facts
			if v, _, ok := condition(b, si); ok && facts != nil && keep[v] {
				next = maps.Clone(facts)
				next.learn(b, si)
			}
			visit(b, s, next)
		}
	}
	first := Facts{}
	for v, outcome := range At(start) {
		if keep[v] {
			first[v] = outcome
		}
	}
	follow(start, first)
	for len(work) > 0 {
		it := work[len(work)-1]
		work = work[:len(work)-1]
		follow(it.b, it.facts)
	}
	return reached
}

// telling returns the values of fn whose facts can rule out an edge
// later on a path: those tested by two Ifs or more, or by an If on a
// cycle (a path can come round to it), the phis tested and the values
// they take (a fact passes through a phi). A fact about any other value
// is learnt at the one If that tests it and never read again, and would
// only tell apart the states of a path.
func telling(fn *ssa.Function) map[ssa.Value]bool {
	keep := map[ssa.Value]bool{}
	tests := map[ssa.Value]int{}
	loops := cyclic(fn)
	var phis []*ssa.Phi
	for _, b := range fn.Blocks {
		if v, _, ok := condition(b, 0); ok {
			tests[v]++
			if loops[b.Index] {
				keep[v] = true
			}
			if phi, ok := v.(*ssa.Phi); ok {
				phis = append(phis, phi)
			}
		}
	}
	for v, n := range tests {
		if n > 1 {
			keep[v] = true
		}
	}
	done := map[*ssa.Phi]bool{}
	for len(phis) > 0 {
		phi := phis[len(phis)-1]
		phis = phis[:len(phis)-1]
		if done[phi] {
			continue
		}
		done[phi], keep[phi] = true, true
		for _, e := range phi.Edges {
			if inner, ok := e.(*ssa.Phi); ok {
				phis = append(phis, inner)
			}
			keep[e], keep[canonical(e)] = true, true
		}
	}
	return keep
}

// cyclic returns, by block index, the blocks of fn that lie on a cycle:
// those of its strongly connected components with more than one block,
// and those with an edge to themselves (Tarjan's algorithm, without
// recursion).
func cyclic(fn *ssa.Function) []bool {
	n := len(fn.Blocks)
	out := make([]bool, n)
	order := make([]int, n) // 0: not visited yet
	low := make([]int, n)
	onStack := make([]bool, n)
	var stack []int
	type frame struct{ b, succ int }
	next := 1
	enter := func(b int, frames []frame) []frame {
		order[b], low[b] = next, next
		next++
		stack = append(stack, b)
		onStack[b] = true
		return append(frames, frame{b, 0})
	}
	for root := range fn.Blocks {
		if order[root] != 0 {
			continue
		}
		frames := enter(root, nil)
		for len(frames) > 0 {
			top := &frames[len(frames)-1]
			b := top.b
			if succs := fn.Blocks[b].Succs; top.succ < len(succs) {
				s := succs[top.succ].Index
				top.succ++
				switch {
				case s == b:
					out[b] = true
				case order[s] == 0:
					frames = enter(s, frames)
				case onStack[s]:
					low[b] = min(low[b], order[s])
				}
				continue
			}
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				p := frames[len(frames)-1].b
				low[p] = min(low[p], low[b])
			}
			if low[b] != order[b] {
				continue
			}
			i := len(stack) - 1
			for stack[i] != b {
				i--
			}
			for _, w := range stack[i:] {
				onStack[w] = false
				if len(stack)-i > 1 {
					out[w] = true
				}
			}
			stack = stack[:i]
		}
	}
	return out
}
