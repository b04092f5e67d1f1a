package race

import (
	"go/types"
	"maps"
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

// maxWaitCount caps the number of waits on one key counted along a path
// (a loop's receives would count without end).
const maxWaitCount = 8

// mustWaitIn returns, for each block of fn (by index), how many times
// each key is waited on along every path from fn's entry into the block
// (the least number over the paths): a forward must analysis (a minimum
// at merges) over the waits of each block and the receive cases of the
// selects its predecessors branch on. A Close that receives once from
// each of two loops' done channel waits on it twice. A block that calls
// a function that never returns (t.Fatalf, log.Fatal, which go/ssa ends
// the block at, or a testing.TB's Fatalf: see noReturn) leads nowhere: select { case <-done: case <-time.After(d):
// t.Fatalf("timeout") } waits on done.
func mustWaitIn(fn *ssa.Function, key waitKey) []map[string]int {
	in := make([]map[string]int, len(fn.Blocks))
	out := make([]map[string]int, len(fn.Blocks)) // nil: not yet reached (every key)
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks {
			var cur map[string]int
			if b.Index == 0 {
				cur = map[string]int{}
			}
			for _, p := range b.Preds {
				if out[p.Index] == nil {
					continue
				}
				edge := out[p.Index]
				if k := selectCaseKey(p, b, key); k != "" {
					edge = plusOne(edge, k)
				}
				cur = minCounts(cur, edge)
			}
			if cur == nil {
				continue // unreachable so far
			}
			in[b.Index] = cur
			o, ends := cur, false
			for _, x := range b.Instrs {
				if noReturn(x) {
					ends = true // (t.Fatalf in a select's timeout case)
					break
				}
				if k := waitKeyOf(x, key); k != "" {
					o = plusOne(o, k)
				}
			}
			if ends {
				continue
			}
			if !maps.Equal(o, out[b.Index]) || out[b.Index] == nil {
				out[b.Index] = o
				changed = true
			}
		}
	}
	return in
}

// mustWaitsBefore returns the keys that instr's function waits on along
// every path to instr, given mustWaitIn's result for the function, each
// as many times as it is waited on at least.
func mustWaitsBefore(in []map[string]int, instr ssa.Instruction, key waitKey) []string {
	b := instr.Block()
	counts := in[b.Index]
	for _, x := range b.Instrs {
		if x == instr {
			break
		}
		if k := waitKeyOf(x, key); k != "" {
			counts = plusOne(counts, k)
		}
	}
	var keys []string
	for k, n := range counts {
		for range n {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// waitKeyOf returns the key of the channel or WaitGroup x waits on: a
// receive or WaitGroup.Wait. (go/ssa builds a blocking select of one
// case as a plain receive; the cases of others count on their edges, see
// selectCaseKey.)
func waitKeyOf(x ssa.Instruction, key waitKey) string {
	if v := waitedOn(x); v != nil {
		return key(v)
	}
	return ""
}

// selectCaseKey returns the key of the channel received from on the edge
// from p to b, when p branches on a blocking select having taken that
// receive case and b is the case's body.
func selectCaseKey(p, b *ssa.BasicBlock, key waitKey) string {
	sel, i, ok := recvCaseInto(p, b)
	if !ok || !sel.Blocking {
		return ""
	}
	return key(sel.States[i].Chan)
}

// recvCaseInto returns the select and the index of its receive case when
// p ends by testing that the select took that case and b is the case's
// body (the If's true branch).
func recvCaseInto(p, b *ssa.BasicBlock) (*ssa.Select, int, bool) {
	ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok || len(p.Succs) != 2 || p.Succs[0] != b || p.Succs[1] == b {
		return nil, 0, false
	}
	sel, i, ok := selectCase(ifi.Cond)
	if !ok || i >= len(sel.States) || sel.States[i].Dir != types.RecvOnly {
		return nil, 0, false
	}
	return sel, i, true
}

// plusOne returns m with one more wait on k (up to maxWaitCount).
func plusOne(m map[string]int, k string) map[string]int {
	if m[k] >= maxWaitCount {
		return m
	}
	out := maps.Clone(m)
	if out == nil {
		out = map[string]int{}
	}
	out[k]++
	return out
}

// minCounts returns, for the keys of both a and b, the lesser count; nil
// stands for every key, as many times as wanted.
func minCounts(a, b map[string]int) map[string]int {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	out := map[string]int{}
	for k, n := range a {
		if m := b[k]; m > 0 {
			out[k] = min(n, m)
		}
	}
	return out
}
