package testselect

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An EdgeKind says how a function reaches another.
type EdgeKind string

// The kinds of edges.
const (
	// EdgeCall is a call, static or dynamic (through an interface or a
	// function value resolved by VTA).
	EdgeCall EdgeKind = "call"
	// EdgeGo is a go statement: the callee runs in a new goroutine.
	EdgeGo EdgeKind = "go"
	// EdgeDefer is a deferred call.
	EdgeDefer EdgeKind = "defer"
	// EdgeRef is a function value handed to code without a body (t.Run,
	// sync.Once.Do, errgroup.Go...), taken as called there.
	EdgeRef EdgeKind = "ref"
)

// An Edge is one step of the reachability graph.
type Edge struct {
	Caller, Callee *ssa.Function
	Kind           EdgeKind
	// Instr is the instruction of Caller that makes the step.
	Instr ssa.Instruction
	// Pos is where an observe point before the step goes: the start of
	// the call expression, or the go or defer keyword.
	Pos token.Position
}

// buildEdges computes the out edges of every function with a body: the
// call-graph edges first, then the references to functions with bodies
// that are handed over as values.
func (p *Program) buildEdges() {
	p.out = map[*ssa.Function][]Edge{}
	for _, fn := range p.funcs {
		var edges []Edge
		if node := p.Graph.Nodes[fn]; node != nil {
			for _, e := range node.Out {
				edges = append(edges, Edge{Caller: fn, Callee: e.Callee.Func, Kind: kindOf(e.Site), Instr: e.Site, Pos: p.StmtPos(e.Site)})
			}
		}
		edges = append(edges, p.refEdges(fn)...)
		p.out[fn] = edges
	}
}

func kindOf(instr ssa.CallInstruction) EdgeKind {
	switch instr.(type) {
	case *ssa.Go:
		return EdgeGo
	case *ssa.Defer:
		return EdgeDefer
	}
	return EdgeCall
}

// refEdges returns the edges for function values of fn that are not
// called by fn itself: closures and functions passed as arguments,
// stored, or returned.
func (p *Program) refEdges(fn *ssa.Function) []Edge {
	var edges []Edge
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			var callee *ssa.Value
			if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
				callee = &c.Common().Value
			}
			for _, op := range instr.Operands(nil) {
				if op == callee || *op == nil {
					continue
				}
				target := p.funcValue(*op)
				if target == nil {
					continue
				}
				site := p.useSite(instr)
				edges = append(edges, Edge{Caller: fn, Callee: target, Kind: EdgeRef, Instr: site, Pos: p.StmtPos(site)})
			}
		}
	}
	return edges
}

// funcValue returns the function with a body that v denotes, if v is a
// function. (A closure's function is an operand of its MakeClosure.)
func (p *Program) funcValue(v ssa.Value) *ssa.Function {
	switch v := v.(type) {
	case *ssa.Function:
		if p.user[v] {
			return v
		}
	}
	return nil
}

// useSite returns the instruction that hands a function value over: for a
// closure, the call that receives it, when there is one.
func (p *Program) useSite(instr ssa.Instruction) ssa.Instruction {
	mc, ok := instr.(*ssa.MakeClosure)
	if !ok || mc.Referrers() == nil {
		return instr
	}
	for _, r := range *mc.Referrers() {
		if c, ok := r.(ssa.CallInstruction); ok && c.Common().Value != mc {
			return r
		}
	}
	return instr
}

// reachFrom computes, by breadth-first search from the test function,
// the functions the test reaches and the fewest steps to each.
func (p *Program) reachFrom(t *Test) {
	t.reach = map[funcKey]int{}
	t.via = map[*ssa.Function]Edge{}
	t.first = map[funcKey]*ssa.Function{}
	dist := map[*ssa.Function]int{t.Func: 0}
	queue := []*ssa.Function{t.Func}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		k := p.keyOf(fn)
		if _, ok := t.reach[k]; !ok {
			t.reach[k] = dist[fn]
			t.first[k] = fn
		}
		for _, e := range p.out[fn] {
			if _, seen := dist[e.Callee]; seen {
				continue
			}
			dist[e.Callee] = dist[fn] + 1
			t.via[e.Callee] = e
			queue = append(queue, e.Callee)
		}
	}
	p.spawnedFrom(t, dist)
}

