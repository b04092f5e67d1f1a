package race

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// maxSummary bounds the number of distinct accesses a function summary
// keeps, so that summaries stay linear in the size of the package.
const maxSummary = 128

// A summary lists the accesses a function performs, itself or through
// its callees, to memory reachable from its parameters, its free
// variables or package-level variables: the memory its callers can share.
type summary struct {
	accesses []*access // roots are fn's Parameters or FreeVars, or globals
	signals  bool      // may let a waiting goroutine proceed
	waits    bool      // may block until another goroutine signals
	// paramCalls are the calls of fn's function-typed parameters (Run
	// calling work()), itself or through its callees: what they access
	// depends on the function each caller passes, so callers bind them.
	paramCalls []paramCall
	// background lists the accesses of the goroutines that fn starts,
	// itself or through its callees, and does not wait for before it
	// returns (a Start method's loop): they may run on while fn's caller
	// goes on. Rooted like accesses.
	background []*access
	// bgParamCalls are the calls of fn's function-typed parameters made
	// by those goroutines (Run starting go func() { action() }()): the
	// function each caller passes runs in the background.
	bgParamCalls []paramCall
	// parallel lists the function-typed parameters that goroutines fn
	// starts in a loop call, itself or through its callees (a
	// ParallelizeUntil helper: for each worker, go func() { ...;
	// work(piece) }()), joined or not: the function a caller passes runs
	// in several goroutines at once, under the locks held around the
	// call (held).
	parallel []paramCall
}

// A paramCall is a call of a function parameter (or, when free is set,
// of a free variable: a closure calling its enclosing function's
// parameter), with the locks held there.
type paramCall struct {
	param int
	free  bool
	held  heldSet
	// goroutine names the goroutine that makes the call, for a call in
	// the background (summary.bgParamCalls).
	goroutine string
}

type summaryKey struct {
	loc   loc
	write bool
	held  string
	conds string
}

// summary returns the summary of fn, computing it on first use. A
// recursive call sees the partial summary of a function still in
// progress.
func (c *checker) summary(fn *ssa.Function) *summary {
	if s, ok := c.sums[fn]; ok {
		return s
	}
	s := &summary{}
	c.sums[fn] = s
	fi := c.info(fn)
	s.signals = fi.signals
	s.waits = c.waits(fn)
	for _, cs := range fi.calls {
		if !s.waits {
			s.waits = c.callWaits(cs.instr)
		}
	}
	if fi.excluded {
		// Its accesses happen before any sharing, but what it lets
		// proceed, it still does.
		for _, cs := range fi.calls {
			c.callAccesses(fn, cs, &s.signals)
		}
		return s
	}
	seen := map[summaryKey]bool{}
	add := func(a *access) {
		if len(s.accesses) >= maxSummary || !sharedRoot(a, fn) {
			return
		}
		k := summaryKey{loc: a.loc(), write: a.write, held: a.held.String(), conds: condsKey(a)}
		if !seen[k] {
			seen[k] = true
			s.accesses = append(s.accesses, a)
		}
	}
	for _, a := range fi.accesses {
		add(a)
	}
	for _, cs := range fi.calls {
		if pc, ok := calledParam(fn, cs); ok {
			s.paramCalls = append(s.paramCalls, pc)
			continue
		}
		if _, ok := cs.instr.(*ssa.Go); ok {
			// The goroutine's accesses, and its calls of fn's
			// parameters, are not fn's: they run on their own (see
			// background). What it lets proceed, fn's callers see.
			c.callAccesses(fn, cs, &s.signals)
			continue
		}
		accs := c.bindCallAccesses(fn, cs, &s.signals, &s.paramCalls)
		for _, a := range accs {
			add(a)
		}
	}
	s.background, s.bgParamCalls = c.backgroundAccesses(fi)
	s.parallel = c.parallelParams(fi)
	return s
}

// condsKey returns fmt.Sprint(a.conds, a.waited), the part of a summary
// key that tells apart accesses under other conditions, without fmt
// for the usual access that has none.
func condsKey(a *access) string {
	if len(a.conds) == 0 && len(a.waited) == 0 {
		return "[] []"
	}
	return fmt.Sprint(a.conds, a.waited)
}

// parallelParams returns the function-typed parameters of fi.fn that the
// goroutines it starts in a loop call (see summary.parallel), or that it
// passes on for such a parameter of a callee of the package or, through
// its fact, of another.
func (c *checker) parallelParams(fi *funcInfo) []paramCall {
	var out []paramCall
	var sp *spawner
	for _, cs := range fi.calls {
		var ups []paramCall
		if g, ok := cs.instr.(*ssa.Go); ok {
			if sp == nil {
				sp = newSpawner(c, fi)
			}
			if sp.inLoop(g) && !sp.waitsEachRound(g) { // not one goroutine at a time (a retry loop's attempts)
				ups = c.paramsCalledBy(fi.fn, cs, g)
			}
		} else {
			var signals bool
			for _, callee := range c.callees(cs.instr) {
				for _, pc := range c.parallelOf(callee) {
					c.passedAccesses(fi.fn, cs, callee, pc, nil, &signals, &ups)
				}
			}
		}
		for _, pc := range ups {
			if !pc.free && !slices.ContainsFunc(out, func(o paramCall) bool { return o.param == pc.param && equalHeld(o.held, pc.held) }) {
				out = append(out, pc)
			}
		}
	}
	return out
}

