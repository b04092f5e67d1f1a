package sequence

import (
	"fmt"
	"go/ast"
	"go/token"
	"slices"
	"sort"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
	"golang.org/x/tools/go/ssa"
)

// maxDefs bounds the data definitions added before one access.
const maxDefs = 2

// An access is one of the two conflicting accesses of a race.
type access struct {
	index   int
	site    warning.Site
	pos     token.Position
	kind    string
	fn      *ssa.Function
	block   *ssa.BasicBlock // nil when no instruction was found at pos
	chain   []testselect.Edge
	reached bool   // the test reaches the access's function
	note    string // why there is no chain
}

// race returns the sequence of a data race: the calls from the test to
// each racing function (the shared prefix once), the data definitions
// feeding the branches that guard each access or the calls leading to
// it, and the two accesses. The access whose path the test takes first
// comes first.
func (g *generator) race() ([]Sequence, error) {
	if len(g.w.Sites) < 2 {
		return nil, fmt.Errorf("want 2 sites (the conflicting accesses), have %d", len(g.w.Sites))
	}
	a, err := g.access(0)
	if err != nil {
		return nil, err
	}
	b, err := g.access(1)
	if err != nil {
		return nil, err
	}
	g.concurrentChains(a, b)
	prefix := commonPrefix(a.chain, b.chain)
	if takenLater(a.chain, a.pos, b.chain, b.pos) {
		a, b = b, a
	}
	var items []item
	for _, e := range a.chain[:prefix] {
		items = append(items, edgeItem(e))
	}
	for _, acc := range []*access{a, b} {
		for _, e := range acc.chain[prefix:] {
			items = append(items, edgeItem(e))
		}
		items = append(items, accessItem(acc))
	}
	g.placeDefs(items, a)
	g.placeDefs(items, b)
	var seq Sequence
	for _, it := range items {
		for _, d := range it.defs {
			seq.add(d.pos, KindObserve, "stores "+d.label, d.why)
		}
		seq.add(it.pos, it.kind, it.label, it.why)
	}
	return []Sequence{seq}, nil
}

// access resolves site i of the warning.
func (g *generator) access(i int) (*access, error) {
	s := g.w.Sites[i]
	at, err := sitePosition(g.prog, i, s)
	if err != nil {
		return nil, err
	}
	acc := &access{index: i, site: s, pos: at, kind: KindRead}
	if s.Access == warning.AccessWrite {
		acc.kind = KindWrite
	}
	expr, isCall := exprAt(g.prog, at)
	if expr != nil {
		acc.pos = g.prog.Fset.Position(expr.Pos())
		if isCall && len(s.Chain) > 0 {
			// The access happens in a callee: the position is the call
			// reaching it, where only an observe point fits.
			acc.kind = KindObserve
		}
	}
	fns := g.prog.FuncsAt(acc.pos)
	if len(fns) == 0 {
		return nil, fmt.Errorf("site %d at %s is not inside a function", i, short(acc.pos))
	}
	acc.fn = fns[0]
	if g.test != "" {
		acc.chain, err = g.prog.CallPath(g.test, acc.fn)
		if err != nil {
			acc.note = err.Error()
		} else {
			acc.reached = true
		}
	}
	if expr != nil {
		start, end := spanOf(g.prog, expr)
		if instrs := instrsIn(g.prog, acc.fn, start, end); len(instrs) > 0 {
			acc.block = instrs[0].Block()
		}
	}
	return acc, nil
}

// commonPrefix returns the number of leading edges the chains share.
func commonPrefix(a, b []testselect.Edge) int {
	n := 0
	for n < len(a) && n < len(b) && samePos(a[n].Pos, b[n].Pos) {
		n++
	}
	return n
}

// takenLater reports whether the test reaches the access at posA by
// chainA after the access at posB by chainB: where the chains part, in
// the function where they part, B's next step (its next call, or its
// access) comes first in the source.
func takenLater(chainA []testselect.Edge, posA token.Position, chainB []testselect.Edge, posB token.Position) bool {
	prefix := commonPrefix(chainA, chainB)
	next := func(chain []testselect.Edge, pos token.Position) token.Position {
		if prefix < len(chain) {
			return chain[prefix].Pos
		}
		return pos
	}
	return before(next(chainB, posB), next(chainA, posA))
}

