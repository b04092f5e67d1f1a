package pfsm

import (
	"fmt"
	"go/token"
	"math"
	"path/filepath"
	"slices"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// inf is the distance of an unreachable node.
const inf = int64(rt.Infinity)

// externalCost is the step-over cost of a call to a function outside the
// analyzed packages, or of a call with no known callee.
const externalCost = 2

// A Graph is the interprocedural control-flow graph of the analyzed
// packages with its target-independent tables (summaries, distances to
// function exits). It is built once per program; Distances then computes
// the tables of any set of targets, and may be called concurrently.
type Graph struct {
	fset  *token.FileSet
	funcs []*function // by Distances.Funcs index
	nodes int         // total number of segments

	// rev is the reverse adjacency of the global graph in CSR form:
	// the predecessors of node n are revFrom[revOff[n]:revOff[n+1]];
	// revZero marks descend and spawn edges (weight 0).
	revOff  []int32
	revFrom []int32
	revZero []bool

	// lineSegs maps a source line to the nodes holding its instructions.
	lineSegs map[fileLine][]int32

	// The target-independent part of the runtime tables, with global
	// node ids; Distances selects and renumbers.
	files   []string
	rtFuncs []rt.Func
}

type fileLine struct {
	file string
	line int
}

// A function is a source function of the analyzed packages.
type function struct {
	fn    *ssa.Function
	index int   // Distances.Funcs index
	first int32 // global id of the first segment
	file  string
	start int // line span of the syntax
	end   int

	segs     []segment
	blockSeg []int32 // first segment of each block (local index)
	defers   []int32 // segments that end with a Defer
	dEnd     []int64 // distance of each segment to the function's return
	summary  int64   // dEnd of the entry segment
}

// A segment is a node: instructions block.Instrs[from:to] of one block,
// ending with a call (callSeg, goSeg, deferSeg, runDefersSeg), before a
// channel operation (splitSeg) or with the block's terminator (plain).
type segment struct {
	block    *ssa.BasicBlock
	from, to int
	kind     segKind
	call     ssa.CallInstruction // the call ending the segment, if any
	callees  []*function         // analyzed callees (deferred callees for RunDefers)
	external bool                // some callee is outside the analyzed packages, or none is known
}

type segKind uint8

const (
	plain segKind = iota
	callSeg
	goSeg
	deferSeg
	runDefersSeg
	splitSeg // ends before a channel operation
)

// isChanOp reports whether instr is a channel send, receive or select.
func isChanOp(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.Send, *ssa.Select:
		return true
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	}
	return false
}

// NewGraph builds the graph of the functions of the scope packages of the
// built program prog, with call targets from a VTA call graph seeded with
// CHA over all functions of prog. Functions of other packages are treated
// as external: they have no nodes and cost 2 to step over. When the same
// source function appears in several scope packages (a package and its
// test variant), the earliest package's copy represents it.
func NewGraph(prog *ssa.Program, scope []*ssa.Package) (*Graph, error) {
	if prog == nil {
		return nil, fmt.Errorf("pfsm: nil program")
	}
	all := ssautil.AllFunctions(prog)
	cg := vta.CallGraph(all, cha.CallGraph(prog))
	return newGraph(prog, scope, all, cg)
}

func newGraph(prog *ssa.Program, scope []*ssa.Package, all map[*ssa.Function]bool, cg *callgraph.Graph) (*Graph, error) {
	g := &Graph{fset: prog.Fset, lineSegs: make(map[fileLine][]int32)}
	rank := make(map[*ssa.Package]int, len(scope))
	for i, p := range scope {
		if _, dup := rank[p]; p != nil && !dup {
			rank[p] = i
		}
	}
	if len(rank) == 0 {
		return nil, fmt.Errorf("pfsm: no packages to analyze")
	}
	byFn := g.collect(all, rank)
	r := &resolver{cg: cg, funcs: byFn, memo: make(map[*ssa.Function]resolved)}
	for _, f := range g.funcs {
		g.segment(f, r)
	}
	g.summarize()
	g.reverse()
	g.export()
	return g, nil
}

