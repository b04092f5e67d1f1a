package race

import (
	"fmt"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// A goroutine is what the analyzer knows about one go statement: the
// accesses the started function performs to memory of the spawning
// function, and whether it signals (closes or sends on a channel, calls
// WaitGroup.Done) so that a wait in the spawner orders it.
type goroutine struct {
	// stmt is the go statement, or, for goroutines a callee starts and
	// leaves running, the call.
	stmt     ssa.CallInstruction
	name     string // the function the go statement starts
	entries  []*ssa.Function
	accesses []*access
	signals  bool
	// test is set for a goroutine a call left running (leftRunning)
	// whose go statement is in a _test.go file.
	test bool
}

// checkGoroutines looks at every go statement of the package and reports
// memory the started goroutine shares with the code after the go
// statement, with another goroutine started by the same function, or
// with other instances of itself when it is started in a loop.
func (c *checker) checkGoroutines() {
	for _, fn := range c.funcs {
		fi := c.info(fn)
		var gos, bgs []*goroutine
		for _, cs := range fi.calls {
			if g, ok := cs.instr.(*ssa.Go); ok {
				gos = append(gos, c.startedBy(fi, g, cs))
			} else if !fi.excluded {
				bgs = append(bgs, c.leftRunning(fi, cs)...)
				gos = append(gos, c.handedOff(fi, cs)...)
				for _, g := range c.runInParallel(fi, cs) {
					c.checkCopies(g)
				}
			}
		}
		if len(gos)+len(bgs) == 0 {
			continue
		}
		sp := newSpawner(c, fi)
		for _, g := range bgs {
			c.checkAfterCall(sp, g)
			// The goroutines the function starts while the callee's
			// runs (a test's goroutines calling what the constructor's
			// loop calls too).
			for _, h := range gos {
				if sp.after(g.stmt, h.stmt) && !sp.ordered(g, h.stmt) {
					c.checkPair(g, throughCells(h))
				} else if sp.after(h.stmt, g.stmt) && !sp.ordered(h, g.stmt) {
					c.checkPair(throughCells(h), g)
				}
			}
		}
		for i, g := range gos {
			c.checkAgainstSpawner(sp, g)
			c.checkAgainstMethods(sp, g)
			if sp.inLoop(g.stmt) {
				c.checkInstances(sp, g)
			}
			for _, h := range gos[i+1:] {
				if sp.after(g.stmt, h.stmt) && !sp.ordered(g, h.stmt) {
					c.checkPair(g, sp.sameRound(g, h))
				}
			}
		}
	}
}

// startedBy describes the goroutine that go statement g in fi.fn starts.
func (c *checker) startedBy(fi *funcInfo, g *ssa.Go, cs callSite) *goroutine {
	gr := &goroutine{stmt: g}
	gr.entries = c.callees(g)
	for _, callee := range gr.entries {
		if gr.name == "" {
			gr.name = funcName(callee)
		}
	}
	if gr.name == "" {
		gr.name = "started at " + c.pass.Fset.Position(c.exprStart(g.Pos())).String()
	}
	gr.accesses = c.callAccesses(fi.fn, cs, &gr.signals)
	// What the goroutines it starts and leaves running do runs beside
	// the goroutine's siblings too (a test goroutine calling Watch,
	// which starts the send loop).
	bg := c.callBackground(fi.fn, cs)
	gr.accesses = slices.Concat(gr.accesses, bg.accesses, bg.passed)
	sortWritesFirst(gr.accesses)
	return gr
}

// leftRunning returns the goroutines that the callees of call site cs
// start and leave running (s.Start() starting s.loop), each with its
// accesses to fn's memory: fn's accesses after the call are matched with
// them like a spawner's after its go statement.
func (c *checker) leftRunning(fi *funcInfo, cs callSite) []*goroutine {
	accs := c.callBackground(fi.fn, cs).accesses
	if len(accs) == 0 {
		return nil
	}
	byName := map[string]*goroutine{}
	var out []*goroutine
	for _, a := range accs {
		g := byName[a.goroutine]
		if g == nil {
			// Whether it signals is not known here: a wait after the
			// call is taken to wait for it.
			g = &goroutine{stmt: cs.instr, name: a.goroutine, signals: true, test: a.goTest}
			byName[a.goroutine] = g
			out = append(out, g)
		}
		g.accesses = append(g.accesses, a)
	}
	for _, g := range out {
		sortWritesFirst(g.accesses)
	}
	return out
}

// callsTo returns the calls of m that may call fn.
func (c *checker) callsTo(m, fn *ssa.Function) []ssa.CallInstruction {
	var out []ssa.CallInstruction
	for _, cs := range c.info(m).calls {
		if slices.Contains(c.callees(cs.instr), fn) {
			out = append(out, cs.instr)
		}
	}
	return out
}

// setsUpBefore reports whether method m makes access b only before its
// calls starts of the spawner, when it makes any (Start sets g.stopper,
// then calls bootstrap, which starts the goroutine): b sets the
// goroutine up, and making it again while the goroutine runs takes a
// second start.
func (c *checker) setsUpBefore(m *ssa.Function, starts []ssa.CallInstruction, b *access) bool {
	site := siteIn(m, b)
	if site == nil || len(starts) == 0 {
		return false
	}
	msp := newSpawner(c, c.info(m))
	for _, call := range starts {
		if call == site || msp.after(call, site) {
			return false
		}
	}
	return true
}

// handedOff returns the goroutines that run the functions call site cs
// passes to its callees, which start a goroutine calling them and return
// (pool.Run(key, func() { ... }), errgroup's g.Go, WaitGroup.Go): each
// is checked like a go statement at the call.
func (c *checker) handedOff(fi *funcInfo, cs callSite) []*goroutine {
	var out []*goroutine
	for _, callee := range c.callees(cs.instr) {
		params, signals := c.startedParams(cs.instr.Common(), callee, false)
		for _, i := range params {
			out = c.addPassed(out, fi, cs, callee, paramCall{param: i}, signals)
		}
	}
	return out
}

// addPassed appends to out the goroutine that runs the function call site
// cs passes to callee for pc.param, with its accesses through pc, unless
// out has it already or it reaches nothing of fi.fn's.
func (c *checker) addPassed(out []*goroutine, fi *funcInfo, cs callSite, callee *ssa.Function, pc paramCall, signals bool) []*goroutine {
	g := funcValue(passedFunc(argument(cs.instr.Common(), pc.param)))
	if g == nil || slices.ContainsFunc(out, func(gr *goroutine) bool { return gr.entries[0] == g }) {
		return out
	}
	gr := &goroutine{stmt: cs.instr, name: funcName(g), entries: []*ssa.Function{g}, signals: signals}
	gr.accesses = c.passedAccesses(fi.fn, cs, callee, pc, nil, &gr.signals, nil)
	if len(gr.accesses) == 0 {
		return out
	}
	sortWritesFirst(gr.accesses)
	return append(out, gr)
}

// runInParallel returns the goroutines that run the functions call site
// cs passes to its callees, which call them from goroutines they start in
// a loop (see summary.parallel): each runs in several copies at once.
func (c *checker) runInParallel(fi *funcInfo, cs callSite) []*goroutine {
	var out []*goroutine
	for _, callee := range c.callees(cs.instr) {
		for _, pc := range c.parallelOf(callee) {
			out = c.addPassed(out, fi, cs, callee, pc, false)
		}
		if i, ok := c.libraryParam(servesArgument, callee); ok && !c.inTestFile(fi.fn) {
			// A handler the program serves: the requests of a test
			// come one after another, as the test sends them.
			out = c.addPassed(out, fi, cs, callee, paramCall{param: i}, false)
		}
	}
	return out
}

// checkCopies reports memory that the copies of goroutine g, which a
// callee runs several of at once, share: the caller's memory that the
// function it passed reaches (a counter the callback increments).
func (c *checker) checkCopies(g *goroutine) {
	spawner := g.stmt.Parent()
	shared := slices.DeleteFunc(slices.Clone(g.accesses), func(a *access) bool {
		return unrooted(a) || c.goroutineOwn(a.root, spawner) || !a.write && c.testDriven(spawner, a)
	})
	byLoc := map[loc][]*access{}
	for _, a := range shared {
		byLoc[a.loc()] = append(byLoc[a.loc()], a)
	}
	for _, a := range shared {
		b := conflicting(a, byLoc[a.loc()])
		if b == nil || !c.inTestFile(spawner) && c.ofTestType(a) {
			continue
		}
		whoA, goA := g.who(a)
		whoB, goB := g.who(b)
		c.reportShared(spawner, a, whoA, goA, b, "another instance of "+strings.TrimPrefix(whoB, "goroutine "), goB)
	}
}

// startsArgument maps the functions of the standard library that run a
// function argument in a goroutine of their own, once they have returned,
// to the index of that parameter (receiver first).
var startsArgument = map[string]int{
	"time.AfterFunc":    1,
	"context.AfterFunc": 1,
}

// servesArgument maps the functions of the standard library that have a
// function argument run by a server, in a goroutine per request, many at
// once, to the index of that parameter (receiver first).
var servesArgument = map[string]int{
	"net/http.HandleFunc":             1,
	"net/http.Handle":                 1,
	"(*net/http.ServeMux).HandleFunc": 2,
	"(*net/http.ServeMux).Handle":     2,
}

// startedParams returns the function-typed parameters (receiver first)
// of callee, called by common, that a goroutine callee starts and leaves
// running calls, and whether callee signals (WaitGroup.Done) so that a
// wait orders that goroutine. With direct, a callee of this package
// counts only through its own go statements (goParams), not its summary,
// and signals is not known: the escape analysis asks while summaries are
// still being made.
func (c *checker) startedParams(common *ssa.CallCommon, callee *ssa.Function, direct bool) ([]int, bool) {
	switch {
	case isSyncMethod(common, "WaitGroup", "Go"):
		return []int{1}, true
	case c.isLocal(callee) && direct:
		return goParams(callee), false
	case c.isLocal(callee):
		s := c.summary(callee)
		var params []int
		for _, pc := range s.bgParamCalls {
			params = append(params, pc.param)
		}
		return params, s.signals
	}
	if i, ok := c.libraryParam(startsArgument, callee); ok {
		return []int{i}, false // time.AfterFunc
	}
	if f := c.importFact(callee); f != nil {
		return f.Starts, f.Signals
	}
	return nil, false
}

// libraryParam returns the parameter index that table (startsArgument,
// servesArgument) gives callee, a function of another package.
func (c *checker) libraryParam(table map[string]int, callee *ssa.Function) (int, bool) {
	if c.isLocal(callee) {
		return 0, false
	}
	i, ok := table[callee.String()]
	return i, ok
}

// handsOff reports whether call passes v for a parameter that a goroutine
// the callee starts calls (see startedParams), or hands to such a
// goroutine (see goPublishes): v is then shared with the goroutine. A
// closure carrying v hands it off where it runs, called or passed to a
// function that calls it, when it starts a goroutine with what it
// captures (run := func() { go s.worker() }; start(run)).
func (c *checker) handsOff(call *ssa.Call, v ssa.Value) bool {
	common := &call.Call
	if mc, ok := v.(*ssa.MakeClosure); ok && common.Value == v {
		return c.closurePublishes(mc)
	}
	callee := common.StaticCallee()
	if callee == nil {
		return false
	}
	params, _ := c.startedParams(common, callee, true)
	if slices.ContainsFunc(params, func(i int) bool { return argument(common, i) == v }) {
		return true
	}
	if !c.isLocal(callee) {
		return false
	}
	for i, p := range callee.Params {
		if argument(common, i) != v {
			continue
		}
		if c.goPublishes(p, 0) {
			return true
		}
		if mc, ok := v.(*ssa.MakeClosure); ok && calledIn(p) && c.closurePublishes(mc) {
			return true
		}
	}
	return false
}

// closurePublishes reports whether the function literal mc makes starts
// a goroutine with one of the variables it captures.
func (c *checker) closurePublishes(mc *ssa.MakeClosure) bool {
	lit, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return false
	}
	for i := range mc.Bindings {
		if i < len(lit.FreeVars) && c.goPublishes(lit.FreeVars[i], 0) {
			return true
		}
	}
	return false
}