// spawnedFrom records the functions that run in goroutines the test
// starts: those reachable from the callee of a go statement the test
// reaches.
func (p *Program) spawnedFrom(t *Test, reached map[*ssa.Function]int) {
	t.spawned = map[funcKey]bool{}
	seen := map[*ssa.Function]bool{}
	var queue []*ssa.Function
	for fn := range reached {
		for _, e := range p.out[fn] {
			if e.Kind == EdgeGo && !seen[e.Callee] {
				seen[e.Callee] = true
				queue = append(queue, e.Callee)
			}
		}
	}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		t.spawned[p.keyOf(fn)] = true
		for _, e := range p.out[fn] {
			if !seen[e.Callee] {
				seen[e.Callee] = true
				queue = append(queue, e.Callee)
			}
		}
	}
}

// test returns the test named name: "TestX", the first of that name in
// the order of Tests, or "import/path.TestX" for the one of a package.
func (p *Program) test(name string) (*Test, error) {
	pkg, base := "", name
	if i := strings.LastIndex(name, "."); i >= 0 {
		pkg, base = name[:i], name[i+1:]
	}
	for _, t := range p.tests {
		if t.Name == base && (pkg == "" || t.Package == pkg) {
			return t, nil
		}
	}
	return nil, fmt.Errorf("no test %s in the loaded packages", name)
}

// Reaches reports whether the test reaches fn (any variant of it) and in
// how many call-graph steps. Here and in CallPath and CallChain, a test
// is named "TestX" (the first of that name in the order of Tests) or
// "import/path.TestX".
func (p *Program) Reaches(test string, fn *ssa.Function) (steps int, ok bool) {
	t, err := p.test(test)
	if err != nil {
		return 0, false
	}
	steps, ok = t.reach[p.keyOf(fn)]
	return steps, ok
}

// Spawns reports whether the test reaches fn (any variant of it) inside a
// goroutine it starts.
func (p *Program) Spawns(test string, fn *ssa.Function) bool {
	t, err := p.test(test)
	return err == nil && t.spawned[p.keyOf(fn)]
}

// CallPath returns the edges of a shortest path from the test function
// to fn (any variant of it), outermost first. It returns an error when
// the test does not reach fn.
func (p *Program) CallPath(test string, fn *ssa.Function) ([]Edge, error) {
	t, err := p.test(test)
	if err != nil {
		return nil, err
	}
	target := t.first[p.keyOf(fn)]
	if target == nil {
		return nil, fmt.Errorf("%s does not reach %s", test, ShortName(fn))
	}
	var path []Edge
	for f := target; f != t.Func; {
		e, ok := t.via[f]
		if !ok {
			break
		}
		path = append(path, e)
		f = e.Caller
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, nil
}

// CallChain returns the positions of the call sites on a shortest path
// from the test to the function named fn (see FuncsNamed for the
// spellings), outermost first. It returns nil when the test does not
// reach fn.
func (p *Program) CallChain(test, fn string) []token.Position {
	for _, f := range p.FuncsNamed(fn) {
		path, err := p.CallPath(test, f)
		if err != nil {
			continue
		}
		pos := make([]token.Position, len(path))
		for i, e := range path {
			pos[i] = e.Pos
		}
		return pos
	}
	return nil
}

// CallPathVia returns the edges of a shortest path from the test to fn
// (any variant of it) that takes at least one edge of the given kind,
// outermost first; with EdgeGo, a path on which fn runs in a goroutine
// the test started. It returns an error when there is no such path.
func (p *Program) CallPathVia(test string, fn *ssa.Function, kind EdgeKind) ([]Edge, error) {
	t, err := p.test(test)
	if err != nil {
		return nil, err
	}
	type state struct {
		fn  *ssa.Function
		via bool // an edge of kind was taken
	}
	type step struct {
		from state
		edge Edge
	}
	target := p.keyOf(fn)
	start := state{fn: t.Func}
	parent := map[state]step{}
	seen := map[state]bool{start: true}
	queue := []state{start}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.via && p.keyOf(s.fn) == target {
			var path []Edge
			for cur := s; cur != start; cur = parent[cur].from {
				path = append(path, parent[cur].edge)
			}
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path, nil
		}
		for _, e := range p.out[s.fn] {
			next := state{fn: e.Callee, via: s.via || e.Kind == kind}
			if seen[next] {
				continue
			}
			seen[next] = true
			parent[next] = step{from: s, edge: e}
			queue = append(queue, next)
		}
	}
	return nil, fmt.Errorf("%s does not reach %s through a %s edge", test, ShortName(fn), kind)
}