func inScope(rank map[*ssa.Package]int, p *ssa.Package) bool {
	_, ok := rank[p]
	return ok
}

// collect selects the source functions of the scope packages, numbers
// them in source order and returns them by SSA function. Functions that
// appear twice (a package and its test variant) are one function.
func (g *Graph) collect(all map[*ssa.Function]bool, rank map[*ssa.Package]int) map[*ssa.Function]*function {
	type key struct {
		file      string
		line, col int
	}
	var cands []*function
	for fn := range all {
		// A generic function stands for its instances (the compiler
		// shares code between them too, and frames are matched by file
		// and line): its body when it has one (ssautil.AllFunctions
		// lists only the instances), else that of an instance (built
		// with ssa.InstantiateGenerics, the generic function has none).
		inst := fn.Origin() != nil && fn.Origin() != fn
		if inst && len(fn.Origin().Blocks) > 0 {
			fn = fn.Origin()
			inst = false
		}
		if fn.Synthetic != "" && !inst || len(fn.Blocks) == 0 || !inScope(rank, funcPkg(fn)) {
			continue
		}
		syn := fn.Syntax()
		if syn == nil {
			continue
		}
		start, end := g.fset.Position(syn.Pos()), g.fset.Position(syn.End())
		if !start.IsValid() {
			continue
		}
		cands = append(cands, &function{fn: fn, file: filepath.ToSlash(start.Filename), start: start.Line, end: max(end.Line, start.Line)})
	}
	slices.SortFunc(cands, func(a, b *function) int {
		if c := strings.Compare(a.file, b.file); c != 0 {
			return c
		}
		if c := int(a.fn.Syntax().Pos() - b.fn.Syntax().Pos()); c != 0 {
			return c
		}
		// Of the copies of a function (a package and its test variant),
		// the one of the earlier scope package represents them all.
		if c := rank[funcPkg(a.fn)] - rank[funcPkg(b.fn)]; c != 0 {
			return c
		}
		return strings.Compare(a.fn.String(), b.fn.String()) // instances: a stable representative
	})
	byFn := make(map[*ssa.Function]*function, len(cands))
	seen := make(map[key]*function, len(cands))
	for _, f := range cands {
		p := g.fset.Position(f.fn.Syntax().Pos())
		k := key{f.file, p.Line, p.Column}
		if first, ok := seen[k]; ok {
			byFn[f.fn] = first
			if o := f.fn.Origin(); o != nil {
				byFn[o] = first
			}
			continue
		}
		seen[k] = f
		f.index = len(g.funcs)
		g.funcs = append(g.funcs, f)
		byFn[f.fn] = f
		if o := f.fn.Origin(); o != nil {
			byFn[o] = f
		}
	}
	return byFn
}

// funcPkg is the package of fn, or of its generic origin for an instance
// (which has none of its own).
func funcPkg(fn *ssa.Function) *ssa.Package {
	if fn.Pkg == nil && fn.Origin() != nil {
		return fn.Origin().Pkg
	}
	return fn.Pkg
}