// paramsCalledBy returns the calls of fn's function-typed parameters
// that the goroutine g starts makes: go work(), or a literal or function
// of the package calling what fn passes it (go func() { work(i) }()),
// with the locks held at those calls.
func (c *checker) paramsCalledBy(fn *ssa.Function, cs callSite, g *ssa.Go) []paramCall {
	var ups []paramCall
	if p := paramOf(fn, g.Call.Value); p != nil {
		ups = append(ups, paramCall{param: indexOfParam(fn, p)})
	}
	var signals bool
	for _, callee := range c.callees(cs.instr) {
		if !c.isLocal(callee) {
			continue
		}
		for _, pc := range c.summary(callee).paramCalls {
			c.passedAccesses(fn, cs, callee, pc, nil, &signals, &ups)
		}
	}
	return ups
}

// parallelOf returns the calls of callee's parameters that run in
// several goroutines at once, with the locks held around them
// (summary.parallel, or accessFact.Parallel).
func (c *checker) parallelOf(callee *ssa.Function) []paramCall {
	if c.isLocal(callee) {
		return c.summary(callee).parallel
	}
	f := c.importFact(callee)
	if f == nil {
		return nil
	}
	out := make([]paramCall, len(f.Parallel))
	for i, p := range f.Parallel {
		out[i] = paramCall{param: p.Param, held: makeHeldSet(p.Held)}
	}
	return out
}

// backgroundAccesses returns the accesses, to memory fn's callers share,
// of the goroutines fn starts, itself or through its callees, that fn
// does not wait for on some path to a return, and the calls those
// goroutines make of fn's function-typed parameters.
//
// Without the checks (FactsAnalyzer) it returns no accesses: only the
// checks and the backgrounds of callers read them, never a fact, and
// kept in every summary for the whole run they are a large part of the
// analyzer's memory on a large package. The calls, and the summaries
// computed on the way, are the same.
func (c *checker) backgroundAccesses(fi *funcInfo) ([]*access, []paramCall) {
	fn := fi.fn
	var out []*access
	var calls []paramCall
	seen := map[summaryKey]bool{}
	add := func(a *access) {
		if !c.checks {
			return
		}
		if p := spilledParam(a.root); p != nil && p.Parent() == fn {
			// The goroutine's literal captured the parameter: it
			// reaches the caller's value.
			b := *a
			b.root = p
			a = &b
		}
		if len(out) >= maxSummary || !sharedRoot(a, fn) && resultIndex(fn, a.root) < 0 {
			return
		}
		k := summaryKey{loc: a.loc(), write: a.write, held: a.held.String(), conds: a.goroutine + condsKey(a)}
		if !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	for _, cs := range fi.calls {
		if g, ok := cs.instr.(*ssa.Go); ok {
			var signals bool
			var ups []paramCall
			accs := c.bindCallAccesses(fn, cs, &signals, &ups)
			if p := paramOf(fn, g.Call.Value); p != nil {
				ups = append(ups, paramCall{param: indexOfParam(fn, p)}) // go action()
			}
			var lit *ssa.Function
			var sigs []ssa.Instruction
			joined := signals && c.waitedFor(fn, g)
			if joined {
				lit, sigs = signalsOfLiteral(g)
			}
			name := c.goroutineName(g)
			if !joined {
				for _, pc := range ups {
					pc.goroutine = name
					calls = append(calls, pc)
				}
			}
			for _, a := range accs {
				if joined && !afterSignal(lit, sigs, a) {
					continue // fn waits for what the goroutine signals first
				}
				b := *a
				b.goroutine = name
				b.goTest = c.inTestFile(fn)
				add(&b)
			}
			if joined {
				continue
			}
			// What the goroutine starts and leaves running runs on after
			// it too (go s.watch(), which starts the connection's
			// monitor), as what a call's callees leave running does.
		} else if c.waitedFor(fn, cs.instr) {
			continue // fn waits after the call on every path to a return
		}
		bg := c.callBackground(fn, cs)
		for _, a := range slices.Concat(bg.accesses, bg.passed) {
			add(a)
		}
		calls = append(calls, bg.calls...)
	}
	return out, calls
}

// resultIndex returns the index of the result of fn that v, a value of
// fn, is returned as on some return, or -1.
func resultIndex(fn *ssa.Function, v ssa.Value) int {
	if v == nil {
		return -1
	}
	if p, ok := v.(interface{ Parent() *ssa.Function }); !ok || p.Parent() != fn {
		return -1
	}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		for i, r := range ret.Results {
			if mi, ok := r.(*ssa.MakeInterface); ok {
				r = mi.X
			}
			if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
				r = load.X // a captured variable's value
			}
			if r == v {
				return i
			}
		}
	}
	return -1
}