// calledIn reports whether its function calls parameter p.
func calledIn(p *ssa.Parameter) bool {
	for _, r := range *p.Referrers() {
		if call, ok := r.(*ssa.Call); ok && call.Call.Value == p {
			return true
		}
	}
	return false
}

// maxPublishDepth bounds how deep goPublishes follows calls.
const maxPublishDepth = 4

// goPublishes reports whether v, a parameter of its function or a
// variable a function literal captures (a free variable), reaches a
// goroutine the function starts, itself or through the package's
// functions it passes v to and the literals it calls capturing v: an
// argument or the receiver of the go statement (go p.loop()), or captured
// by the function literal it starts (go func() { p.resolve() }()). A
// constructor that calls a method starting the object's loop has
// published the object when the call returns. Only the code is read, no
// summary: the escape analysis asks while summaries are still being made.
func (c *checker) goPublishes(v ssa.Value, depth int) bool {
	if r, ok := c.publishes[v]; ok {
		return r
	}
	c.publishes[v] = false // a recursive call reaches nothing new
	var fn *ssa.Function
	var is func(x ssa.Value) bool
	switch v := v.(type) {
	case *ssa.Parameter:
		fn = v.Parent()
		is = func(x ssa.Value) bool { return paramOf(fn, x) == v }
	case *ssa.FreeVar:
		fn = v.Parent()
		is = func(x ssa.Value) bool {
			if load, ok := x.(*ssa.UnOp); ok && load.Op == token.MUL {
				x = load.X
			}
			return x == v
		}
	default:
		return false
	}
	holds := func(x ssa.Value) bool {
		if is(x) {
			return true
		}
		mc, ok := x.(*ssa.MakeClosure)
		return ok && slices.ContainsFunc(mc.Bindings, is)
	}
	found := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || found {
				continue
			}
			common := call.Common()
			if _, isGo := call.(*ssa.Go); isGo {
				found = holds(common.Value) || slices.ContainsFunc(common.Args, holds)
				continue
			}
			callee := common.StaticCallee()
			if callee == nil || !c.isLocal(callee) || depth >= maxPublishDepth {
				continue
			}
			if mc, ok := common.Value.(*ssa.MakeClosure); ok {
				// A literal called in place, capturing v.
				for i, bound := range mc.Bindings {
					if is(bound) && i < len(callee.FreeVars) && c.goPublishes(callee.FreeVars[i], depth+1) {
						found = true
					}
				}
			}
			for i, q := range callee.Params {
				if arg := argument(common, i); arg != nil && is(arg) && c.goPublishes(q, depth+1) {
					found = true
					break
				}
			}
		}
	}
	c.publishes[v] = found
	return found
}