// segment splits f's blocks into segments and resolves their callees.
func (g *Graph) segment(f *function, r *resolver) {
	f.first = int32(g.nodes)
	f.blockSeg = make([]int32, len(f.fn.Blocks))
	for _, b := range f.fn.Blocks {
		f.blockSeg[b.Index] = int32(len(f.segs))
		from := 0
		for i, instr := range b.Instrs {
			if i > from && isChanOp(instr) {
				// A goroutine stopped at a channel operation is at
				// the start of a node.
				f.segs = append(f.segs, segment{block: b, from: from, to: i, kind: splitSeg})
				from = i
			}
			kind := plain
			var call ssa.CallInstruction
			switch instr := instr.(type) {
			case *ssa.Call:
				if _, builtin := instr.Call.Value.(*ssa.Builtin); !builtin {
					kind, call = callSeg, instr
				}
			case *ssa.Go:
				kind, call = goSeg, instr
			case *ssa.Defer:
				kind, call = deferSeg, instr
			case *ssa.RunDefers:
				kind = runDefersSeg
			}
			if kind == plain && i < len(b.Instrs)-1 {
				continue
			}
			s := segment{block: b, from: from, to: i + 1, kind: kind, call: call}
			if call != nil {
				s.callees, s.external = r.siteCallees(call)
				if s.external {
					s.callees = uniqueFuncs(append(s.callees, r.callbacks(call)...))
				}
			}
			if kind == deferSeg {
				f.defers = append(f.defers, int32(len(f.segs)))
			}
			f.segs = append(f.segs, s)
			from = i + 1
		}
	}
	// RunDefers descends into every deferred callee.
	for i := range f.segs {
		s := &f.segs[i]
		if s.kind != runDefersSeg {
			continue
		}
		for _, d := range f.defers {
			ds := &f.segs[d]
			s.callees = append(s.callees, ds.callees...)
			s.external = s.external || ds.external
		}
		s.callees = uniqueFuncs(s.callees)
	}
	g.nodes += len(f.segs)
}

// succs calls yield for each intraprocedural successor (local index) of
// segment i, and reports whether the segment returns from the function.
func (f *function) succs(i int, yield func(int32)) (returns bool) {
	s := &f.segs[i]
	if s.kind != plain {
		yield(int32(i + 1)) // a call never ends a block
		return false
	}
	switch s.block.Instrs[s.to-1].(type) {
	case *ssa.Return:
		return true
	case *ssa.Panic:
		if rec := f.fn.Recover; rec != nil {
			yield(f.blockSeg[rec.Index])
		}
		return false
	}
	for _, b := range s.block.Succs {
		yield(f.blockSeg[b.Index])
	}
	return false
}

// weight is the cost of leaving segment i: 1, plus the step-over cost of
// the call that ends it. It is inf when the call cannot return.
func (f *function) weight(i int) int64 {
	s := &f.segs[i]
	switch s.kind {
	case callSeg:
		return sat(1 + callCost(s))
	case runDefersSeg:
		w := int64(1)
		for _, d := range f.defers {
			w = sat(w + callCost(&f.segs[d]))
		}
		return w
	}
	return 1
}

// callCost is the step-over cost of the call ending s: the minimum
// summary of its callees, externalCost for external or unknown callees.
func callCost(s *segment) int64 {
	c := inf
	if s.external {
		c = externalCost
	}
	for _, g := range s.callees {
		c = min(c, g.summary)
	}
	return c
}

// sat saturates a sum of distances at inf.
func sat(x int64) int64 { return min(x, inf) }

func uniqueFuncs(fs []*function) []*function {
	slices.SortFunc(fs, func(a, b *function) int { return a.index - b.index })
	return slices.Compact(fs)
}

// resolver maps SSA callees to analyzed functions, looking through
// synthetic wrappers and generic instances.
type resolver struct {
	cg    *callgraph.Graph
	funcs map[*ssa.Function]*function
	memo  map[*ssa.Function]resolved
}

type resolved struct {
	fns      []*function
	external bool
}

// siteCallees returns the analyzed callees of a call site and whether it
// may call anything else.
func (r *resolver) siteCallees(site ssa.CallInstruction) ([]*function, bool) {
	var callees []*ssa.Function
	if n := r.cg.Nodes[site.Parent()]; n != nil {
		for _, e := range n.Out {
			if e.Site == site {
				callees = append(callees, e.Callee.Func)
			}
		}
	}
	if len(callees) == 0 {
		if sc := site.Common().StaticCallee(); sc != nil {
			callees = append(callees, sc)
		}
	}
	if len(callees) == 0 {
		return nil, true
	}
	var fns []*function
	external := false
	for _, c := range callees {
		res := r.resolve(c)
		fns = append(fns, res.fns...)
		external = external || res.external
	}
	return uniqueFuncs(fns), external
}