// result returns the value of result i of call: the call itself, or the
// Extract of it; nil when the caller does not use it.
func result(call *ssa.Call, i int) ssa.Value {
	if i < 0 {
		return nil
	}
	if _, isTuple := call.Type().(*types.Tuple); !isTuple {
		if i == 0 {
			return call
		}
		return nil
	}
	for _, r := range *call.Referrers() {
		if x, ok := r.(*ssa.Extract); ok && x.Index == i {
			return x
		}
	}
	return nil
}

// spilledParam returns the parameter that v, a local cell, holds when a
// function literal captures the parameter (go func() { r.x = ... }()
// makes r a cell), or nil.
func spilledParam(v ssa.Value) *ssa.Parameter {
	a, ok := v.(*ssa.Alloc)
	if !ok {
		return nil
	}
	if p, ok := storedIn(a).(*ssa.Parameter); ok && a.Comment == p.Name() && p.Parent() == a.Parent() {
		return p
	}
	return nil
}

// signalsOfLiteral returns the function literal that go statement g
// starts and its sends and signals; nil when g starts no literal.
func signalsOfLiteral(g *ssa.Go) (*ssa.Function, []ssa.Instruction) {
	lit := funcValue(g.Call.Value)
	if lit == nil || lit.Parent() == nil {
		return nil, nil
	}
	var sigs []ssa.Instruction
	for _, b := range lit.Blocks {
		for _, instr := range b.Instrs {
			_, send := instr.(*ssa.Send)
			call, isCall := instr.(*ssa.Call)
			if send || isCall && isSignal(&call.Call) {
				sigs = append(sigs, instr)
			}
		}
	}
	return lit, sigs
}

// afterSignal reports whether a, an access of function literal lit,
// comes after one of its sends or signals sigs on every path (startedCh
// <- err, then more work): waiting for the signal does not wait for it.
func afterSignal(lit *ssa.Function, sigs []ssa.Instruction, a *access) bool {
	at := siteIn(lit, a)
	if at == nil {
		return false
	}
	for _, s := range sigs {
		if lockset.After(s, at) {
			return true
		}
	}
	return false
}

// siteIn returns the instruction of fn that is access a, or the call in
// fn that reaches it; nil if a is not made in fn.
func siteIn(fn *ssa.Function, a *access) ssa.Instruction {
	if fn == nil {
		return nil
	}
	for _, v := range []ssa.Instruction{a.inner, a.via} {
		if v != nil && v.Parent() == fn {
			return v
		}
	}
	if a.instr != nil && a.instr.Parent() == fn {
		return a.instr
	}
	return nil
}

// A background is what the goroutines that the callees of a call leave
// running do, bound to the caller's values: their accesses, those of the
// functions the call passes them to run, and their calls of the caller's
// function-typed parameters passed on.
type background struct {
	accesses []*access
	passed   []*access
	calls    []paramCall
}

// callBackground returns the background of the callees of call site cs
// in fn (see summary.background), bound to fn's values. A function the
// call passes for a parameter that the callees' goroutines call runs in
// the background too: its accesses are the result's passed.
//
// With the checks (c.backgrounds not nil) the background is computed once
// per call site and kept: the checks ask for it again, and must see what
// the summary of fn saw (a callee's summary may have been partial then).
// Without them only the summary of fn asks, once, and keeping every call
// site's accesses for the whole run, not only those the summary keeps,
// would take most of the analyzer's memory on a large package.
func (c *checker) callBackground(fn *ssa.Function, cs callSite) background {
	if bg, ok := c.backgrounds[cs.instr]; ok {
		return bg
	}
	var bg background
	for _, callee := range c.callees(cs.instr) {
		if !c.isLocal(callee) {
			continue
		}
		s := c.summary(callee)
		for _, e := range s.background {
			if a := c.bind(e, fn, cs, callee, nil); a != nil {
				bg.accesses = append(bg.accesses, a)
			}
		}
		for _, pc := range s.bgParamCalls {
			var signals bool
			var ups []paramCall
			for _, a := range c.passedAccesses(fn, cs, callee, pc, nil, &signals, &ups) {
				a.goroutine = pc.goroutine
				a.via = cs.instr
				bg.passed = append(bg.passed, a)
			}
			for _, up := range ups {
				up.goroutine = pc.goroutine
				bg.calls = append(bg.calls, up)
			}
		}
	}
	if c.backgrounds != nil {
		c.backgrounds[cs.instr] = bg
	}
	return bg
}

// waitedFor reports whether every path from instr to a return of fn
// passes a wait (a receive, a select, WaitGroup.Wait, a call that waits).
func (c *checker) waitedFor(fn *ssa.Function, instr ssa.Instruction) bool {
	i := slices.Index(instr.Block().Instrs, instr)
	waits := func(x ssa.Instruction) bool {
		call, ok := x.(ssa.CallInstruction)
		return isWait(x) || ok && x != instr && c.callWaits(call)
	}
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && reachesAvoiding(instr, i, ret, waits) {
			return false
		}
	}
	return true
}