// goParams returns the function-typed parameters of fn that its go
// statements call: go work(), or go func() { ...; work() }().
func goParams(fn *ssa.Function) []int {
	var out []int
	add := func(v ssa.Value) {
		if p := paramOf(fn, v); p != nil {
			out = append(out, indexOfParam(fn, p))
		}
	}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			add(g.Call.Value)
			mc, ok := g.Call.Value.(*ssa.MakeClosure)
			if !ok {
				continue
			}
			lit := mc.Fn.(*ssa.Function)
			for _, lb := range lit.Blocks {
				for _, li := range lb.Instrs {
					call, ok := li.(ssa.CallInstruction)
					if !ok {
						continue
					}
					if pc, ok := calledParam(lit, callSite{instr: call}); ok && pc.free && pc.param < len(mc.Bindings) {
						add(mc.Bindings[pc.param])
					}
				}
			}
		}
	}
	return out
}

// checkAfterCall pairs the accesses of a goroutine that a call left
// running with the calling function's accesses after the call (s.x read
// after s.Start(), or through s.SetFilter()). Later calls of the function
// that started it, calls that may start it too, and calls in a loop
// around the call are left out: they are often the same start path
// again, which the callee's state decides (a second Start finding the
// loop running, a connect loop retrying after a failed start). The
// caller's access comes first: the go statement is elsewhere, and each
// caller is a finding of its own.
func (c *checker) checkAfterCall(sp *spawner, g *goroutine) {
	byLoc := map[loc][]*access{}
	for _, a := range g.accesses {
		byLoc[a.loc()] = append(byLoc[a.loc()], a)
	}
	starts := c.callees(g.stmt)
	startPath := map[ssa.CallInstruction]bool{}
	for _, b := range sp.accessesAfter(g, false) {
		if call, ok := b.via.(ssa.CallInstruction); ok && call.Parent() == sp.fi.fn {
			again, known := startPath[call]
			if !known {
				_, deferred := call.(*ssa.Defer) // (runs at the end, not before g.stmt again)
				again = !deferred && sp.after(call, g.stmt) || slices.ContainsFunc(c.callees(call), func(f *ssa.Function) bool { return slices.Contains(starts, f) }) || c.mayStart(sp.fi, call, g.name)
				startPath[call] = again
			}
			if again || whileStopped(b, starts) {
				continue
			}
		}
		if c.waitedForExit(b, c.startedFuncs(g)) || c.testPoke(b, g) {
			continue
		}
		if a := conflicting(b, byLoc[b.loc()]); a != nil && !c.gatedAfter(a, b, sp.fi.fn, g.stmt) {
			c.reportShared(sp.fi.fn, b, funcName(sp.fi.fn), "", a, "goroutine "+g.name, g.name)
		}
	}
}

