package race

import (
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// A wait orders what follows it after what another goroutine did before
// signalling. A function waits on a channel or WaitGroup before an
// instruction when every path from its entry to the instruction passes a
// wait on it: a receive, WaitGroup.Wait, or the receive case of a select
// that leads there. Two paths may wait on one channel loaded twice
// (if ch := ctx.Done(); ch == nil { <-e.ch } else { select { case
// <-ch: return; case <-e.ch: } }), so waits are compared by a key (a
// field's, or a goroutine's value's) rather than by SSA value.

// waitKey names the channel or WaitGroup a wait waits on, by a key of the
// caller's choosing; "" for the waits the caller does not follow.
type waitKey func(v ssa.Value) string

// mustWaitIn returns, for each block of fn (by index), the keys waited on
// along every path from fn's entry into the block: a forward must
// analysis (an intersection at merges) over the waits of each block and
// the receive cases of the selects its predecessors branch on.
func mustWaitIn(fn *ssa.Function, key waitKey) []map[string]bool {
	in := make([]map[string]bool, len(fn.Blocks))
	out := make([]map[string]bool, len(fn.Blocks)) // nil: not yet reached (every key)
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			var cur map[string]bool
			if b.Index == 0 {
				cur = map[string]bool{}
			}
			for _, p := range b.Preds {
				if out[p.Index] == nil {
					continue
				}
				edge := out[p.Index]
				if k := selectCaseKey(p, b, key); k != "" && !edge[k] {
					edge = with(edge, k)
				}
				cur = intersectKeys(cur, edge)
			}
			if cur == nil {
				continue // unreachable so far
			}
			in[b.Index] = cur
			o := cur
			for _, x := range b.Instrs {
				if k := waitKeyOf(x, key); k != "" && !o[k] {
					o = with(o, k)
				}
			}
			if !sameKeys(o, out[b.Index]) {
				out[b.Index] = o
				changed = true
			}
		}
	}
	return in
}

// mustWaitsBefore returns the keys that instr's function waits on along
// every path to instr, given mustWaitIn's result for the function.
func mustWaitsBefore(in []map[string]bool, instr ssa.Instruction, key waitKey) []string {
	b := instr.Block()
	var keys []string
	for k := range in[b.Index] {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, x := range b.Instrs {
		if x == instr {
			break
		}
		if k := waitKeyOf(x, key); k != "" && !in[b.Index][k] {
			keys = append(keys, k)
		}
	}
	return keys
}

// waitKeyOf returns the key of the channel or WaitGroup x waits on: a
// receive, WaitGroup.Wait, or a select whose only case is a receive.
func waitKeyOf(x ssa.Instruction, key waitKey) string {
	if v := waitedOn(x); v != nil {
		return key(v)
	}
	if sel, ok := x.(*ssa.Select); ok && sel.Blocking && len(sel.States) == 1 && sel.States[0].Dir == types.RecvOnly {
		return key(sel.States[0].Chan)
	}
	return ""
}

// selectCaseKey returns the key of the channel received from on the edge
// from p to b, when p branches on a select having taken that receive
// case and b is the case's body.
func selectCaseKey(p, b *ssa.BasicBlock, key waitKey) string {
	ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok || len(p.Succs) != 2 || p.Succs[0] != b || p.Succs[1] == b {
		return ""
	}
	sel, i, ok := selectCase(ifi.Cond)
	if !ok || !sel.Blocking || i >= len(sel.States) || sel.States[i].Dir != types.RecvOnly {
		return ""
	}
	return key(sel.States[i].Chan)
}

func with(m map[string]bool, k string) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for x := range m {
		out[x] = true
	}
	out[k] = true
	return out
}

// intersectKeys returns the keys in both a and b; nil stands for every key.
func intersectKeys(a, b map[string]bool) map[string]bool {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	out := map[string]bool{}
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}

func sameKeys(a, b map[string]bool) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