// callWaits reports whether the call (not a go statement) may block until
// another goroutine signals: a callee that waits, in this package or,
// through its fact, in another (a semaphore's Acquire, a pool's Get).
func (c *checker) callWaits(instr ssa.CallInstruction) bool {
	if _, isGo := instr.(*ssa.Go); isGo {
		return false
	}
	for _, callee := range c.callees(instr) {
		if c.isLocal(callee) {
			if c.summary(callee).waits {
				return true
			}
		} else if f := c.importFact(callee); f != nil && f.Waits {
			return true
		}
	}
	return false
}

// calledParam recognizes in the call cs of fn (a plain call or defer)
// a call of a function-typed parameter of fn, or of a free variable of
// fn (captured by value or by reference).
func calledParam(fn *ssa.Function, cs callSite) (paramCall, bool) {
	if _, isGo := cs.instr.(*ssa.Go); isGo {
		return paramCall{}, false
	}
	common := cs.instr.Common()
	if common.IsInvoke() {
		return paramCall{}, false
	}
	v := common.Value
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if fv, ok := u.X.(*ssa.FreeVar); ok {
			v = fv
		}
	}
	switch v := v.(type) {
	case *ssa.Parameter:
		if v.Parent() == fn {
			return paramCall{param: indexOfParam(fn, v), held: cs.held}, true
		}
	case *ssa.FreeVar:
		if v.Parent() == fn {
			return paramCall{param: indexOfFreeVar(fn, v), free: true, held: cs.held}, true
		}
	}
	return paramCall{}, false
}

// paramOf returns the parameter of fn that v is, or that the variable v
// only ever holds (a parameter captured by reference), or nil.
func paramOf(fn *ssa.Function, v ssa.Value) *ssa.Parameter {
	switch v := v.(type) {
	case *ssa.Parameter:
		if v.Parent() == fn {
			return v
		}
	case *ssa.Alloc:
		var p *ssa.Parameter
		for _, ref := range *v.Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Addr != v {
				continue
			}
			q, ok := st.Val.(*ssa.Parameter)
			if !ok || q.Parent() != fn || p != nil && p != q {
				return nil
			}
			p = q
		}
		return p
	}
	return nil
}

// sharedRoot reports whether a's memory is reachable by fn's callers.
func sharedRoot(a *access, fn *ssa.Function) bool {
	if a.global != "" {
		return true
	}
	switch r := a.root.(type) {
	case *ssa.Parameter:
		return r.Parent() == fn
	case *ssa.FreeVar:
		return r.Parent() == fn
	}
	return false
}

// callAccesses returns the accesses that the call, defer or go
// instruction cs in fn performs through its callees, rooted in fn's
// values. It sets *signals when a callee signals.
func (c *checker) callAccesses(fn *ssa.Function, cs callSite, signals *bool) []*access {
	return c.bindCallAccesses(fn, cs, signals, nil)
}

// bindCallAccesses is callAccesses; the calls the callees make of the
// functions passed to them are bound to the functions cs passes (a
// closure made in place: its accesses, rooted at its bindings), and
// appended to *up, when not nil, where cs passes a parameter of fn on.
func (c *checker) bindCallAccesses(fn *ssa.Function, cs callSite, signals *bool, up *[]paramCall) []*access {
	var out []*access
	if len(cs.flagged) > 0 {
		// Bound once for each value of the flag that decides the locks
		// held at the call (see splitOnFlag).
		for _, v := range cs.flagged {
			one := callSite{instr: cs.instr, held: v.held}
			for _, a := range c.bindCallAccesses(fn, one, signals, up) {
				a.conds = append(slices.Clip(a.conds), v.cond)
				out = append(out, a)
			}
		}
		return out
	}
	held := cs.held
	if _, ok := cs.instr.(*ssa.Go); ok {
		held = nil // a new goroutine holds no locks
	}
	for _, callee := range c.callees(cs.instr) {
		if c.isLocal(callee) {
			s := c.summary(callee)
			*signals = *signals || s.signals
			for _, e := range s.accesses {
				if a := c.bind(e, fn, cs, callee, held); a != nil {
					out = append(out, a)
				}
			}
			for _, pc := range s.paramCalls {
				out = append(out, c.liftCaptured(fn, c.passedAccesses(fn, cs, callee, pc, held, signals, up), up)...)
			}
			continue
		}
		if pc, ok := runsArgument(callee); ok {
			out = append(out, c.liftCaptured(fn, c.passedAccesses(fn, cs, callee, pc, held, signals, up), up)...)
			continue
		}
		f := c.importFact(callee)
		if f == nil {
			continue
		}
		*signals = *signals || f.Signals
		for i := range f.Accesses {
			if a := c.bindFact(f, &f.Accesses[i], fn, cs, held); a != nil {
				out = append(out, a)
			}
		}
	}
	if roots := c.ownedRoots(cs.instr); len(roots) > 0 {
		out = slices.DeleteFunc(out, func(a *access) bool { return owned(roots, a) })
	}
	return out
}