// callbacks returns the analyzed functions passed as arguments to a call:
// a function outside the analyzed packages (sort.Slice, sync.Once.Do,
// testing.T.Run, errgroup.Group.Go) may call them, so the call is treated
// as a possible call of each.
func (r *resolver) callbacks(site ssa.CallInstruction) []*function {
	var fns []*function
	for _, arg := range site.Common().Args {
		var fn *ssa.Function
		switch v := arg.(type) {
		case *ssa.Function:
			fn = v
		case *ssa.MakeClosure:
			fn, _ = v.Fn.(*ssa.Function)
		}
		if fn != nil {
			fns = append(fns, r.resolve(fn).fns...)
		}
	}
	return fns
}

// resolve returns the analyzed functions a call of fn runs.
func (r *resolver) resolve(fn *ssa.Function) resolved {
	if f, ok := r.funcs[fn]; ok {
		return resolved{fns: []*function{f}}
	}
	if res, ok := r.memo[fn]; ok {
		return res
	}
	r.memo[fn] = resolved{external: true} // cycle guard
	var res resolved
	switch {
	case fn.Origin() != nil && fn.Origin() != fn:
		res = r.resolve(fn.Origin())
	case fn.Synthetic != "" && len(fn.Blocks) > 0:
		n := r.cg.Nodes[fn]
		if n == nil || len(n.Out) == 0 {
			res.external = true
			break
		}
		for _, e := range n.Out {
			sub := r.resolve(e.Callee.Func)
			res.fns = append(res.fns, sub.fns...)
			res.external = res.external || sub.external
		}
		res.fns = uniqueFuncs(res.fns)
	default:
		res.external = true
	}
	r.memo[fn] = res
	return res
}

// summarize computes every function's dEnd and summary, bottom-up over
// the strongly connected components of the call graph, iterating inside a
// component until no summary changes.
func (g *Graph) summarize() {
	for _, f := range g.funcs {
		f.summary = inf
		f.dEnd = make([]int64, len(f.segs))
	}
	for _, scc := range g.sccs() {
		recursive := len(scc) > 1 || scc[0].callsItself()
		for changed := true; changed; {
			changed = false
			for _, f := range scc {
				f.computeEnd()
				if f.dEnd[0] != f.summary {
					f.summary = f.dEnd[0]
					changed = recursive
				}
			}
		}
	}
}

// callsItself reports whether f calls or defers itself directly.
func (f *function) callsItself() bool {
	for _, s := range f.segs {
		if (s.kind == callSeg || s.kind == deferSeg) && slices.Contains(s.callees, f) {
			return true
		}
	}
	return false
}

// computeEnd computes the distance of each segment to the function's
// return with the current callee summaries (a reverse Dijkstra search
// from the returning segments).
func (f *function) computeEnd() {
	n := len(f.segs)
	preds := make([][]int32, n)
	var h distHeap
	for i := range n {
		f.dEnd[i] = inf
	}
	for i := range n {
		if f.succs(i, func(s int32) { preds[s] = append(preds[s], int32(i)) }) {
			f.dEnd[i] = 1
			h.push(1, int32(i))
		}
	}
	for h.len() > 0 {
		d, s := h.pop()
		if d != f.dEnd[s] {
			continue
		}
		for _, p := range preds[s] {
			if nd := sat(d + f.weight(int(p))); nd < f.dEnd[p] {
				f.dEnd[p] = nd
				h.push(nd, p)
			}
		}
	}
}

// sccs returns the strongly connected components of the call graph of
// the analyzed functions (call and deferred-call edges), callees before
// callers (Tarjan's algorithm).
func (g *Graph) sccs() [][]*function {
	index := make([]int, len(g.funcs))
	low := make([]int, len(g.funcs))
	onStack := make([]bool, len(g.funcs))
	var stack []*function
	var out [][]*function
	next := 1
	var visit func(f *function)
	visit = func(f *function) {
		index[f.index], low[f.index] = next, next
		next++
		stack = append(stack, f)
		onStack[f.index] = true
		for _, s := range f.segs {
			if s.kind != callSeg && s.kind != deferSeg {
				continue
			}
			for _, c := range s.callees {
				switch {
				case index[c.index] == 0:
					visit(c)
					low[f.index] = min(low[f.index], low[c.index])
				case onStack[c.index]:
					low[f.index] = min(low[f.index], index[c.index])
				}
			}
		}
		if low[f.index] == index[f.index] {
			var scc []*function
			for {
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[top.index] = false
				scc = append(scc, top)
				if top == f {
					break
				}
			}
			out = append(out, scc)
		}
	}
	for _, f := range g.funcs {
		if index[f.index] == 0 {
			visit(f)
		}
	}
	return out
}