// testPoke reports whether b is a test's own access (made by code of a
// _test.go file) to the package's memory while a goroutine the package
// itself starts is running, or one the test makes through the package's
// internals (an unexported function or method, or a method of an
// unexported type, that the test calls itself): a white-box test setting
// a field, or pushing onto an internal queue, next to a timer loop or
// janitor of the object it built. The test relies on that goroutine being
// idle (no deadline armed yet, an interval longer than the test), which
// the analysis does not follow, as for a benchmark (inBenchmark). What
// the test does through the package's API, and goroutines the test
// starts, stay checked.
func (c *checker) testPoke(b *access, g *goroutine) bool {
	if b.obj.owner != nil || b.obj.test || g.test || b.fn == nil {
		return false
	}
	if c.inTestFile(b.fn) {
		return true
	}
	call, ok := b.via.(ssa.CallInstruction)
	if !ok || !c.inTestFile(call.Parent()) {
		return false
	}
	callees := c.callees(call)
	return len(callees) > 0 && !slices.ContainsFunc(callees, func(fn *ssa.Function) bool {
		return fn.Pkg != c.pkg || c.inTestFile(fn) || !internal(fn)
	})
}

// internal reports whether fn is unexported, or a method of an
// unexported type: none of the package's API.
func internal(fn *ssa.Function) bool {
	if fn.Parent() != nil {
		return false // a function literal is reached through its maker
	}
	if !token.IsExported(fn.Name()) {
		return true
	}
	if recv := fn.Signature.Recv(); recv != nil {
		if n, ok := derefNamedType(recv.Type()); ok {
			return !n.Obj().Exported()
		}
	}
	return false
}

// whileStopped reports whether access b runs only while a boolean field
// is false (if !c.running { c.entries = append(...) }) that one of the
// functions in starts, which start the goroutine, sets to true: the
// goroutine runs while the flag is set (cron's Schedule hands entries to
// the running loop over a channel instead).
func whileStopped(b *access, starts []*ssa.Function) bool {
	for _, at := range []ssa.Instruction{b.instr, b.inner} {
		if at == nil || at.Block() == nil {
			continue
		}
		found := false
		branchConds(at, func(cond ssa.Value, want bool) bool {
			if fa := loadedField(cond); fa != nil && !want {
				for _, fn := range starts {
					if setsTrue(fn, fa) {
						found = true
						return false
					}
				}
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

// loadedField returns the field address that v loads, or nil.
func loadedField(v ssa.Value) *ssa.FieldAddr {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		fa, _ := u.X.(*ssa.FieldAddr)
		return fa
	}
	return nil
}

// setsTrue reports whether fn stores the constant true into the field fa
// addresses (the same field of the same struct type).
func setsTrue(fn *ssa.Function, fa *ssa.FieldAddr) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok {
				continue
			}
			sfa, ok := st.Addr.(*ssa.FieldAddr)
			k, isConst := st.Val.(*ssa.Const)
			if ok && isConst && sfa.Field == fa.Field && types.Identical(sfa.X.Type(), fa.X.Type()) &&
				k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value) {
				return true
			}
		}
	}
	return false
}

// mayStart reports whether call, a call of fi.fn, may leave the goroutine
// named name running.
func (c *checker) mayStart(fi *funcInfo, call ssa.CallInstruction, name string) bool {
	for _, cs := range fi.calls {
		if cs.instr != call {
			continue
		}
		for _, a := range c.callBackground(fi.fn, cs).accesses {
			if a.goroutine == name {
				return true
			}
		}
	}
	return false
}