// concurrentChains chooses the call paths of the two accesses so that
// they can run at the same time. For each access there are the shortest
// path from the test and the shortest one through a go statement; the
// first pair (fewest steps first) is kept in which the path the test
// takes first starts a goroutine after the paths part, or the shared
// part starts one (a go statement in a loop). Otherwise the first path
// would finish its access before the second path starts. Without such a
// pair the shortest paths stay.
func (g *generator) concurrentChains(a, b *access) {
	if !a.reached || !b.reached {
		return
	}
	type pair struct{ ca, cb []testselect.Edge }
	var pairs []pair
	for _, ca := range g.paths(a) {
		for _, cb := range g.paths(b) {
			pairs = append(pairs, pair{ca, cb})
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		return len(pairs[i].ca)+len(pairs[i].cb) < len(pairs[j].ca)+len(pairs[j].cb)
	})
	for _, p := range pairs {
		prefix := commonPrefix(p.ca, p.cb)
		first := p.ca
		if takenLater(p.ca, a.pos, p.cb, b.pos) {
			first = p.cb
		}
		if hasGo(p.ca[:prefix]) || hasGo(first[prefix:]) {
			a.chain, b.chain = p.ca, p.cb
			return
		}
	}
}

// paths returns the shortest path from the test to acc and, when it is
// another, the shortest one through a go statement.
func (g *generator) paths(acc *access) [][]testselect.Edge {
	out := [][]testselect.Edge{acc.chain}
	if hasGo(acc.chain) {
		return out
	}
	if spawned, err := g.prog.CallPathVia(g.test, acc.fn, testselect.EdgeGo); err == nil {
		out = append(out, spawned)
	}
	return out
}

func hasGo(chain []testselect.Edge) bool {
	for _, e := range chain {
		if e.Kind == testselect.EdgeGo {
			return true
		}
	}
	return false
}

// An item is a step of a race sequence, with the data definitions to
// observe just before it.
type item struct {
	pos              token.Position
	kind, label, why string
	caller           *ssa.Function // for call steps, nil for accesses
	access           *access       // for access steps
	defs             []placedDef
}

type placedDef struct {
	pos        token.Position
	label, why string
}

func edgeItem(e testselect.Edge) item {
	callee := testselect.ShortName(e.Callee)
	var why string
	switch e.Kind {
	case testselect.EdgeGo:
		why = "starts the goroutine running " + callee
	case testselect.EdgeDefer:
		why = "defers the call of " + callee
	case testselect.EdgeRef:
		why = "hands over " + callee + ", which runs there (t.Run, Once.Do, ...)"
	default:
		why = "calls " + callee
	}
	why = fmt.Sprintf("on the path from the test: %s %s", testselect.ShortName(e.Caller), why)
	return item{pos: e.Pos, kind: KindObserve, label: string(e.Kind) + " " + callee, why: why, caller: e.Caller}
}

func accessItem(acc *access) item {
	verb := "reads"
	if acc.site.Access == warning.AccessWrite {
		verb = "writes"
	}
	label := role(acc.site, verb+" "+acc.site.Object)
	why := fmt.Sprintf("racing access %d: %s %s in %s", acc.index, verb, acc.site.Object, testselect.ShortName(acc.fn))
	if acc.kind == KindObserve {
		why += " (through the call here)"
	}
	if acc.note != "" {
		why += "; no call steps: " + acc.note
	}
	return item{pos: acc.pos, kind: acc.kind, label: label, why: why, access: acc}
}

// placeDefs finds the data definitions that feed the branch conditions
// guarding acc — in its own function and in the callers on its chain —
// and attaches each to the step it must precede (see anchor).
func (g *generator) placeDefs(items []item, acc *access) {
	target := -1
	for i := range items {
		if items[i].access == acc {
			target = i
			break
		}
	}
	placed := 0
	for _, d := range g.guardDefs(acc) {
		if placed == maxDefs || g.alreadyPlaced(items, d.pos) {
			continue
		}
		at := g.anchor(items, d.def, target)
		items[at].defs = append(items[at].defs, placedDef{pos: d.pos, label: d.label, why: d.why})
		placed++
	}
}

// anchor returns the index of the item a definition d must precede:
// the first call step before the access (index access) that the test
// takes after d. A call step in function C follows d when the test's
// path to d leaves C earlier in the source (by a call, or by d itself
// when d is in C). Otherwise d precedes the access itself: it is made on
// the way, or by another goroutine.
func (g *generator) anchor(items []item, d def, access int) int {
	if g.test == "" {
		return access
	}
	path, err := g.prog.CallPath(g.test, d.fn)
	if err != nil {
		return access
	}
	for i := 0; i < access; i++ {
		it := items[i]
		if it.caller == nil {
			continue
		}
		at, ok := leaves(g.prog, path, d, it.caller)
		if ok && before(at, it.pos) {
			return i
		}
	}
	return access
}

// leaves returns where the path to d leaves fn: the position of its call
// made in fn, or of d itself when d is in fn.
func leaves(prog *testselect.Program, path []testselect.Edge, d def, fn *ssa.Function) (token.Position, bool) {
	for _, e := range path {
		if sameFunc(prog, e.Caller, fn) {
			return e.Pos, true
		}
	}
	if sameFunc(prog, d.fn, fn) {
		return d.pos, true
	}
	return token.Position{}, false
}

