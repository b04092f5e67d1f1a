package sequence

import "golang.org/x/tools/go/ssa"

// A controlDep is a branch a block is control dependent on: the block
// runs only if the If ending Branch takes successor Succ (0: the
// condition is true, 1: false).
type controlDep struct {
	Branch *ssa.BasicBlock
	Succ   int
}

// postDominators returns the immediate post-dominator of every block of
// fn by index, computed as the dominators of the reverse CFG rooted at a
// virtual exit (index len(fn.Blocks)) with the Cooper–Harvey–Kennedy
// iteration. Blocks ending in a return or a panic lead to the exit; so
// does the header of every loop that cannot reach it (an infinite loop,
// for {...}), so that every block has a post-dominator and the blocks of
// the loop body stay control dependent on the branches inside it.
func postDominators(fn *ssa.Function) []int {
	n := len(fn.Blocks)
	exit := n
	// succR[v] are the successors of v in the reverse CFG.
	succR := make([][]int, n+1)
	predR := make([][]int, n+1)
	link := func(from, to int) {
		succR[from] = append(succR[from], to)
		predR[to] = append(predR[to], from)
	}
	for _, b := range fn.Blocks {
		if len(b.Succs) == 0 {
			link(exit, b.Index)
		}
		for _, p := range b.Preds {
			link(b.Index, p.Index)
		}
	}
	order := reversePostorder(succR, exit)
	for len(order) < n+1 {
		seen := make([]bool, n+1)
		for _, v := range order {
			seen[v] = true
		}
		link(exit, loopHeader(fn, seen))
		order = reversePostorder(succR, exit)
	}
	rpo := make([]int, n+1)
	for i, v := range order {
		rpo[v] = i
	}
	idom := make([]int, n+1)
	for i := range idom {
		idom[i] = -1
	}
	idom[exit] = exit
	intersect := func(a, b int) int {
		for a != b {
			for rpo[a] > rpo[b] {
				a = idom[a]
			}
			for rpo[b] > rpo[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for _, v := range order[1:] {
			newIdom := -1
			for _, p := range predR[v] {
				if idom[p] < 0 {
					continue
				}
				if newIdom < 0 {
					newIdom = p
				} else {
					newIdom = intersect(p, newIdom)
				}
			}
			if newIdom != idom[v] {
				idom[v], changed = newIdom, true
			}
		}
	}
	return idom
}

// loopHeader returns the first block not seen that is the target of a
// back edge (it dominates one of its predecessors): the header of the
// outermost loop among the blocks that cannot reach the exit. Without
// one (an irreducible region), it returns the last block not seen.
func loopHeader(fn *ssa.Function, seen []bool) int {
	last := -1
	for _, b := range fn.Blocks {
		if seen[b.Index] {
			continue
		}
		last = b.Index
		for _, p := range b.Preds {
			if b.Dominates(p) {
				return b.Index
			}
		}
	}
	return last
}

// reversePostorder returns the nodes reachable from root in reverse
// postorder of a depth-first search.
func reversePostorder(succ [][]int, root int) []int {
	seen := make([]bool, len(succ))
	var post []int
	var visit func(int)
	visit = func(v int) {
		seen[v] = true
		for _, w := range succ[v] {
			if !seen[w] {
				visit(w)
			}
		}
		post = append(post, v)
	}
	visit(root)
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}

// controlDeps returns, for every block of fn, the branches it is
// directly control dependent on (Ferrante, Ottenstein and Warren): block
// B depends on the edge A→S when B post-dominates S but does not
// strictly post-dominate A, found by walking the post-dominator tree
// from S up to A's immediate post-dominator.
func controlDeps(fn *ssa.Function) [][]controlDep {
	ipdom := postDominators(fn)
	deps := make([][]controlDep, len(fn.Blocks))
	for _, a := range fn.Blocks {
		if _, ok := a.Instrs[len(a.Instrs)-1].(*ssa.If); !ok {
			continue
		}
		for i, s := range a.Succs {
			for v := s.Index; v != ipdom[a.Index] && v < len(fn.Blocks); v = ipdom[v] {
				deps[v] = append(deps[v], controlDep{Branch: a, Succ: i})
				if v == ipdom[v] {
					break
				}
			}
		}
	}
	return deps
}

// guards returns the branches block b is control dependent on,
// transitively (the branches guarding those branches too), nearest
// first, each branch once.
func guards(deps [][]controlDep, b *ssa.BasicBlock) []controlDep {
	var out []controlDep
	seen := map[*ssa.BasicBlock]bool{}
	work := []*ssa.BasicBlock{b}
	for len(work) > 0 {
		x := work[0]
		work = work[1:]
		for _, d := range deps[x.Index] {
			if seen[d.Branch] {
				continue
			}
			seen[d.Branch] = true
			out = append(out, d)
			work = append(work, d.Branch)
		}
	}
	return out
}