// goroutineName names the function go statement g starts.
func (c *checker) goroutineName(g *ssa.Go) string {
	for _, callee := range c.callees(g) {
		return funcName(callee)
	}
	return "started at " + c.pass.Fset.Position(c.exprStart(g.Pos())).String()
}

// checkAgainstSpawner pairs the goroutine's accesses with those of the
// spawning function after the go statement that no wait orders.
func (c *checker) checkAgainstSpawner(sp *spawner, g *goroutine) {
	byLoc := map[loc][]*access{}
	for _, a := range sp.accessesAfter(g, false) {
		if !c.waitedForExit(a, g.entries) {
			byLoc[a.loc()] = append(byLoc[a.loc()], a)
		}
	}
	for _, a := range g.accesses {
		others := byLoc[a.loc()]
		if arg := c.iterationArg(sp, g, a); arg != nil {
			// The element the loop handed this goroutine: the
			// spawner's later rounds set up the next elements.
			others = slices.DeleteFunc(slices.Clone(others), func(b *access) bool { return sp.laterRound(g.stmt, arg, b) })
		}
		b := conflicting(a, others)
		if gs, ok := g.stmt.(*ssa.Go); ok {
			for b != nil && c.gatedUntilShared(a, b, sp.fi.fn, gs) {
				others = slices.DeleteFunc(slices.Clone(others), func(x *access) bool { return x == b })
				b = conflicting(a, others)
			}
		}
		if b != nil {
			whoA, goA := g.who(a)
			c.reportShared(sp.fi.fn, a, whoA, goA, b, funcName(sp.fi.fn), "")
		}
	}
}

// checkInstances reports memory that several goroutines started by the
// same go statement in a loop share: rooted outside the loop, so every
// iteration's goroutine sees the same variable.
func (c *checker) checkInstances(sp *spawner, g *goroutine) {
	if sp.joinsEachRound(g) {
		return
	}
	byLoc := map[loc][]*access{}
	for _, a := range g.accesses {
		if unrooted(a) || sp.definedInLoop(a.root, g.stmt) || c.goroutineOwn(a.root, sp.fi.fn) || c.perIteration(sp, g, a) || !a.write && c.testDriven(sp.fi.fn, a) {
			continue
		}
		byLoc[a.loc()] = append(byLoc[a.loc()], a)
	}
	var entry *ssa.Function
	if len(g.entries) == 1 {
		entry = g.entries[0]
	}
	for _, a := range g.accesses {
		if !a.write && c.testDriven(sp.fi.fn, a) {
			continue
		}
		b := conflicting(a, byLoc[a.loc()])
		if b == nil || entry != nil && c.inHeldResource(entry, a.instr) && c.inHeldResource(entry, b.instr) {
			continue
		}
		if !c.inTestFile(sp.fi.fn) && c.ofTestType(a) {
			// A test's own value, handed to the package's goroutines
			// (a handler, a delegate): the test decides how many run
			// at once (AddHandler, one goroutine per handler).
			continue
		}
		whoA, goA := g.who(a)
		whoB, goB := g.who(b)
		c.reportShared(sp.fi.fn, a, whoA, goA, b, "another instance of "+strings.TrimPrefix(whoB, "goroutine "), goB)
	}
}

// testDriven reports whether a, an access of a goroutine that spawner
// starts several of, is one a test drives: spawner is code of a _test.go
// file, and a touches the package's memory (not a variable of the test,
// nor a type a test file declares). Such a test runs copies of one
// operation of the package's API side by side to show that it is safe
// for concurrent use (jaeger's TestSpanContextRaces, go-redis's state
// machine tests), under the race detector in the project's own runs;
// whether a read of one copy meets a write of another turns on the
// package's own protocol (a lazy getter after parsing, a reference
// count, a compare-and-swap state), which the analysis does not follow.
// Two copies writing the same memory (an unguarded c.total++) are
// still paired. On the held-out modules, read/write pairings of this
// kind were 2 true in 40 judged.
func (c *checker) testDriven(spawner *ssa.Function, a *access) bool {
	return a.obj.owner == nil && !a.obj.test && c.inTestFile(spawner)
}

// perIteration reports whether a reaches its memory through an element
// of a slice or map that the loop hands to each goroutine it starts (for
// _, l := range c.links { go func(l *Link) { l.add(t) }(l) }): each
// instance works on its own element.
func (c *checker) perIteration(sp *spawner, g *goroutine, a *access) bool {
	return c.iterationArg(sp, g, a) != nil
}

// iterationArg returns the argument of g's go statement through which a
// reaches the element its loop hands the goroutine (see perIteration), or
// nil.
func (c *checker) iterationArg(sp *spawner, g *goroutine, a *access) ssa.Value {
	for _, arg := range g.stmt.Common().Args {
		if !sp.definedInLoop(arg, g.stmt) {
			continue
		}
		root, path, ok := c.trace(arg, 0)
		if ok && root == a.root && path != "" && strings.HasPrefix(a.path, path) && strings.ContainsAny(path, "[{") {
			return arg
		}
	}
	return nil
}