// liftCaptured roots at the parameter the accesses of accs that a
// function literal, passed by fn to a callee that calls it, makes through
// a parameter of fn it captures (a cell holding only the parameter: a
// receiver the literal closes over). It does so only where the accesses
// are bound for fn's summary (up not nil): fn's callers share that
// memory. For the checks within fn they stay rooted at the cell, as fn's
// own accesses through it are.
func (c *checker) liftCaptured(fn *ssa.Function, accs []*access, up *[]paramCall) []*access {
	if up == nil {
		return accs
	}
	for _, a := range accs {
		if p := spilledParam(a.root); p != nil && p.Parent() == fn && a.path != "" {
			a.root = p
		}
	}
	return accs
}

// runsArgument returns the call that callee, a function of the standard
// library, makes of a function argument before it returns (sort.Slice's
// less, (*sync.Map).Range's f): what that function does, the caller
// does. sync.Once.Do is left to findOnceFuncs: what it runs happens once,
// before what it sets up is shared.
func runsArgument(callee *ssa.Function) (paramCall, bool) {
	param, ok := lockset.CallsArgument(callee)
	if !ok || isSyncFunc(callee, "Once", "Do") {
		return paramCall{}, false
	}
	return paramCall{param: param}, true
}

// passedAccesses returns the accesses of the function that call site cs
// of fn passes to callee for parameter pc.param, which callee calls:
// those of a closure made in place (rooted at its bindings), or of a
// function (its package-level variables). A parameter of fn passed on is
// appended to *up instead; other values are not followed.
func (c *checker) passedAccesses(fn *ssa.Function, cs callSite, callee *ssa.Function, pc paramCall, held heldSet, signals *bool, up *[]paramCall) []*access {
	held = held.union(pc.held)
	var passed ssa.Value
	if pc.free {
		if cmc := c.closureAt(cs.instr.Common().Value, callee, fn); cmc != nil && pc.param < len(cmc.Bindings) {
			passed = cmc.Bindings[pc.param]
		}
	} else {
		passed = passedFunc(argument(cs.instr.Common(), pc.param))
	}
	if p := paramOf(fn, passed); p != nil {
		if up != nil {
			*up = append(*up, paramCall{param: indexOfParam(fn, p), held: held})
		}
		return nil
	}
	var g *ssa.Function
	var mc *ssa.MakeClosure
	switch arg := passed.(type) {
	case *ssa.MakeClosure:
		mc = arg
		g, _ = arg.Fn.(*ssa.Function)
	case *ssa.Function:
		g = arg
	}
	if g == nil || !c.isLocal(g) {
		return nil
	}
	s := c.summary(g)
	*signals = *signals || s.signals
	var out []*access
	for _, gpc := range s.paramCalls {
		// The passed closure calls what its maker was passed.
		if gpc.free && mc != nil && gpc.param < len(mc.Bindings) && up != nil {
			if p := paramOf(fn, mc.Bindings[gpc.param]); p != nil {
				*up = append(*up, paramCall{param: indexOfParam(fn, p), held: held.union(gpc.held)})
			}
		}
	}
	for _, e := range s.accesses {
		a := *e
		a.held = e.held.union(held)
		a.chain = e.chain.push(c.name(g)).push(c.name(callee))
		a.preEscape = false
		if e.global != "" {
			b := a
			out = append(out, &b)
			continue
		}
		fv, ok := e.root.(*ssa.FreeVar)
		if !ok || mc == nil {
			continue // the callee's own arguments: not known here
		}
		if i := indexOfFreeVar(g, fv); i >= 0 && i < len(mc.Bindings) {
			if b := c.rebased(&a, mc.Bindings[i], e.path); b != nil {
				out = append(out, b)
			}
		}
	}
	return out
}

// isLocal reports whether callee's body is available in this package.
func (c *checker) isLocal(callee *ssa.Function) bool {
	return len(callee.Blocks) > 0 && (callee.Pkg == c.pkg || callee.Pkg == nil)
}