// reverse builds the reverse adjacency of the global graph: intra edges
// (with the weight of leaving their source), and descend and spawn edges
// of weight 0 to callee entries.
func (g *Graph) reverse() {
	type edge struct {
		from, to int32
		zero     bool
	}
	var edges []edge
	for _, f := range g.funcs {
		for i := range f.segs {
			from := f.first + int32(i)
			f.succs(i, func(s int32) { edges = append(edges, edge{from, f.first + s, false}) })
			if s := &f.segs[i]; s.kind == callSeg || s.kind == goSeg || s.kind == runDefersSeg {
				for _, c := range s.callees {
					edges = append(edges, edge{from, c.first, true})
				}
			}
		}
	}
	g.revOff = make([]int32, g.nodes+1)
	for _, e := range edges {
		g.revOff[e.to+1]++
	}
	for i := 1; i <= g.nodes; i++ {
		g.revOff[i] += g.revOff[i-1]
	}
	g.revFrom = make([]int32, len(edges))
	g.revZero = make([]bool, len(edges))
	fill := slices.Clone(g.revOff[:g.nodes])
	for _, e := range edges {
		k := fill[e.to]
		fill[e.to]++
		g.revFrom[k], g.revZero[k] = e.from, e.zero
	}
}

// owner returns the function of global node n and its local index.
func (g *Graph) owner(n int32) (*function, int) {
	i, found := slices.BinarySearchFunc(g.funcs, n, func(f *function, n int32) int { return int(f.first - n) })
	if !found {
		i--
	}
	f := g.funcs[i]
	return f, int(n - f.first)
}

// distancesTo runs the reverse Dijkstra search from the seed nodes (at
// distance 0) and returns every node's distance.
func (g *Graph) distancesTo(seeds []int32) []int64 {
	dist := make([]int64, g.nodes)
	for i := range dist {
		dist[i] = inf
	}
	var h distHeap
	for _, s := range seeds {
		dist[s] = 0
		h.push(0, s)
	}
	for h.len() > 0 {
		d, n := h.pop()
		if d != dist[n] {
			continue
		}
		for k := g.revOff[n]; k < g.revOff[n+1]; k++ {
			p := g.revFrom[k]
			nd := d
			if !g.revZero[k] {
				f, i := g.owner(p)
				nd = sat(d + f.weight(i))
			}
			if nd < dist[p] {
				dist[p] = nd
				h.push(nd, p)
			}
		}
	}
	return dist
}

// distHeap is a binary min-heap of (distance, node).
type distHeap struct{ items []heapItem }

type heapItem struct {
	d int64
	n int32
}

func (h *distHeap) len() int { return len(h.items) }

func (h *distHeap) push(d int64, n int32) {
	h.items = append(h.items, heapItem{d, n})
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.items[p].d <= h.items[i].d {
			break
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *distHeap) pop() (int64, int32) {
	top := h.items[0]
	last := len(h.items) - 1
	h.items[0] = h.items[last]
	h.items = h.items[:last]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < last && h.items[l].d < h.items[m].d {
			m = l
		}
		if r < last && h.items[r].d < h.items[m].d {
			m = r
		}
		if m == i {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top.d, top.n
}

// clamp converts a distance to the runtime's int32, inf to rt.Infinity.
func clamp(d int64) int32 {
	if d >= inf {
		return math.MaxInt32
	}
	return int32(d)
}