// checkPair reports memory shared by two goroutines of one spawner.
func (c *checker) checkPair(g, h *goroutine) {
	byLoc := map[loc][]*access{}
	spawner := g.stmt.Parent()
	for _, a := range h.accesses {
		if !unrooted(a) && !c.goroutineOwn(a.root, spawner) && !c.afterWaitFor(h, a, g) {
			byLoc[a.loc()] = append(byLoc[a.loc()], a)
		}
	}
	for _, a := range g.accesses {
		if unrooted(a) || c.goroutineOwn(a.root, spawner) || c.afterWaitFor(g, a, h) {
			continue
		}
		if b := conflicting(a, byLoc[a.loc()]); b != nil {
			whoA, goA := g.who(a)
			whoB, goB := h.who(b)
			if goA == goB && goA != g.name && goB != h.name {
				// One function that two goroutines each start and leave
				// running (a reconnect that both the keepalive and the
				// reader start on a lost connection): two instances of
				// one goroutine, which, outside a loop, are taken not to
				// run at once (see checkInstances).
				continue
			}
			if whoA == whoB {
				if (!a.write || !b.write) && c.testDriven(spawner, a) {
					continue
				}
				whoB = "another instance of " + strings.TrimPrefix(whoB, "goroutine ")
			}
			c.reportShared(spawner, a, whoA, goA, b, whoB, goB)
		}
	}
}

// throughCells returns g with the accesses it makes through a variable
// its literal captures, which holds one value all along (c := NewC();
// go func() { c.dispatch() }()), rooted at that value: where a call
// left a goroutine running on it (NewC's loop), its accesses are rooted
// so.
func throughCells(g *goroutine) *goroutine {
	out := *g
	out.accesses = nil
	for _, a := range g.accesses {
		if v := storedIn(a.root); v != nil && strings.HasPrefix(a.path, ".") {
			b := *a
			b.root = v
			a = &b
		}
		out.accesses = append(out.accesses, a)
	}
	return &out
}

// testRead reports whether a is a plain read made by a test's own code:
// a test, benchmark or example function of a test file, or a function
// literal in one, or a method of a test suite.
func (c *checker) testRead(a *access) bool {
	if a.write || a.atomic || a.fn == nil || !c.inTestFile(a.fn) {
		return false
	}
	root := a.fn
	for root.Parent() != nil {
		root = root.Parent()
	}
	if root.Signature.Recv() == nil {
		for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if strings.HasPrefix(root.Name(), prefix) {
				return true
			}
		}
		return false
	}
	return c.inSuite(root)
}

// who names the goroutine that makes a, one of g's accesses, as a report
// says it and as its site's Goroutine: g, or a goroutine g starts and
// leaves running.
func (g *goroutine) who(a *access) (who, name string) {
	if a.goroutine != "" && a.goroutine != g.name {
		return "goroutine " + a.goroutine + " (started in goroutine " + g.name + ")", a.goroutine
	}
	return "goroutine " + g.name, g.name
}

// reportShared reports accesses a and b to the same memory from two
// goroutines, paired among what spawner starts. The access whose
// expression is in this package comes first.
func (c *checker) reportShared(spawner *ssa.Function, a *access, whoA, goA string, b *access, whoB, goB string) {
	if c.testTypeAbsent(spawner, a) || c.testTypeAbsent(spawner, b) {
		return
	}
	if a.atomic != b.atomic && (c.testRead(a) || c.testRead(b)) {
		// A test's plain read of a counter its goroutines add to
		// atomically: after what the test waits for, or in the
		// message of a failing check (t.Fatalf("got %d", n)).
		return
	}
	if a.obj.owner == nil && (c.inBenchmark(a, whoA, goA) || c.inBenchmark(b, whoB, goB)) {
		// A benchmark drives the package on fixtures it builds (a fake
		// connection, a state preset so that connecting is skipped, an
		// interval of zero so that no reporter starts): whether its
		// goroutines share the package's memory with the package's own
		// turns on that setup, which the analysis does not follow. Its
		// own variables stay checked.
		return
	}
	if a.ext() != "" && b.ext() == "" {
		a, b, whoA, whoB, goA, goB = b, a, whoB, whoA, goB, goA
	}
	msg := fmt.Sprintf("possible data race: %s is %s by %s and %s by %s, with no common lock and no synchronization in between",
		a.obj.name, a.participle(), whoA+through(a, goA), b.participle(), whoB+through(b, goB))
	c.report(msg, a.obj, siteOf(a, sharedRole(a, goA), goA), siteOf(b, sharedRole(b, goB), goB))
}

// inBenchmark reports whether a is made by a benchmark of the package's
// tests (a function func BenchmarkX(b *testing.B) of a test file, or a
// literal in one): itself, or as who (the function the report names for
// it) or in goroutine (the name of the goroutine it runs in).
func (c *checker) inBenchmark(a *access, who, goroutine string) bool {
	if _, outer, ok := strings.Cut(who, " (started in goroutine "); ok {
		// A goroutine another one started: the benchmark is the outer.
		who = strings.TrimSuffix(outer, ")")
	}
	if c.benchmarks == nil {
		c.benchmarks = map[string]bool{}
		for _, fn := range c.funcs {
			root := fn
			for root.Parent() != nil {
				root = root.Parent()
			}
			if strings.HasPrefix(root.Name(), "Benchmark") && root.Signature.Params().Len() == 1 && c.inTestFile(root) {
				c.benchmarks[funcName(fn)] = true
			}
		}
	}
	return c.benchmarks[funcName(a.fn)] || c.benchmarks[who] || c.benchmarks[goroutine]
}