// bind translates summary access e of callee to the caller fn at call
// site cs: parameters become the arguments, free variables the closure's
// bindings, and the locks held at the call are added.
func (c *checker) bind(e *access, fn *ssa.Function, cs callSite, callee *ssa.Function, held heldSet) *access {
	a := *e
	a.held = e.held.union(held)
	a.chain = e.chain.push(c.name(callee))
	a.preEscape = false
	a.inner = e.via
	a.via = cs.instr
	if e.global != "" {
		b := a
		return &b
	}
	var arg ssa.Value
	switch r := e.root.(type) {
	case *ssa.Parameter:
		i := indexOfParam(callee, r)
		arg = argument(cs.instr.Common(), i)
		if cs.instr.Common().IsInvoke() && i == 0 && a.dyn == "" {
			a.dyn = types.TypeString(r.Type(), nil) // the implementation chosen
		}
	case *ssa.FreeVar:
		if mc := c.closureAt(cs.instr.Common().Value, callee, fn); mc != nil {
			if i := indexOfFreeVar(callee, r); i >= 0 && i < len(mc.Bindings) {
				arg = mc.Bindings[i]
			}
		}
	default:
		// An object the callee returns, which a goroutine it left
		// running uses (see backgroundAccesses): the call's result.
		if call, ok := cs.instr.(*ssa.Call); ok {
			arg = result(call, resultIndex(callee, e.root))
		}
	}
	if !dynMatches(&a, arg) {
		return nil
	}
	conds, ok := bindConds(e.conds, fn, cs.instr.Common())
	if !ok {
		return nil
	}
	a.conds = append(conds, c.paramConds(cs.instr)...)
	if w := c.waitedBefore(cs.instr); len(w) > 0 {
		a.waited = append(w, e.waited...)
	}
	return c.rebased(&a, arg, e.path)
}

// bindConds translates the parameter conditions of a callee's access to
// the caller fn at a call: a constant argument satisfies its condition or
// makes the access impossible (ok false); a parameter of fn passed on
// carries the condition to fn; any other argument settles nothing.
func bindConds(conds []paramCond, fn *ssa.Function, call *ssa.CallCommon) ([]paramCond, bool) {
	var out []paramCond
	for _, pc := range conds {
		switch arg := argument(call, pc.param).(type) {
		case *ssa.Const:
			if holds, ok := pc.holds(arg.Value); ok && !holds {
				return nil, false
			}
		case *ssa.Parameter:
			if i := indexOfParam(fn, arg); i >= 0 {
				pc.param = i
				out = append(out, pc)
			}
		}
	}
	return out, true
}

// paramConds returns the conditions on fn's parameters under which
// instr runs: each block dominating it that is entered only from an if
// on a boolean parameter (if mut { ... }, if !mut { ... }) or on the
// comparison of a parameter with a constant (if interval > 0 { go
// s.reportLoop(interval) }).
func (c *checker) paramConds(instr ssa.Instruction) []paramCond {
	fn := instr.Parent()
	if fn == nil || instr.Block() == nil || len(fn.Params) == 0 {
		return nil
	}
	var out []paramCond
	branchConds(instr, func(cond ssa.Value, want bool) bool {
		if prm, ok := cond.(*ssa.Parameter); ok && prm.Parent() == fn && isBool(prm.Type()) {
			out = append(out, paramCond{param: indexOfParam(fn, prm), want: want})
		}
		if pc, ok := comparedParam(fn, cond); ok {
			pc.want = want
			out = append(out, pc)
		}
		return true
	})
	return out
}

// comparedParam returns the condition cond states when it compares a
// parameter of fn with a constant (interval > 0, 0 < interval).
func comparedParam(fn *ssa.Function, cond ssa.Value) (paramCond, bool) {
	x, op, k, ok := againstConst(cond)
	if !ok {
		return paramCond{}, false
	}
	prm, isParam := storedOnce(x).(*ssa.Parameter) // a captured parameter is loaded from its cell
	if !isParam || prm.Parent() != fn || k.Value == nil {
		return paramCond{}, false
	}
	return paramCond{param: indexOfParam(fn, prm), op: op, val: k.Value}, true
}

// againstConst returns cond, an ordered or equality comparison of a value
// with a constant, as x op k with the constant on the right (0 < interval
// is interval > 0).
func againstConst(cond ssa.Value) (x ssa.Value, op token.Token, k *ssa.Const, ok bool) {
	bin, isBin := cond.(*ssa.BinOp)
	if !isBin {
		return nil, 0, nil, false
	}
	switch bin.Op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
	default:
		return nil, 0, nil, false
	}
	x, y, op := bin.X, bin.Y, bin.Op
	if _, isConst := x.(*ssa.Const); isConst {
		x, y, op = y, x, mirror(op)
	}
	k, ok = y.(*ssa.Const)
	return x, op, k, ok
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// branchConds calls yield, for every block dominating instr that is
// entered only from one side of an if, with the if's condition (a
// leading ! removed) and the value it had on that side, innermost first,
// until yield returns false.
func branchConds(instr ssa.Instruction, yield func(cond ssa.Value, want bool) bool) {
	for d := instr.Block(); d != nil; d = d.Idom() {
		if len(d.Preds) != 1 {
			continue
		}
		p := d.Preds[0]
		ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !ok || p.Succs[0] == p.Succs[1] {
			continue
		}
		cond, neg := ifi.Cond, false
		if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
			cond, neg = u.X, true
		}
		if !yield(cond, (d == p.Succs[0]) != neg) {
			return
		}
	}
}

