package pfsm

import (
	"fmt"
	"go/token"
	"path/filepath"
	"slices"

	"github.com/confirm-go/confirm/confirm/rt"
	"golang.org/x/tools/go/ssa"
)

// export builds the target-independent part of the runtime tables: files,
// and for every function its per-line operation nodes and call sites, with
// global node ids (Distances renumbers them). Only nodes a stack frame can
// map to are exported.
func (g *Graph) export() {
	fileIndex := make(map[string]int)
	sites := make([][]rt.Call, len(g.funcs))
	callers := make(map[fileLine]int) // functions with calls at each line
	for i, f := range g.funcs {
		sites[i] = g.callSites(f)
		for j, c := range sites[i] {
			if j == 0 || sites[i][j-1].Line != c.Line {
				callers[fileLine{f.file, int(c.Line)}]++
			}
		}
	}
	for i, f := range g.funcs {
		fi, ok := fileIndex[f.file]
		if !ok {
			fi = len(g.files)
			fileIndex[f.file] = fi
			g.files = append(g.files, f.file)
		}
		rf := rt.Func{Name: f.fn.RelString(funcPkg(f.fn).Pkg), File: fi, Start: f.start, End: f.end, Lit: f.fn.Parent() != nil, Entry: f.first}
		for _, op := range g.lineOps(f) {
			rf.Lines = append(rf.Lines, int32(op.line))
			rf.Nodes = append(rf.Nodes, f.first+op.seg)
		}
		calls := sites[i]
		for j := range calls {
			// The runtime needs callees only to tell apart the calls of
			// a line.
			c := &calls[j]
			alone := (j == 0 || calls[j-1].Line != c.Line) && (j == len(calls)-1 || calls[j+1].Line != c.Line)
			if alone && !c.Go && callers[fileLine{f.file, int(c.Line)}] == 1 {
				c.Callees = nil
			}
		}
		rf.Calls = calls
		g.rtFuncs = append(g.rtFuncs, rf)
	}
}

// A lineOp is the segment of the operation at a source line.
type lineOp struct {
	line int
	seg  int32
	rank int
}

// lineOps returns, by ascending line, the segment of the operation at each
// line of f, preferring the first instruction that can be a scheduling
// point (a call, go, defer, channel operation or select) over the first
// instruction of the line. As a side effect it records every segment
// holding an instruction of each line in g.lineSegs, for targets.
func (g *Graph) lineOps(f *function) []lineOp {
	best := make(map[int]lineOp)
	for i, s := range f.segs {
		for _, instr := range s.block.Instrs[s.from:s.to] {
			pos := g.position(instr.Pos())
			if !pos.IsValid() {
				continue
			}
			file := filepath.ToSlash(pos.Filename)
			k := fileLine{file, pos.Line}
			if segs := g.lineSegs[k]; len(segs) == 0 || segs[len(segs)-1] != f.first+int32(i) {
				g.lineSegs[k] = append(segs, f.first+int32(i))
			}
			if file != f.file {
				continue
			}
			op := lineOp{line: pos.Line, seg: int32(i), rank: rank(instr)}
			if old, ok := best[pos.Line]; !ok || op.rank < old.rank {
				best[pos.Line] = op
			}
		}
	}
	// Deferred calls run at the closing brace of a function that ends
	// without a return statement, where there is no instruction.
	if _, ok := best[f.end]; !ok {
		if exit, ok := f.exitSeg(); ok {
			best[f.end] = lineOp{line: f.end, seg: exit}
		}
	}
	ops := make([]lineOp, 0, len(best))
	for _, op := range best {
		ops = append(ops, op)
	}
	slices.SortFunc(ops, func(a, b lineOp) int { return a.line - b.line })
	return ops
}

// exitSeg returns the segment that runs the deferred calls, else the
// first returning segment.
func (f *function) exitSeg() (int32, bool) {
	ret := int32(-1)
	for i := range f.segs {
		if f.segs[i].kind == runDefersSeg {
			return int32(i), true
		}
		if ret < 0 && f.succs(i, func(int32) {}) {
			ret = int32(i)
		}
	}
	return ret, ret >= 0
}

// rank orders the instructions of a line as candidates for the operation a
// stopped goroutine is about to run: 0 for those that can be scheduling
// points, 1 for the rest.
func rank(instr ssa.Instruction) int {
	switch instr := instr.(type) {
	case *ssa.Call:
		if _, builtin := instr.Call.Value.(*ssa.Builtin); !builtin {
			return 0
		}
	case *ssa.Go, *ssa.Defer, *ssa.Send, *ssa.Select:
		return 0
	case *ssa.UnOp:
		if instr.Op == token.ARROW {
			return 0
		}
	}
	return 1
}