func (g *generator) alreadyPlaced(items []item, pos token.Position) bool {
	for _, it := range items {
		if samePos(it.pos, pos) {
			return true
		}
		for _, d := range it.defs {
			if samePos(d.pos, pos) {
				return true
			}
		}
	}
	return false
}

func sameFunc(prog *testselect.Program, a, b *ssa.Function) bool {
	if a == nil || b == nil {
		return false
	}
	return a.Name() == b.Name() && samePos(prog.Fset.Position(a.Pos()), prog.Fset.Position(b.Pos()))
}

// A guardDef is a data definition chosen for a sequence.
type guardDef struct {
	def
	label, why string
	steps      int
}

// guardDefs returns the stores that feed the conditions of the branches
// guarding acc (its block, and the call instructions of its chain),
// best first: for each guarding location, the store the test reaches in
// the fewest steps, preferring stores outside the guarded function, and
// skipping constant stores that would send the branch the other way.
func (g *generator) guardDefs(acc *access) []guardDef {
	type guarded struct {
		block *ssa.BasicBlock
		what  string
	}
	var blocks []guarded
	if acc.block != nil {
		blocks = append(blocks, guarded{acc.block, "the access"})
	}
	for _, e := range acc.chain {
		if e.Instr != nil && e.Instr.Block() != nil {
			blocks = append(blocks, guarded{e.Instr.Block(), "the call of " + testselect.ShortName(e.Callee)})
		}
	}
	var out []guardDef
	for _, gb := range blocks {
		fn := gb.block.Parent()
		deps := g.controlDeps(fn)
		for _, dep := range guards(deps, gb.block) {
			cond := dep.Branch.Instrs[len(dep.Branch.Instrs)-1].(*ssa.If).Cond
			condPos := g.condPos(dep.Branch)
			for _, use := range condUses(cond) {
				best, ok := g.bestStore(use, dep, fn, acc)
				if !ok {
					continue
				}
				best.label = keyLabel(use.key)
				best.why = fmt.Sprintf("data definition: stores %s, read by the branch condition at %s that guards %s", best.label, short(condPos), gb.what)
				out = append(out, best)
			}
		}
	}
	return out
}

// condPos returns the start of the condition of the if or for
// statement that block b branches on.
func (g *generator) condPos(b *ssa.BasicBlock) token.Position {
	cond := b.Instrs[len(b.Instrs)-1].(*ssa.If).Cond
	pos := cond.Pos()
	for i := len(b.Instrs) - 1; !pos.IsValid() && i >= 0; i-- {
		pos = b.Instrs[i].Pos()
	}
	at := g.prog.Fset.Position(pos)
	path, err := g.prog.PathAt(at)
	if err != nil {
		return at
	}
	for _, n := range path {
		var c ast.Expr
		switch n := n.(type) {
		case *ast.IfStmt:
			c = n.Cond
		case *ast.ForStmt:
			c = n.Cond
		}
		if c != nil {
			if start, end := spanOf(g.prog, c); start.Offset <= at.Offset && at.Offset < end.Offset {
				return start
			}
		}
	}
	return at
}

// bestStore picks the store of use.key to add before acc.
func (g *generator) bestStore(use keyUse, dep controlDep, guardedFn *ssa.Function, acc *access) (guardDef, bool) {
	var cands []guardDef
	for _, d := range g.stores(use.key) {
		if samePos(d.pos, acc.pos) || contradicts(d, use.polarity, dep.Succ) {
			continue
		}
		steps := 0
		if g.test != "" {
			n, ok := g.prog.Reaches(g.test, d.fn)
			if !ok {
				continue
			}
			steps = n
		}
		cands = append(cands, guardDef{def: d, steps: steps})
	}
	if len(cands) == 0 {
		return guardDef{}, false
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if ia, ib := sameFunc(g.prog, a.fn, guardedFn), sameFunc(g.prog, b.fn, guardedFn); ia != ib {
			return ib
		}
		if a.steps != b.steps {
			return a.steps < b.steps
		}
		return before(a.pos, b.pos)
	})
	return cands[0], true
}

// DataDefs returns the positions of the stores that feed the branch
// conditions guarding the two accesses of race warning w, in their own
// functions, for no test in particular: what a caller must have done
// before the accesses can run. It returns nil for other kinds.
func (gen *Generator) DataDefs(w *warning.Warning) ([]token.Position, error) {
	if w.Kind != warning.Race || len(w.Sites) < 2 {
		return nil, nil
	}
	g := &generator{gen: gen, w: w, prog: gen.prog}
	var out []token.Position
	for i := range 2 {
		acc, err := g.access(i)
		if err != nil {
			return nil, fmt.Errorf("sequence: warning %s: %w", w.ID, err)
		}
		for _, d := range g.guardDefs(acc) {
			if !slices.ContainsFunc(out, func(p token.Position) bool { return samePos(p, d.pos) }) {
				out = append(out, d.pos)
			}
		}
	}
	return out, nil
}