// through names the function of another package that performs a, unless
// it is the goroutine's own entry.
func through(a *access, goroutine string) string {
	if ext := a.ext(); ext != "" && ext != goroutine {
		return " through " + ext
	}
	return ""
}

func sharedRole(a *access, goroutine string) string {
	role := a.verb() + " " + a.obj.name
	if ext := a.ext(); ext != "" && ext != goroutine {
		role += " in " + ext
	}
	if goroutine != "" {
		role += " in goroutine " + goroutine
	}
	if len(a.held) == 0 {
		return role + " without holding a lock"
	}
	return role + " holding " + a.held.String()
}

func sortWritesFirst(accs []*access) {
	sort.SliceStable(accs, func(i, j int) bool { return accs[i].write && !accs[j].write })
}

// checkAgainstMethods pairs the accesses that a goroutine started by a
// method makes through the method's receiver with the accesses that the
// type's other exported methods make through theirs: callers may call
// them while the goroutine runs (Start, then Count). A goroutine the
// method waits for before it returns is not paired (see joined). A method that waits
// (channel receive, select, WaitGroup.Wait) for a goroutine that signals
// is taken to be ordered after it; so is an access made only after seeing
// false a flag that the spawner sets to true, under a lock, before it
// starts the goroutine (see runningFlag). Neither are the spawner's own
// accesses before the go statement, which a method reaches by calling
// the spawner (Publish calling connect, which sets w.conn and then starts
// the router): they set the goroutine up, and making them again while it
// runs takes a second start, which the spawner's state usually prevents.
func (c *checker) checkAgainstMethods(sp *spawner, g *goroutine) {
	fi := sp.fi
	fn := fi.fn
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 || fn.Parent() != nil {
		return
	}
	if n, ok := receiverNamed(fn); ok && c.isSuite(n) {
		// A suite's other methods are its other tests, which its
		// runner calls one at a time, not while this one runs.
		return
	}
	if sp.joined(g) && len(c.goReach().from[fn]) == 0 {
		// The goroutine runs within the method's call, like the
		// method's own code, which nothing shows other methods run
		// beside (the lock-discipline check judges that). A method
		// the package runs as a goroutine (a connection's loop,
		// joining its send and receive goroutines each round) runs
		// beside the others all along.
		return
	}
	recv := fn.Params[0]
	byPath := map[string][]*access{}
	viaClosure := hasLockField(recv.Type())
	for _, a := range g.accesses {
		// A closure reaching the receiver is matched only for a type
		// that shows it is meant for concurrent use (a mutex field):
		// closures over plain values (errgroup.Group, a test suite)
		// are usually their owner's helpers. What the goroutines it
		// starts in turn do is left to the checks of code that shows
		// them running at once.
		if nested := a.goroutine != "" && a.goroutine != g.name; nested {
			continue
		}
		if a.root == recv || viaClosure && paramOf(fn, a.root) == recv {
			byPath[pathKey(a)] = append(byPath[pathKey(a)], a)
		}
	}
	if len(byPath) == 0 {
		return
	}
	flag, hasFlag := c.runningFlag(fn, g.stmt)
	setup := sp.setupOf(g)
	for _, m := range c.methodsOf(recv.Type()) {
		if m == fn || slices.Contains(g.entries, m) || g.signals && c.summary(m).waits || c.ctx.exclusive[m] {
			// (a setup method, which the package calls only on values
			// it is still building, is taken to be called so by others
			// too: before the goroutine starts; see setupOnly)
			continue
		}
		starts := c.callsTo(m, fn)
		for _, b := range c.summary(m).accesses {
			if b.root != m.Params[0] || setup[b.instr] || c.setsUpBefore(m, starts, b) || hasFlag && (c.whenNotRunning(b.instr, flag) || c.whenNotRunning(b.via, flag)) {
				continue
			}
			if a := conflicting(b, byPath[pathKey(b)]); a != nil {
				whoA, goA := g.who(a)
				c.reportShared(sp.fi.fn, a, whoA, goA, b, c.name(m)+" (callable while the goroutine runs)", "")
			}
		}
	}
}

// pathKey keys an access by its path from the receiver and the memory it
// names there: s.w.ws through an interface field w is one field of each
// type behind w (an mwriter's ws is not a routerMWriter's).
func pathKey(a *access) string {
	return a.path + "\x00" + a.obj.key
}

// methodsOf returns the exported methods, declared in this package, of
// the named type that recv points to, which other packages can call.
func (c *checker) methodsOf(recv types.Type) []*ssa.Function {
	named, ok := types.Unalias(derefType(recv)).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg || named.TypeParams().Len() > 0 {
		return nil
	}
	// A method of an unexported type is called from other packages only
	// through an interface value or promoted to an exported type; the
	// package's own calls of it show when it runs (a validator's Start,
	// called once by the constructor before its loop starts).
	hidden := !named.Obj().Exported() && !c.inInterfaces(named.Obj())
	var out []*ssa.Function
	for i := 0; i < named.NumMethods(); i++ {
		obj := named.Method(i)
		if !obj.Exported() || hidden && !c.promoted(obj) {
			continue
		}
		if m := c.pkg.Prog.FuncValue(obj); m != nil && len(m.Params) > 0 && c.isLocal(m) {
			out = append(out, m)
		}
	}
	return out
}