// callSites returns f's calls and go statements by ascending line, with
// global return-site nodes.
func (g *Graph) callSites(f *function) []rt.Call {
	var calls []rt.Call
	for i, s := range f.segs {
		if s.kind != callSeg && s.kind != goSeg {
			continue
		}
		// The call's left parenthesis: where a caller frame stands, also
		// for go statements (the instrumented statement's wrapper calls
		// the function there), whose own position is the go keyword.
		pos := g.position(s.call.Common().Pos())
		if !pos.IsValid() || filepath.ToSlash(pos.Filename) != f.file {
			continue
		}
		c := rt.Call{Line: int32(pos.Line), Node: f.first + int32(i) + 1, Go: s.kind == goSeg}
		for _, callee := range s.callees {
			c.Callees = append(c.Callees, int32(callee.index))
		}
		calls = append(calls, c)
	}
	slices.SortStableFunc(calls, func(a, b rt.Call) int { return int(a.Line - b.Line) })
	return calls
}

func (g *Graph) position(p token.Pos) token.Position {
	if !p.IsValid() {
		return token.Position{}
	}
	return g.fset.Position(p)
}

// Distances computes the tables of targets. Functions from which no
// target is reachable are listed without lines and calls: a frame in one
// stands at the function's entry, whose End is the function's summary. The
// result shares read-only parts (file names, line and callee lists) with
// g and with every other Distances g returned; they must not be modified.
func (g *Graph) Distances(targets []Target) (*rt.Distances, error) {
	d := &rt.Distances{Files: g.files, Funcs: make([]rt.Func, len(g.funcs))}
	dists := make([][]int64, len(targets))
	for i, t := range targets {
		file, seeds, err := g.seeds(t)
		if err != nil {
			return nil, err
		}
		dists[i] = g.distancesTo(seeds)
		d.Targets = append(d.Targets, rt.Target{File: file, Line: t.Line, Col: t.Col, Nodes: []int32{}, Dist: []int32{}})
	}
	e := &exporter{g: g, index: make(map[int32]int32)}
	for i, f := range g.funcs {
		tmpl := &g.rtFuncs[i]
		rf := rt.Func{Name: tmpl.Name, File: tmpl.File, Start: tmpl.Start, End: tmpl.End, Lit: tmpl.Lit, Entry: e.node(tmpl.Entry)}
		if f.reaches(dists) {
			rf.Lines = tmpl.Lines
			rf.Nodes = make([]int32, len(tmpl.Nodes))
			for k, n := range tmpl.Nodes {
				rf.Nodes[k] = e.node(n)
			}
			rf.Calls = slices.Clone(tmpl.Calls)
			for k := range rf.Calls {
				rf.Calls[k].Node = e.node(rf.Calls[k].Node)
			}
		}
		d.Funcs[i] = rf
	}
	d.End = e.end
	for t, dist := range dists {
		tg := &d.Targets[t]
		for r, n := range e.nodes {
			if dist[n] < inf {
				tg.Nodes = append(tg.Nodes, int32(r))
				tg.Dist = append(tg.Dist, clamp(dist[n]))
			}
		}
	}
	return d, nil
}

// reaches reports whether some target is reachable from a node of f.
func (f *function) reaches(dists [][]int64) bool {
	for _, dist := range dists {
		for _, d := range dist[f.first : int(f.first)+len(f.segs)] {
			if d < inf {
				return true
			}
		}
	}
	return false
}

// An exporter numbers the nodes of one Distances.
type exporter struct {
	g     *Graph
	index map[int32]int32 // global node -> runtime node
	nodes []int32         // runtime node -> global node
	end   []int32         // runtime node -> End
}

func (e *exporter) node(n int32) int32 {
	if r, ok := e.index[n]; ok {
		return r
	}
	r := int32(len(e.nodes))
	e.index[n] = r
	e.nodes = append(e.nodes, n)
	f, i := e.g.owner(n)
	e.end = append(e.end, clamp(f.dEnd[i]))
	return r
}

// seeds returns the nodes holding instructions of the target's line, and
// the target's file as the program records it. A target file may be given
// as a suffix of the recorded path ("pkg/file.go").
func (g *Graph) seeds(t Target) (string, []int32, error) {
	if t.Line <= 0 {
		return "", nil, fmt.Errorf("pfsm: target %s: line must be positive", t)
	}
	file := filepath.ToSlash(t.File)
	if !slices.Contains(g.files, file) {
		var found []string
		for _, f := range g.files {
			if sameFile(f, file) {
				found = append(found, f)
			}
		}
		switch len(found) {
		case 0:
			return "", nil, fmt.Errorf("pfsm: target %s: file is not part of the analyzed packages", t)
		case 1:
			file = found[0]
		default:
			return "", nil, fmt.Errorf("pfsm: target %s: file name is ambiguous (%s, %s, ...)", t, found[0], found[1])
		}
	}
	segs := g.lineSegs[fileLine{file, t.Line}]
	if len(segs) == 0 {
		return "", nil, fmt.Errorf("pfsm: target %s: no instruction at this line", t)
	}
	return file, segs, nil
}