// dynMatches reports whether access a, bound to argument arg, can happen:
// when a depends on the concrete type of an interface value (a.dyn) and
// arg converts a value of a concrete type to the interface, the two types
// must agree. An argument handed down unchanged (a parameter, a free
// variable) keeps the question open; any other (a value loaded from a
// field, a call's result) settles nothing, and a.dyn is dropped.
func dynMatches(a *access, arg ssa.Value) bool {
	if a.dyn == "" || arg == nil {
		return true
	}
	for {
		switch v := arg.(type) {
		case *ssa.MakeInterface:
			ok := types.TypeString(v.X.Type(), nil) == a.dyn
			a.dyn = ""
			return ok
		case *ssa.ChangeInterface:
			arg = v.X
			continue
		case *ssa.Parameter, *ssa.FreeVar:
			return true
		}
		a.dyn = ""
		return true
	}
}

// closureAt returns the closure of callee that a call of value v in fn
// runs: v itself, or, when v is a function value loaded from elsewhere,
// the only closure of callee that fn makes.
func (c *checker) closureAt(v ssa.Value, callee, fn *ssa.Function) *ssa.MakeClosure {
	if mc, ok := v.(*ssa.MakeClosure); ok {
		return mc
	}
	if made := c.caps.made[callee]; len(made) == 1 && made[0].Parent() == fn {
		return made[0]
	}
	return nil
}

// rebase roots access a at value arg of the caller, prefixing the path
// from arg's own root. It returns nil when arg's root is unknown.
func (c *checker) rebase(a *access, arg ssa.Value, path string) *access {
	root, prefix, ok := c.argRoot(arg)
	if !ok {
		return nil
	}
	return c.rebaseOnto(a, root, prefix+path)
}

// rebased is rebase of a copy of *a, which it makes (on the heap) only
// when the access is rebased: a may stay on its caller's stack.
func (c *checker) rebased(a *access, arg ssa.Value, path string) *access {
	root, prefix, ok := c.argRoot(arg)
	if !ok {
		return nil
	}
	b := new(access)
	*b = *a
	return c.rebaseOnto(b, root, prefix+path)
}

// argRoot returns the root of arg, a value of the caller, and the path
// from it; false when arg or its root is unknown.
func (c *checker) argRoot(arg ssa.Value) (ssa.Value, string, bool) {
	if arg == nil {
		return nil, "", false
	}
	root, prefix, ok := c.trace(arg, 0)
	return root, prefix, ok && root != nil
}

// rebaseOnto sets the root of access a to root, with path.
func (c *checker) rebaseOnto(a *access, root ssa.Value, path string) *access {
	a.root, a.path, a.global = root, path, ""
	if g, ok := root.(*ssa.Global); ok {
		if v, ok := g.Object().(*types.Var); ok {
			a.global = globalKey(v)
		}
	}
	return a
}

// passedFunc returns the function value v converts to a named function
// type (ParallelizeUntil(n, DoWorkPieceFunc(check))), also as the
// receiver of an interface method call (var h Handler =
// HandlerFunc(f); h.ServeHTTP()), or v.
func passedFunc(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.ChangeType:
			v = x.X
		case *ssa.MakeInterface:
			if _, ok := x.X.Type().Underlying().(*types.Signature); !ok {
				return v
			}
			v = x.X
		default:
			return v
		}
	}
}