// waits reports whether fn blocks on a channel or a WaitGroup itself.
func (c *checker) waits(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if isWait(instr) {
				return true
			}
		}
	}
	return false
}

// unrooted reports whether a's memory is not known from a variable,
// parameter or package-level variable (a goroutine's accesses match only
// through those).
func unrooted(a *access) bool { return a.root == nil && a.global == "" }

// goroutineOwn reports whether root, the root of a goroutine's access, is
// an object the goroutine makes itself: allocated in its own functions
// (not the spawner's), or returned new by a call there (tr2 := tr.Copy()).
// Every instance of the goroutine has its own.
func (c *checker) goroutineOwn(root ssa.Value, spawner *ssa.Function) bool {
	switch r := root.(type) {
	case *ssa.Alloc:
		return r.Parent() != spawner
	case *ssa.Call:
		callee := r.Call.StaticCallee()
		return r.Parent() != spawner && callee != nil && c.fresh(callee, 0)
	}
	return false
}

// hasLockField reports whether the struct t points to has a sync.Mutex or
// sync.RWMutex field (embedded or named).
func hasLockField(t types.Type) bool {
	st, ok := derefType(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := 0; i < st.NumFields(); i++ {
		n, ok := types.Unalias(st.Field(i).Type()).(*types.Named)
		if ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && (n.Obj().Name() == "Mutex" || n.Obj().Name() == "RWMutex") {
			return true
		}
	}
	return false
}

// ofTestType reports whether a accesses a field of a type declared in a
// test file.
func (c *checker) ofTestType(a *access) bool {
	return c.fieldTestType(a) != nil
}

// fieldTestType returns the type declared in a test file whose field a
// loads or stores; nil for other accesses.
func (c *checker) fieldTestType(a *access) *types.TypeName {
	var addr ssa.Value
	switch x := a.instr.(type) {
	case *ssa.Store:
		addr = x.Addr
	case *ssa.UnOp:
		addr = x.X
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	n, ok := derefNamedType(fa.X.Type())
	if !ok || !c.declaredInTest(n.Obj()) {
		return nil
	}
	return n.Obj()
}

// afterWaitFor reports whether goroutine h makes access a only after a
// wait in its own function on something goroutine g signals in its own
// (pipes.Wait() in h, defer pipes.Done() in g; <-done in h, close(done)
// in g): a wait that dominates the access, or the call that reaches it.
// g is then done with what it did before it signalled.
func (c *checker) afterWaitFor(h *goroutine, a *access, g *goroutine) bool {
	signals := c.signalKeys(g)
	if len(h.entries) != 1 || len(signals) == 0 {
		return false
	}
	entry := h.entries[0]
	instr := siteIn(entry, a)
	if instr == nil {
		return false
	}
	for _, b := range entry.Blocks {
		for _, w := range b.Instrs {
			obj := waitedOn(w)
			if obj != nil && w != instr && signals[c.syncKey(h, obj)] && lockset.After(w, instr) {
				return true
			}
		}
	}
	return false
}

// waitedOn returns the WaitGroup or channel that w waits on, or nil.
func waitedOn(w ssa.Instruction) ssa.Value {
	switch w := w.(type) {
	case *ssa.UnOp:
		if w.Op == token.ARROW {
			return w.X
		}
	case *ssa.Call:
		if isSyncMethod(w.Common(), "WaitGroup", "Wait") && len(w.Call.Args) == 1 {
			return w.Call.Args[0]
		}
	}
	return nil
}

// signalKeys returns the keys (see syncKey) of the WaitGroups and
// channels that g's own function signals: Done, close, send.
func (c *checker) signalKeys(g *goroutine) map[string]bool {
	if len(g.entries) != 1 {
		return nil
	}
	keys := map[string]bool{}
	for _, b := range g.entries[0].Blocks {
		for _, x := range b.Instrs {
			var obj ssa.Value
			switch x := x.(type) {
			case *ssa.Send:
				obj = x.Chan
			case ssa.CallInstruction:
				call := x.Common()
				if isBuiltin(call, "close") && len(call.Args) == 1 || isSyncMethod(call, "WaitGroup", "Done") && len(call.Args) == 1 {
					obj = call.Args[0]
				}
			}
			if k := c.syncKey(g, obj); k != "" {
				keys[k] = true
			}
		}
	}
	return keys
}

// syncKey names the WaitGroup or channel v of goroutine g's function by
// the spawner's value it comes from (a captured variable or an argument of
// the go statement) and the fields selected from it; "" if unknown.
func (c *checker) syncKey(g *goroutine, v ssa.Value) string {
	if v == nil || len(g.entries) != 1 {
		return ""
	}
	root, path, ok := c.trace(v, 0)
	if !ok {
		return ""
	}
	var outer ssa.Value
	switch r := root.(type) {
	case *ssa.FreeVar:
		if mc, ok := g.stmt.Common().Value.(*ssa.MakeClosure); ok {
			if i := indexOfFreeVar(g.entries[0], r); i >= 0 && i < len(mc.Bindings) {
				outer = mc.Bindings[i]
			}
		}
	case *ssa.Parameter:
		outer = argument(g.stmt.Common(), indexOfParam(g.entries[0], r))
	case *ssa.Global:
		outer = r
	}
	if outer == nil {
		return ""
	}
	return fmt.Sprintf("%p%s", outer, path)
}
