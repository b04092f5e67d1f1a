package lockorder

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// branchFacts are the outcomes of the conditions tested on every path
// to a block: a lock taken under if recovering { mu.Lock() } is held
// further on only where recovering is true, so a later if recovering {
// mu.Unlock() } releases it on every path that holds it. The value is
// the SSA value tested (immutable), the outcome whether it was true.
type branchFacts map[ssa.Value]bool

// factsOn returns the outcomes of the conditions tested on every path
// that takes the edge from block from to block to: those of the
// branches that dominate from (each If, up its dominator tree, one of
// whose edges every path to from takes), and from's own when it is the
// If. Only conditions that hold one value for the whole run of the
// function are kept (see steady).
func factsOn(from, to *ssa.BasicBlock) branchFacts {
	facts := branchFacts{}
	if ifi, ok := from.Instrs[len(from.Instrs)-1].(*ssa.If); ok && from.Succs[0] != from.Succs[1] {
		facts.add(ifi.Cond, to == from.Succs[0])
	}
	for child := from; child.Idom() != nil; child = child.Idom() {
		d := child.Idom()
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		for si, s := range d.Succs {
			if len(s.Preds) != 1 || !s.Dominates(child) {
				continue
			}
			facts.add(ifi.Cond, si == 0)
		}
	}
	return facts
}

// add records that cond has the outcome, when it holds one value for
// the whole run of the function.
func (f branchFacts) add(cond ssa.Value, outcome bool) {
	cond, outcome = tested(cond, outcome)
	if _, known := f[cond]; !known && steady(cond) {
		f[cond] = outcome
	}
}

// tested returns the value a branch on cond tests, and the outcome of
// that value for the branch's outcome: x for !x, the one value a
// captured variable holds for a load of it (a parameter a function
// literal captures is loaded anew at each test).
func tested(cond ssa.Value, outcome bool) (ssa.Value, bool) {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, outcome = u.X, !outcome
	}
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.MUL {
		if a, ok := u.X.(*ssa.Alloc); ok {
			if v := lockset.CellValue(a); v != nil {
				cond = v
			}
		}
	}
	return cond, outcome
}

// steady reports whether v holds one value for the whole run of its
// function: a parameter, a captured variable, or a value computed
// outside every loop.
func steady(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar:
		return true
	case ssa.Instruction:
		return v.Block() != nil && !inCycle(v.Block())
	}
	return false
}

// inCycle reports whether b can reach itself.
func inCycle(b *ssa.BasicBlock) bool {
	seen := map[*ssa.BasicBlock]bool{}
	work := append([]*ssa.BasicBlock(nil), b.Succs...)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		if x == b {
			return true
		}
		if seen[x] {
			continue
		}
		seen[x] = true
		work = append(work, x.Succs...)
	}
	return false
}

// excludes reports whether the facts rule out the si'th successor edge
// of b: b tests a condition whose outcome they fix the other way.
func (f branchFacts) excludes(b *ssa.BasicBlock, si int) bool {
	if len(f) == 0 {
		return false
	}
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, outcome := tested(ifi.Cond, si == 0)
	want, ok := f[cond]
	return ok && want != outcome
}