// argument returns the value passed for parameter i (receiver first).
func argument(call *ssa.CallCommon, i int) ssa.Value {
	if i < 0 {
		return nil
	}
	if call.IsInvoke() {
		if i == 0 {
			return call.Value
		}
		i--
	}
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

func indexOfParam(fn *ssa.Function, p *ssa.Parameter) int {
	for i, q := range fn.Params {
		if q == p {
			return i
		}
	}
	return -1
}

func indexOfFreeVar(fn *ssa.Function, v *ssa.FreeVar) int {
	for i, q := range fn.FreeVars {
		if q == v {
			return i
		}
	}
	return -1
}

// maxCallees bounds the implementations followed at one interface call.
const maxCallees = 8

// callees returns the functions a call may invoke: its static callee;
// else the callees that the lockset analysis' call graph (VTA over the
// package's functions) finds for a call of a function value or an
// interface method; else, for an interface method call, the methods of
// the package's own types that implement the interface (class hierarchy
// analysis restricted to the package).
func (c *checker) callees(instr ssa.CallInstruction) []*ssa.Function {
	call := instr.Common()
	if f := call.StaticCallee(); f != nil {
		if len(f.Blocks) == 0 && f.Origin() != nil && len(f.Origin().Blocks) > 0 {
			f = f.Origin()
		}
		return []*ssa.Function{f}
	}
	fns, covered := c.locks.Dynamic(instr)
	if covered && call.IsInvoke() && len(fns) == 0 && !c.fromAPIParam(call.Value) {
		// No value the package makes reaches the receiver: it comes
		// from outside through the package's own state (the result of
		// a func field the user sets, stored in a field), and the
		// package's own implementations are not assumed.
		return nil
	}
	if !covered {
		fns = c.locks.Callees(instr)
	}
	if len(fns) > 0 {
		var out []*ssa.Function
		for _, fn := range fns {
			// VTA keeps its initial call graph's edges where no type
			// flows: a test's type that nothing makes is not called.
			if n, ok := receiverNamed(fn); !ok || !call.IsInvoke() || !c.declaredInTest(n.Obj()) || c.inInterfaces(n.Obj()) {
				out = append(out, fn)
			}
		}
		if len(out) > maxCallees {
			out = out[:maxCallees]
		}
		return out
	}
	if call.IsInvoke() {
		return c.implementations(call.Value.Type(), call.Method)
	}
	return nil
}

// fromAPIParam reports whether v is a parameter of an exported function
// or method (seen through the closures that capture it): its callers
// outside the package may pass any of the package's exported or
// converted types.
func (c *checker) fromAPIParam(v ssa.Value) bool {
	for i := 0; i < 64; i++ { // nesting depth bound
		switch x := v.(type) {
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.FreeVar:
			b, ok := c.caps.binding[x]
			if !ok {
				return false
			}
			v = b
		case *ssa.UnOp: // a captured variable
			cell := x.X
			if fv, ok := x.X.(*ssa.FreeVar); ok {
				if a := c.caps.allocOf(fv); a != nil {
					cell = a
				}
			}
			if v = storedIn(cell); x.Op != token.MUL || v == nil {
				return false
			}
		case *ssa.Parameter:
			fn := x.Parent()
			return fn.Object() != nil && fn.Object().Exported()
		default:
			return false
		}
	}
	return false
}

type implKey struct {
	iface  string
	method string
}

// implementations returns the methods named like m of the package's
// types that implement interface type iface and that may be in an
// interface value (see inInterfaces).
func (c *checker) implementations(iface types.Type, m *types.Func) []*ssa.Function {
	key := implKey{iface: types.TypeString(iface, nil), method: m.Name()}
	if fns, ok := c.impls[key]; ok {
		return fns
	}
	var fns []*ssa.Function
	it, ok := iface.Underlying().(*types.Interface)
	if !ok {
		c.impls[key] = fns
		return fns
	}
	prog := c.pkg.Prog
	for _, named := range c.implCandidates() {
		ptr := types.NewPointer(named)
		if prog.MethodSets.MethodSet(ptr).Lookup(m.Pkg(), m.Name()) == nil {
			continue // neither T nor *T has the method (T's methods are *T's)
		}
		for _, t := range []types.Type{named, ptr} {
			if !types.Implements(t, it) {
				continue
			}
			sel := prog.MethodSets.MethodSet(t).Lookup(m.Pkg(), m.Name())
			if sel == nil {
				continue
			}
			if fn := prog.MethodValue(sel); fn != nil {
				fns = append(fns, fn)
			}
			break // *T's method set includes T's
		}
		if len(fns) >= maxCallees {
			break
		}
	}
	c.impls[key] = fns
	return fns
}

// implCandidates returns the types implementations looks for methods in:
// the package's non-generic named types other than interfaces whose
// values may be in interface values (see inInterfaces), by name.
func (c *checker) implCandidates() []*types.Named {
	if c.implTypes != nil {
		return *c.implTypes
	}
	var out []*types.Named
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || !c.inInterfaces(tn) {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok || named.TypeParams().Len() > 0 || types.IsInterface(named) {
			continue
		}
		out = append(out, named)
	}
	c.implTypes = &out
	return out
}

// inInterfaces reports whether values of tn, a type of the package, may
// be in an interface value: converted to an interface in the package, or
// exported from a file that is not a test (other packages may convert
// them). A test's type that no code converts (a store no test uses) is
// not called through an interface.
func (c *checker) inInterfaces(tn *types.TypeName) bool {
	if tn.Pkg() != c.pass.Pkg {
		return true
	}
	if c.converted == nil {
		c.converted = map[*types.TypeName]bool{}
		funcs := c.funcs
		if init := c.pkg.Func("init"); init != nil {
			funcs = append(funcs[:len(funcs):len(funcs)], init) // package-level var x I = &T{}
		}
		for _, fn := range funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if mi, ok := instr.(*ssa.MakeInterface); ok {
						if n, ok := derefNamedType(mi.X.Type()); ok {
							c.converted[n.Obj()] = true
						}
					}
				}
			}
		}
	}
	return c.converted[tn] || tn.Exported() && !c.declaredInTest(tn)
}

// declaredInTest reports whether obj is declared in a _test.go file.
func (c *checker) declaredInTest(obj types.Object) bool {
	return strings.HasSuffix(c.pass.Fset.Position(obj.Pos()).Filename, "_test.go")
}

// receiverNamed returns the named type of fn's receiver, if fn is a
// method.
func receiverNamed(fn *ssa.Function) (*types.Named, bool) {
	if fn.Signature.Recv() == nil {
		return nil, false
	}
	return derefNamedType(fn.Signature.Recv().Type())
}
