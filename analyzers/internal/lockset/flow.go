package lockset

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"
)

// An Acquisition is one acquisition of a lock observed in a function:
// either a lock operation of the function itself, or an acquisition
// performed by a callee (then Lock.Chain is not empty and Pos is the call).
type Acquisition struct {
	// Instr is the call that acquires, or the defer statement whose
	// deferred call acquires when the function returns.
	Instr ssa.Instruction
	// Pos is the position of the operation, or of the call leading to it.
	Pos token.Pos
	// Lock is the lock acquired.
	Lock Lock
	// Held is the set of locks held just before the acquisition.
	Held Set
	// Try is set for TryLock and TryRLock (they never block).
	Try bool
	// Wait is set for the re-acquisition of L by sync.Cond.Wait; Held
	// then no longer contains L.
	Wait bool
	// Unshared is set when L is a mutex variable of the acquiring
	// function that nothing else can reach yet (var mu sync.Mutex;
	// mu.Lock(); f := func() { mu.Lock() ... }): no other goroutine can
	// hold it, so the acquisition never waits and orders nothing after
	// the locks held.
	Unshared bool
}

// A Release is a release observed in a function.
type Release struct {
	Instr ssa.Instruction
	Pos   token.Pos
	Item  Item
	// Matched reports whether the released lock was in the must-held set.
	Matched bool
	// Lock is the lock released as it was held (where and how it was
	// acquired: Chain, Inherited), when Matched.
	Lock Lock
}

// A Return is a return of a function with the locks held there (after the
// deferred calls have run).
type Return struct {
	Instr *ssa.Return
	Held  Set
}

// A Join is a control-flow edge into a block along which locks are held
// that are not held on every edge into it: the must-held set drops them
// at the block. A lock locked in a loop and still held where the loop
// continues, or held on a break out of it, shows as a Join.
type Join struct {
	From, To *ssa.BasicBlock
	// Held lists the locks held along the edge but not on entry to To.
	Held Set
}

// A Trace lists the lock events of one function, computed with the
// function's entry lockset.
type Trace struct {
	Acquisitions []Acquisition
	Releases     []Release
	Returns      []Return
	Joins        []Join
}

// observer receives the events of a replayed function; nil fields ignore.
type observer struct {
	acquire   func(Acquisition)
	release   func(Release)
	ret       func(Return)
	paramCall func(param int, held Set)
	join      func(Join)
	// bodies is set when the acquisitions of the range-over-func loop
	// bodies the function runs count as its own (a summary's): a
	// trace has them in the bodies' own traces.
	bodies bool
}

type state struct {
	held   Set
	defers []*ssa.Defer
	// dropped holds the deferred calls that paths joining here
	// registered after their common prefix of defers, each on some
	// paths only (if fast { defer mu.Unlock() } else { defer func()
	// {...}() }), with the length of the prefix they follow: they run
	// before its last call.
	dropped []droppedDefer
	// resume, after the call of a range-over-func iterator, holds the
	// locks of each way out of the loop (see runBody).
	resume *resume
	// dead is set on an edge no run takes (see resume.along).
	dead bool
}

// A droppedDefer is a deferred call that runs on some paths only, after
// the first at deferred calls were registered.
type droppedDefer struct {
	at int
	d  *ssa.Defer
	// others holds the locks held, where they joined, by every path
	// that did not register d: a lock d takes back (mu.Unlock(); defer
	// mu.Lock() on one branch) is held at the return on those paths
	// too.
	others Set
}

// maxDropped bounds the deferred calls a state keeps of paths that
// joined; the rest are forgotten, and whatever they release is taken
// as still held.
const maxDropped = 16

// flow is the solved dataflow of one function: the state on entry to each
// reachable block.
type flow struct {
	fn        *ssa.Function
	entry     Set
	in        []*state
	blockHeld [][]Set // lazily: held set before each instruction
	// lossy is set when a loop's back edge brings fewer locks to its
	// header than the way into the loop: the body releases a lock its
	// first iteration still holds (see firstIteration).
	lossy bool
}

// engine computes summaries and flows for one package.
type engine struct {
	pkg        *ssa.Package
	fset       *token.FileSet
	cls        *Classifier
	importFact func(obj types.Object, s *Summary) bool

	summaries map[*ssa.Function]*Summary
	busy      map[*ssa.Function]bool
	base      map[*ssa.Function]*flow // flows with an empty entry lockset
	final     map[*ssa.Function]*flow // flows with the entry lockset
	entries   map[*ssa.Function]Set
	entryBusy map[*ssa.Function]bool

	callsites map[*ssa.Function][]*ssa.Call
	taken     map[*ssa.Function]bool
	takenObj  map[types.Object]bool
	// runsites are the calls and go statements running a function;
	// escapes and escapesObj mark the functions used otherwise (see
	// flagHandedTo).
	runsites   map[*ssa.Function][]ssa.CallInstruction
	escapes    map[*ssa.Function]bool
	escapesObj map[types.Object]bool
	invoked    map[string]bool
	types      []*types.Named
	impls      map[implKey][]*ssa.Function

	graph   *callgraph.Graph // VTA call graph of the package's functions
	dynamic map[ssa.CallInstruction][]*ssa.Function
	inGraph map[*ssa.Function]bool // the functions whose calls VTA resolved
	// wrappers memoizes wrapsWrapper: the closures that call what they
	// replaced.
	wrappers map[*ssa.Function]bool

	opaque      map[*ssa.Function]bool           // see opaqueUnlock
	names       map[*ssa.Function]string         // see funcName
	fieldFuncs  map[string][]ssa.Value           // see indexFieldFuncs
	ctorFields  map[*ssa.Function]map[string]int // see constructorFields
	fieldStores map[fieldOf][]*ssa.Function      // see storedElsewhere
	exits       map[*ssa.Function][]bodyExit     // see bodyExits
	backLinks   map[fieldOf]map[backLink]bool    // see backLinked

	// fixed holds the boolean parameters fixed while a specialized
	// summary is computed, special those summaries (see summaryWith).
	fixed        map[*ssa.Parameter]bool
	special      map[specialKey]*Summary
	specialFlows map[specialKey]*flow // see heldBeforeWhen

	// chanPaired lists the classes of the channels used as mutexes
	// that some function acquires and then releases while it holds them
	// (see verifyChans).
	chanPaired map[string]bool
}

type implKey struct {
	iface  *types.Interface
	method string
}

const maxItems = 64

func newEngine(pkg *ssa.Package, funcs []*ssa.Function, importFact func(types.Object, *Summary) bool) *engine {
	e := &engine{
		pkg:          pkg,
		fset:         pkg.Prog.Fset,
		cls:          NewClassifier(funcs),
		importFact:   importFact,
		summaries:    map[*ssa.Function]*Summary{},
		busy:         map[*ssa.Function]bool{},
		base:         map[*ssa.Function]*flow{},
		final:        map[*ssa.Function]*flow{},
		entries:      map[*ssa.Function]Set{},
		entryBusy:    map[*ssa.Function]bool{},
		callsites:    map[*ssa.Function][]*ssa.Call{},
		taken:        map[*ssa.Function]bool{},
		takenObj:     map[types.Object]bool{},
		runsites:     map[*ssa.Function][]ssa.CallInstruction{},
		escapes:      map[*ssa.Function]bool{},
		escapesObj:   map[types.Object]bool{},
		invoked:      map[string]bool{},
		impls:        map[implKey][]*ssa.Function{},
		opaque:       map[*ssa.Function]bool{},
		ctorFields:   map[*ssa.Function]map[string]int{},
		special:      map[specialKey]*Summary{},
		specialFlows: map[specialKey]*flow{},
		exits:        map[*ssa.Function][]bodyExit{},
	}
	if len(funcs) > 0 {
		// The package initializer stores package-level variables.
		all := append([]*ssa.Function(nil), funcs...)
		if init := pkg.Func("init"); init != nil {
			all = append(all, init)
			all = append(all, init.AnonFuncs...)
		}
		e.cls.indexChanLocks(all)
		e.cls.indexFlagLocks(all)
	}
	e.indexCalls(funcs)
	e.indexFieldFuncs(funcs)
	e.buildCallGraph(funcs)
	for _, m := range pkg.Members {
		if t, ok := m.(*ssa.Type); ok {
			if n, ok := types.Unalias(t.Type()).(*types.Named); ok && n.TypeParams().Len() == 0 {
				e.types = append(e.types, n)
			}
		}
	}
	return e
}

// verifyChans drops the channels taken for mutexes (see
// indexChanLocks) that no function of the package acquires and later
// releases while it still holds them (itself, through its callees, or in
// a deferred call): a mutex is released by its holder, a signal's sender
// never receives. It reports whether it dropped any; the flows and
// summaries computed so far are then stale (see reset). It needs the
// summaries of every function.
func (e *engine) verifyChans() bool {
	dropped := false
	for class := range e.cls.chans {
		if !e.chanPaired[class] {
			delete(e.cls.chans, class)
			dropped = true
		}
	}
	return dropped
}

// reset forgets the flows, summaries and entry locksets computed.
func (e *engine) reset() {
	e.summaries = map[*ssa.Function]*Summary{}
	e.busy = map[*ssa.Function]bool{}
	e.base = map[*ssa.Function]*flow{}
	e.final = map[*ssa.Function]*flow{}
	e.entries = map[*ssa.Function]Set{}
	e.entryBusy = map[*ssa.Function]bool{}
	e.special = map[specialKey]*Summary{}
	e.specialFlows = map[specialKey]*flow{}
	e.exits = map[*ssa.Function][]bodyExit{}
}

// buildCallGraph resolves the dynamic calls of funcs (interface method
// calls and calls of function values) with VTA over the package's own
// non-generic functions.
func (e *engine) buildCallGraph(funcs []*ssa.Function) {
	set := map[*ssa.Function]bool{}
	for _, fn := range funcs {
		if parameterized(fn) {
			continue
		}
		set[fn] = true
		// The wrappers of method values (x.m, *T.m$bound) the function
		// makes: calls of the function value reach the method through
		// them.
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if w, ok := mc.Fn.(*ssa.Function); ok && w.Parent() == nil && !parameterized(w) {
						set[w] = true
					}
				}
			}
		}
	}
	if len(set) == 0 {
		return
	}
	e.graph = vta.CallGraph(set, nil)
	e.inGraph = set
	e.dynamic = map[ssa.CallInstruction][]*ssa.Function{}
	for fn, n := range e.graph.Nodes {
		if !set[fn] {
			continue
		}
		for _, edge := range n.Out {
			if edge.Site == nil || edge.Site.Common().StaticCallee() != nil || e.replacedBefore(edge.Site, edge.Callee.Func) || e.wrapsWrapper(edge.Site, edge.Callee.Func) {
				continue
			}
			e.dynamic[edge.Site] = append(e.dynamic[edge.Site], edge.Callee.Func)
		}
	}
	for _, fns := range e.dynamic {
		sort.Slice(fns, func(i, j int) bool { return fns[i].String() < fns[j].String() })
	}
}

// replacedBefore reports whether the function value that site, in a
// closure, calls was read from a field, by the function that made the
// closure, before that function made callee, one of its own closures: a
// wrapper calling what it replaces (userRevoked := cfg.onRevoked;
// cfg.onRevoked = func() { mu.Lock(); userRevoked(); mu.Unlock() }) does
// not call itself, nor the wrappers made after it. Type-based resolution
// (VTA) takes every function stored into the field for a callee of
// every value read from it.
func (e *engine) replacedBefore(site ssa.CallInstruction, callee *ssa.Function) bool {
	read := e.boundRead(site)
	if read == nil {
		return false
	}
	if _, ok := read.X.(*ssa.FieldAddr); !ok || callee.Parent() != read.Parent() {
		return false
	}
	made := e.cls.closures[callee]
	return len(made) > 0 && !slices.ContainsFunc(made, func(mc *ssa.MakeClosure) bool { return !After(read, mc) })
}

// boundRead returns the load through a pointer (prev := cfg.onRevoked,
// user := *set) that the function value site calls was bound from, when
// site calls a variable its closure captures; nil otherwise.
func (e *engine) boundRead(site ssa.CallInstruction) *ssa.UnOp {
	if site.Common().IsInvoke() {
		return nil
	}
	v := site.Common().Value
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		v = u.X // a variable captured by reference: *fv
	}
	fv, ok := v.(*ssa.FreeVar)
	if !ok {
		return nil
	}
	bound := e.cls.Binding(fv)
	if cell, ok := bound.(*ssa.Alloc); ok {
		bound = CellValue(cell)
	}
	read, ok := bound.(*ssa.UnOp)
	if !ok || read.Op != token.MUL {
		return nil
	}
	return read
}

// wrapsWrapper reports whether site calls what its closure replaced (see
// replacedRead) and callee is such a wrapper too, itself or one another
// function makes: two wrappers of one callback field each take the other
// for the value it replaced (initGroup's logging wrapper and a session's
// option wrapping onRevoked), a cycle no run has, since each calls only
// what was installed before it. The call from one wrapper to the other
// is left out both ways; a chain of two wrappers locking one mutex is
// not seen.
func (e *engine) wrapsWrapper(site ssa.CallInstruction, callee *ssa.Function) bool {
	if e.replacedRead(site) == nil {
		return false
	}
	if w, ok := e.wrappers[callee]; ok {
		return w
	}
	w := false
	for _, b := range callee.Blocks {
		for _, instr := range b.Instrs {
			if call, ok := instr.(ssa.CallInstruction); ok && e.replacedRead(call) != nil {
				w = true
			}
		}
	}
	if e.wrappers == nil {
		e.wrappers = map[*ssa.Function]bool{}
	}
	e.wrappers[callee] = w
	return w
}

// replacedRead returns the load that the function value site calls was
// bound from, when site is in a closure that calls what it replaced: the
// function making the closure loads the value through a pointer (prev :=
// cfg.onRevoked, user := *set) before it makes the closure, every time,
// and stores the closure (cfg.onRevoked = func() { ...; prev() }).
func (e *engine) replacedRead(site ssa.CallInstruction) *ssa.UnOp {
	read := e.boundRead(site)
	if read == nil {
		return nil
	}
	made := e.cls.closures[site.Parent()]
	if len(made) == 0 {
		return nil
	}
	for _, mc := range made {
		if mc.Parent() != read.Parent() || !After(read, mc) || !storedAway(mc) {
			return nil
		}
	}
	return read
}

// storedAway reports whether the closure mc makes is stored through a
// pointer (into a field or a variable a pointer names).
func storedAway(mc *ssa.MakeClosure) bool {
	for _, r := range *mc.Referrers() {
		if st, ok := r.(*ssa.Store); ok && st.Val == mc {
			return true
		}
	}
	return false
}

// After reports whether b runs only after a, two instructions of one
// function: later in a's block, or in a block that a's block dominates.
func After(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		return slices.Index(a.Block().Instrs, a) < slices.Index(a.Block().Instrs, b)
	}
	return a.Block().Dominates(b.Block())
}

// parameterized reports whether fn or a function enclosing it has type
// parameters (VTA needs instantiated functions).
func parameterized(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if f.TypeParams().Len() > 0 {
			return true
		}
	}
	return false
}

// indexCalls records the direct call sites of every function and which
// functions escape (are used other than by being called).
func (e *engine) indexCalls(funcs []*ssa.Function) {
	var ops []*ssa.Value
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					e.indexClosure(mc)
				}
				if call, ok := instr.(ssa.CallInstruction); ok && call.Common().IsInvoke() {
					e.invoked[call.Common().Method.Name()] = true
				}
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					f, ok := (*op).(*ssa.Function)
					if !ok {
						continue
					}
					if _, isMC := instr.(*ssa.MakeClosure); isMC && i == 0 {
						continue
					}
					if call, ok := instr.(*ssa.Call); ok && call.Call.Value == f && i == 0 {
						e.callsites[f] = append(e.callsites[f], call)
						e.runsites[f] = append(e.runsites[f], call)
						continue
					}
					e.taken[f] = true
					if obj := f.Object(); obj != nil {
						e.takenObj[obj] = true
					}
					if g, ok := instr.(*ssa.Go); ok && g.Call.Value == f && i == 0 {
						e.runsites[f] = append(e.runsites[f], g)
						continue
					}
					e.escapes[f] = true
					if obj := f.Object(); obj != nil {
						e.escapesObj[obj] = true
					}
				}
			}
		}
	}
}

func (e *engine) indexClosure(mc *ssa.MakeClosure) {
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok {
		return
	}
	if fn.Parent() == nil {
		// A bound method wrapper: the method escapes as a value.
		e.taken[fn] = true
		if obj := fn.Object(); obj != nil {
			e.takenObj[obj] = true
			e.escapesObj[obj] = true
		}
		return
	}
	for _, r := range *mc.Referrers() {
		if call, ok := r.(ssa.CallInstruction); ok && call.Common().Value == mc {
			if _, isDefer := r.(*ssa.Defer); !isDefer {
				e.runsites[fn] = append(e.runsites[fn], call)
				continue
			}
		}
		e.escapes[fn] = true
	}
	for _, r := range *mc.Referrers() {
		call, ok := r.(*ssa.Call)
		if !ok || call.Call.Value != mc {
			e.taken[fn] = true
			return
		}
	}
	for _, r := range *mc.Referrers() {
		e.callsites[fn] = append(e.callsites[fn], r.(*ssa.Call))
	}
}

// eligible reports whether every call of fn is a direct call seen in the
// package, so that its entry lockset may be taken from its callers.
func (e *engine) eligible(fn *ssa.Function) bool {
	if fn.Synthetic != "" || e.taken[fn] || len(e.callsites[fn]) == 0 {
		return false
	}
	if fn.Parent() != nil {
		return true
	}
	if fn.Pkg != e.pkg || ast.IsExported(fn.Name()) || fn.Name() == "init" || fn.Name() == "main" {
		return false
	}
	if obj := fn.Object(); obj == nil || e.takenObj[obj] {
		return false
	}
	if fn.Signature.Recv() != nil && e.invoked[fn.Name()] {
		return false
	}
	return true
}

// summary returns the summary of fn, computing it (bottom-up, on demand)
// for functions with bodies and importing it for the others. Calls inside
// a recursive cycle see an empty summary for the functions of the cycle
// still being computed.
func (e *engine) summary(fn *ssa.Function) *Summary {
	if s, ok := e.summaries[fn]; ok {
		return s
	}
	if e.busy[fn] {
		return &Summary{}
	}
	var s *Summary
	switch {
	case fn.Blocks != nil:
		e.busy[fn] = true
		s = e.summarize(e.baseFlow(fn))
		delete(e.busy, fn)
	case fn.Origin() != nil && fn.Origin() != fn:
		s = e.summary(fn.Origin())
	default:
		s = &Summary{}
		if param, ok := syncRunners[fn.String()]; ok {
			s = &Summary{ParamCalls: []ParamCall{{Param: param}}}
		} else if obj, ok := fn.Object().(*types.Func); ok && e.importFact != nil && obj.Pkg() != nil && obj.Pkg() != e.pkg.Pkg {
			var imported Summary
			if e.importFact(obj.Origin(), &imported) {
				s = &imported
			}
		}
	}
	e.summaries[fn] = s
	return s
}

// CallsArgument reports, for a function of the standard library that
// calls a function argument before it returns, in the calling goroutine
// (sort.Slice, (*sync.Map).Range, (*sync.Once).Do, ...), the index of
// that parameter, receiver first.
func CallsArgument(fn *ssa.Function) (int, bool) {
	if fn.Blocks != nil {
		return 0, false
	}
	param, ok := syncRunners[fn.String()]
	return param, ok
}

// syncRunners are the functions of the standard library that call a
// function argument before they return, in the calling goroutine, with
// no lock of the caller's released: the index of that parameter
// (receiver first). Their summaries record the call (ParamCalls), so the
// locks the function passed takes count as the caller's: a lock taken
// inside once.Do(func() { ... }) under the same lock is a double lock.
var syncRunners = map[string]int{
	"(*sync.Once).Do":         1,
	"(*sync.Map).Range":       1,
	"sort.Slice":              1,
	"sort.SliceStable":        1,
	"sort.Search":             1,
	"slices.SortFunc":         1,
	"slices.SortStableFunc":   1,
	"slices.IndexFunc":        1,
	"slices.ContainsFunc":     1,
	"slices.DeleteFunc":       1,
	"slices.BinarySearchFunc": 2,
	"strings.Map":             0,
	"strings.FieldsFunc":      1,
	"strings.IndexFunc":       1,
	"strings.TrimFunc":        1,
	"bytes.Map":               0,
	"bytes.FieldsFunc":        1,
	"bytes.IndexFunc":         1,
	"bytes.TrimFunc":          1,
}

// summaryWith returns the summary of fn for a call that passes the
// constants fixed for boolean parameters that fn branches on: the
// summary of fn with the branches those constants rule out left out
// (c.remove(k, true) under c.mu, where remove locks only if !locked).
// Without such parameters, or while another such summary is being
// computed, it is fn's summary.
func (e *engine) summaryWith(fn *ssa.Function, fixed map[*ssa.Parameter]bool) *Summary {
	s := e.summary(fn)
	if len(fixed) == 0 || fn.Blocks == nil || e.busy[fn] || e.fixed != nil || noEffect(s) {
		return s
	}
	key := specialKey{fn: fn}
	for i, p := range fn.Params {
		if v, ok := fixed[p]; ok {
			key.mask += strconv.Itoa(i) + ":" + strconv.FormatBool(v) + " "
		}
	}
	if sp, ok := e.special[key]; ok {
		return sp
	}
	if !e.rulesOutEffects(fn, fixed) {
		e.special[key] = s
		return s
	}
	e.fixed = fixed
	e.busy[fn] = true
	sp := e.summarize(e.solve(fn, nil))
	delete(e.busy, fn)
	e.fixed = nil
	e.special[key] = sp
	return sp
}

// heldBeforeWhen returns the locks held on every path to instr that
// takes the branches on boolean parameter p as p == want does, from fn's
// entry lockset; false when no such path reaches instr.
func (e *engine) heldBeforeWhen(instr ssa.Instruction, p *ssa.Parameter, want bool) (Set, bool) {
	fn := instr.Parent()
	key := specialKey{fn: fn, mask: strconv.Itoa(paramIndex(p)) + ":" + strconv.FormatBool(want) + " "}
	f, ok := e.specialFlows[key]
	if !ok {
		entry := e.entry(fn)
		e.summary(fn)
		e.fixed = map[*ssa.Parameter]bool{p: want}
		f = e.solve(fn, entry)
		e.fixed = nil
		e.specialFlows[key] = f
	}
	if b := instr.Block(); b == nil || f.in[b.Index] == nil {
		return nil, false
	}
	return f.heldBefore(e, instr), true
}

// lockFlags returns the boolean parameters of fn that decide branches
// holding a lock operation or a call of a function that takes or
// releases a lock (if lock { mu.Lock(); defer mu.Unlock() }).
func (e *engine) lockFlags(fn *ssa.Function) []*ssa.Parameter {
	var out []*ssa.Parameter
	for _, p := range fn.Params {
		if !isBool(p.Type()) || !e.branchesOn(p) {
			continue
		}
		if e.rulesOutLocking(fn, map[*ssa.Parameter]bool{p: true}) || e.rulesOutLocking(fn, map[*ssa.Parameter]bool{p: false}) {
			out = append(out, p)
		}
	}
	return out
}

// rulesOutLocking reports whether the branches that fixed rules out in fn
// hold a lock operation or a static call of a function that acquires,
// releases or holds a lock: less than rulesOutEffects, whose returns,
// channel operations and dynamic calls decide no lock held after the
// branch.
func (e *engine) rulesOutLocking(fn *ssa.Function, fixed map[*ssa.Parameter]bool) bool {
	reached := reachedWith(fn, fixed)
	for _, b := range fn.Blocks {
		if reached[b.Index] {
			continue
		}
		for _, instr := range b.Instrs {
			x, ok := instr.(ssa.CallInstruction)
			if !ok {
				continue
			}
			if _, ok := e.cls.Op(x.Common()); ok {
				return true
			}
			if _, ok := e.cls.LockerOp(x.Common()); ok {
				return true
			}
			if callee := x.Common().StaticCallee(); callee != nil {
				if s := e.summary(callee); len(s.Acquires)+len(s.Releases)+len(s.Holds)+len(s.CondHolds)+len(s.Neutral) > 0 {
					return true
				}
			}
		}
	}
	return false
}

// reachedWith marks the blocks of fn that a run reaches where the
// boolean parameters have the values fixed gives them.
func reachedWith(fn *ssa.Function, fixed map[*ssa.Parameter]bool) []bool {
	reached := make([]bool, len(fn.Blocks))
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	reached[0] = true
	if fn.Recover != nil {
		reached[fn.Recover.Index] = true
		work = append(work, fn.Recover)
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		for si, succ := range b.Succs {
			if !reached[succ.Index] && !prunedBy(fixed, b, si) {
				reached[succ.Index] = true
				work = append(work, succ)
			}
		}
	}
	return reached
}

// rulesOutEffects reports whether the branches that fixed rules out in
// fn hold something with a lock effect: a lock operation, a channel
// operation, a return, a call of a function value or interface method,
// or a call of a function whose summary has an effect. Otherwise the
// summary with them left out is fn's own.
func (e *engine) rulesOutEffects(fn *ssa.Function, fixed map[*ssa.Parameter]bool) bool {
	reached := reachedWith(fn, fixed)
	for _, b := range fn.Blocks {
		if reached[b.Index] {
			continue
		}
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send, *ssa.Select, *ssa.Return, *ssa.Panic:
				// (a return left out can leave a lock held on every
				// return that is left)
				return true
			case *ssa.UnOp:
				if x.Op == token.ARROW {
					return true
				}
			case ssa.CallInstruction:
				if _, ok := e.cls.Op(x.Common()); ok {
					return true
				}
				if _, ok := e.cls.LockerOp(x.Common()); ok {
					return true
				}
				callee := x.Common().StaticCallee()
				if callee == nil || !noEffect(e.summary(callee)) {
					return true
				}
			}
		}
	}
	return false
}

// noEffect reports whether summary s has nothing for a caller to apply,
// which leaving out branches cannot change.
func noEffect(s *Summary) bool {
	return len(s.Acquires) == 0 && len(s.Releases) == 0 && len(s.Holds) == 0 && len(s.CondHolds) == 0 && len(s.ParamCalls) == 0 && len(s.Neutral) == 0
}

// A specialKey names a summary of fn with some boolean parameters fixed
// ("1:true ").
type specialKey struct {
	fn   *ssa.Function
	mask string
}

// constFlags returns the boolean parameters of fn that the call passes a
// constant for and that fn branches on (if !locked, if send), with those
// constants; nil when there are none.
func (e *engine) constFlags(fn *ssa.Function, common *ssa.CallCommon) map[*ssa.Parameter]bool {
	if fn.Blocks == nil || len(fn.Params) != len(args(common)) {
		return nil
	}
	var fixed map[*ssa.Parameter]bool
	for i, arg := range args(common) {
		k, ok := arg.(*ssa.Const)
		if !ok || k.Value == nil || k.Value.Kind() != constant.Bool || !e.branchesOn(fn.Params[i]) {
			continue
		}
		if fixed == nil {
			fixed = map[*ssa.Parameter]bool{}
		}
		fixed[fn.Params[i]] = constant.BoolVal(k.Value)
	}
	return fixed
}

// branchesOn reports whether an If of p's function tests p (or its
// negation).
func (e *engine) branchesOn(p *ssa.Parameter) bool {
	var tested func(v ssa.Value, depth int) bool
	tested = func(v ssa.Value, depth int) bool {
		refs := v.Referrers()
		if refs == nil || depth > maxNots {
			return false
		}
		for _, r := range *refs {
			switch x := r.(type) {
			case *ssa.If:
				return true
			case *ssa.UnOp:
				if x.Op == token.NOT && tested(x, depth+1) {
					return true
				}
			}
		}
		return false
	}
	return tested(p, 0)
}

// maxNots bounds the negations followed from a flag to the If testing it.
const maxNots = 4

// pruned reports whether the edge from b to its si'th successor is ruled
// out by a boolean parameter fixed for the summary being computed (see
// summaryWith).
func (e *engine) pruned(b *ssa.BasicBlock, si int) bool {
	return e.fixed != nil && prunedBy(e.fixed, b, si)
}

// Unnegated returns cond with its leading ! operators removed, and
// whether there was an odd number of them (!!done is done).
func Unnegated(cond ssa.Value) (v ssa.Value, negated bool) {
	for {
		u, ok := cond.(*ssa.UnOp)
		if !ok || u.Op != token.NOT {
			return cond, negated
		}
		cond, negated = u.X, !negated
	}
}

// prunedBy reports whether the edge from b to its si'th successor is
// ruled out by the constants fixed: b ends with an If on one of those
// parameters, or its negation, that the constant decides the other way.
func prunedBy(fixed map[*ssa.Parameter]bool, b *ssa.BasicBlock, si int) bool {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return false
	}
	cond, negate := Unnegated(ifi.Cond)
	p, ok := cond.(*ssa.Parameter)
	if !ok {
		return false
	}
	v, ok := fixed[p]
	if !ok {
		return false
	}
	taken := 0 // the true branch
	if v == negate {
		taken = 1
	}
	return si != taken
}

func (e *engine) baseFlow(fn *ssa.Function) *flow {
	if f, ok := e.base[fn]; ok {
		return f
	}
	f := e.solve(fn, nil)
	e.base[fn] = f
	return f
}

// finalFlow returns the flow of fn computed with its entry lockset.
func (e *engine) finalFlow(fn *ssa.Function) *flow {
	if f, ok := e.final[fn]; ok {
		return f
	}
	entry := e.entry(fn)
	var f *flow
	if len(entry) == 0 {
		e.summary(fn)
		f = e.baseFlow(fn)
	} else {
		f = e.solve(fn, entry)
	}
	e.final[fn] = f
	return f
}

// entry returns the entry lockset of fn: the locks held at every one of
// its call sites, when all of them are known; nil otherwise.
func (e *engine) entry(fn *ssa.Function) Set {
	if s, ok := e.entries[fn]; ok {
		return s
	}
	if IsLoopBody(fn) && !e.entryBusy[fn] {
		e.entryBusy[fn] = true
		acc := e.released(fn, e.bodyEntry(fn))
		delete(e.entryBusy, fn)
		e.entries[fn] = acc
		return acc
	}
	if !e.eligible(fn) || e.entryBusy[fn] {
		return e.released(fn, nil)
	}
	e.entryBusy[fn] = true
	var acc Set
	for i, call := range e.callsites[fn] {
		caller := e.finalFlow(call.Parent())
		m := e.toCallee(caller.heldBefore(e, call), &call.Call)
		if i == 0 {
			acc = m
		} else {
			acc = acc.intersect(m)
		}
		if len(acc) == 0 {
			break
		}
	}
	delete(e.entryBusy, fn)
	acc = e.released(fn, acc)
	e.entries[fn] = acc
	return acc
}

// released adds to entry, fn's entry lockset, the locks fn releases
// without having acquired them (its summary's Releases): it runs with
// them held until it releases them, whoever took them (a caller, or the
// goroutine that handed them over: mu.Lock(); go func() { ...;
// mu.Unlock() }(); a function named fooAndUnlock).
func (e *engine) released(fn *ssa.Function, entry Set) Set {
	for _, it := range e.summary(fn).Releases {
		if it.Param > 0 {
			continue // a lock named after a parameter: its callers' to name
		}
		if it.Kind == KindFlag && !e.flagHandedTo(fn, it.Class) {
			continue
		}
		if _, held := entry.remove(it.Class, it.Mode, it.Inst); !held {
			entry = entry.add(Lock{Item: it, Inherited: true, Assumed: true})
		}
	}
	return entry
}

// flagHandedTo reports whether fn, which releases the atomic flag class
// without having taken it, runs holding it: when the package runs it
// (calls it, or starts it with a go statement) only where the caller
// itself holds the flag (a try-lock handing its work over: if
// atomic.CompareAndSwapUint64(&t.running, 0, 1) { go t.run() }), and
// other packages cannot call it. A flag stored back by a function that
// runs without it (Close resetting the state Open set, called by the
// package's users) is not held there.
func (e *engine) flagHandedTo(fn *ssa.Function, class string) bool {
	if fn.Synthetic != "" || e.escapes[fn] {
		return false
	}
	if fn.Parent() == nil {
		obj := fn.Object()
		if fn.Pkg != e.pkg || obj == nil || ast.IsExported(fn.Name()) || e.escapesObj[obj] {
			return false
		}
		if fn.Signature.Recv() != nil && e.invoked[fn.Name()] {
			return false
		}
	}
	sites := e.runsites[fn]
	if len(sites) == 0 {
		return false
	}
	for _, site := range sites {
		if !e.baseFlow(site.Parent()).heldBefore(e, site).Holds(class) {
			return false
		}
	}
	return true
}

// solve computes the must-held lockset at the entry of every block of fn,
// starting from entry: a forward dataflow, intersecting at joins.
func (e *engine) solve(fn *ssa.Function, entry Set) *flow {
	f := &flow{fn: fn, entry: entry, in: make([]*state, len(fn.Blocks))}
	if len(fn.Blocks) == 0 {
		return f
	}
	queued := make([]bool, len(fn.Blocks))
	var work []int
	push := func(i int) {
		if !queued[i] {
			queued[i] = true
			work = append(work, i)
		}
	}
	f.in[0] = &state{held: entry}
	push(0)
	if fn.Recover != nil && f.in[fn.Recover.Index] == nil {
		f.in[fn.Recover.Index] = &state{}
		push(fn.Recover.Index)
	}
	for len(work) > 0 {
		i := work[0]
		work = work[1:]
		queued[i] = false
		b := fn.Blocks[i]
		st := *f.in[i]
		e.runBlock(b, &st, nil, nil)
		for si, succ := range b.Succs {
			if e.pruned(b, si) {
				continue
			}
			out := e.edge(b, si, st)
			if out.dead {
				continue
			}
			j := succ.Index
			if f.in[j] == nil {
				f.in[j] = &out
				push(j)
				continue
			}
			joined := join(*f.in[j], out)
			if !joined.held.sameKeys(f.in[j].held) || len(joined.defers) != len(f.in[j].defers) || len(joined.dropped) != len(f.in[j].dropped) {
				if len(joined.held) < len(f.in[j].held) && succ.Dominates(b) {
					f.lossy = true
				}
				f.in[j] = &joined
				push(j)
			}
		}
	}
	return f
}

// firstIteration returns the flow of fn along its forward edges only:
// the locks held on the way into each loop's first iteration, before
// its back edge brings in the iterations after a release in its body.
func (e *engine) firstIteration(f *flow) *flow {
	fn := f.fn
	g := &flow{fn: fn, entry: f.entry, in: make([]*state, len(fn.Blocks))}
	if len(fn.Blocks) == 0 {
		return g
	}
	g.in[0] = &state{held: f.entry}
	if fn.Recover != nil {
		g.in[fn.Recover.Index] = &state{}
	}
	order := forwardOrder(fn)
	if order == nil {
		return nil
	}
	for _, b := range order {
		if g.in[b.Index] == nil {
			continue
		}
		st := *g.in[b.Index]
		e.runBlock(b, &st, nil, nil)
		for si, succ := range b.Succs {
			if succ.Dominates(b) {
				continue // a back edge
			}
			out := e.edge(b, si, st)
			if out.dead {
				continue
			}
			if j := succ.Index; g.in[j] == nil {
				g.in[j] = &out
			} else {
				joined := join(*g.in[j], out)
				g.in[j] = &joined
			}
		}
	}
	return g
}

// firstHeld gives the acquisitions acqs of f's function, made in a loop
// body on every iteration (see everyIteration), the locks held on the
// loop's first iteration when those are more than on every iteration: a
// loop whose body releases a lock taken before the loop (through a
// callee releasing its caller's lock) still acquires under it the first
// time round.
func (e *engine) firstHeld(f *flow, acqs []Acquisition) {
	g := e.firstIteration(f)
	if g == nil {
		return
	}
	type key struct {
		instr ssa.Instruction
		pos   token.Pos
		lock  string
	}
	first := map[key][]Set{}
	g.replay(e, &observer{acquire: func(a Acquisition) {
		k := key{a.Instr, a.Pos, a.Lock.Key()}
		first[k] = append(first[k], a.Held)
	}})
	for i := range acqs {
		a := &acqs[i]
		if a.Instr == nil || a.Instr.Block() == nil {
			continue
		}
		k := key{a.Instr, a.Pos, a.Lock.Key()}
		held := first[k]
		if len(held) == 0 {
			continue
		}
		first[k] = held[1:]
		if len(held[0]) > len(a.Held) && len(a.Held.minus(held[0])) == 0 && everyIteration(a.Instr.Block()) {
			a.Held = held[0]
		}
	}
}

// forwardOrder returns fn's blocks in a topological order of its forward
// edges (those that are not back edges to a dominating loop header), or
// nil when they still form a cycle (an irreducible loop made with goto).
func forwardOrder(fn *ssa.Function) []*ssa.BasicBlock {
	preds := make([]int, len(fn.Blocks))
	for _, b := range fn.Blocks {
		for _, succ := range b.Succs {
			if !succ.Dominates(b) {
				preds[succ.Index]++
			}
		}
	}
	var order, ready []*ssa.BasicBlock
	for _, b := range fn.Blocks {
		if preds[b.Index] == 0 {
			ready = append(ready, b)
		}
	}
	for len(ready) > 0 {
		b := ready[len(ready)-1]
		ready = ready[:len(ready)-1]
		order = append(order, b)
		for _, succ := range b.Succs {
			if succ.Dominates(b) {
				continue
			}
			if preds[succ.Index]--; preds[succ.Index] == 0 {
				ready = append(ready, succ)
			}
		}
	}
	if len(order) != len(fn.Blocks) {
		return nil
	}
	return order
}

// everyIteration reports whether block b, inside a loop, runs on every
// iteration that goes round again: it dominates a back edge's source.
func everyIteration(b *ssa.BasicBlock) bool {
	for _, h := range b.Parent().Blocks {
		if !h.Dominates(b) {
			continue
		}
		for _, p := range h.Preds {
			if h.Dominates(p) && b.Dominates(p) {
				return true
			}
		}
	}
	return false
}

func join(a, b state) state {
	n := 0
	for n < len(a.defers) && n < len(b.defers) && a.defers[n] == b.defers[n] {
		n++
	}
	defers := a.defers[:n:n]
	if len(a.defers) == len(b.defers) {
		// The paths deferred the release of one mutex in two modes
		// (defer mu.Unlock() after taking it to create, defer
		// mu.RUnlock() on the other branch): meet holds it shared, and
		// the shared release lets it go.
		tail := make([]*ssa.Defer, 0, len(a.defers)-n)
		for k := n; k < len(a.defers); k++ {
			d, ok := sharedRelease(a.defers[k], b.defers[k])
			if !ok {
				tail = nil
				break
			}
			tail = append(tail, d)
		}
		if tail != nil {
			defers = append(defers, tail...)
		}
	}
	var dropped []droppedDefer
	add := func(at int, d *ssa.Defer, others Set) {
		at = min(at, len(defers))
		for i, dd := range dropped {
			if dd.at == at && dd.d == d {
				dropped[i].others = dd.others.intersect(others)
				return
			}
		}
		if len(dropped) < maxDropped {
			dropped = append(dropped, droppedDefer{at, d, others})
		}
	}
	for _, s := range [][2]state{{a, b}, {b, a}} {
		s, t := s[0], s[1]
		for _, dd := range s.dropped {
			others := dd.others
			if !t.registered(dd.d) {
				others = others.intersect(t.held)
			}
			add(dd.at, dd.d, others)
		}
		for k := len(defers); k < len(s.defers); k++ {
			var others Set
			if !t.registered(s.defers[k]) {
				others = t.held
			}
			add(len(defers), s.defers[k], others)
		}
	}
	out := state{held: a.held.meet(b.held), defers: defers, dropped: dropped}
	if a.resume == b.resume {
		out.resume = a.resume
	}
	return out
}

// registered reports whether the paths of st registered d, on every
// path or on some.
func (st *state) registered(d *ssa.Defer) bool {
	return slices.Contains(st.defers, d) || slices.ContainsFunc(st.dropped, func(dd droppedDefer) bool { return dd.d == d })
}

// sharedRelease returns, of two deferred calls, the RUnlock when one
// is an Unlock and the other an RUnlock of the same sync.RWMutex: a
// package variable, or the same field of the same value.
func sharedRelease(a, b *ssa.Defer) (*ssa.Defer, bool) {
	name := func(d *ssa.Defer) string {
		if fn := d.Call.StaticCallee(); fn != nil && fn.Signature.Recv() != nil && len(d.Call.Args) == 1 &&
			types.TypeString(fn.Signature.Recv().Type(), nil) == "*sync.RWMutex" {
			return fn.Name()
		}
		return ""
	}
	na, nb := name(a), name(b)
	if pair := na + " " + nb; pair != "Unlock RUnlock" && pair != "RUnlock Unlock" || !sameMutex(a.Call.Args[0], b.Call.Args[0]) {
		return nil, false
	}
	if na == "RUnlock" {
		return a, true
	}
	return b, true
}

// sameMutex reports whether two values address the same mutex in any
// call: the same package variable (loaded, or its address), or the same
// field of the same value.
func sameMutex(x, y ssa.Value) bool {
	if x == y {
		return true
	}
	switch x := x.(type) {
	case *ssa.UnOp:
		y, ok := y.(*ssa.UnOp)
		return ok && x.Op == token.MUL && y.Op == token.MUL && sameMutex(x.X, y.X)
	case *ssa.FieldAddr:
		y, ok := y.(*ssa.FieldAddr)
		return ok && x.Field == y.Field && sameMutex(x.X, y.X)
	}
	return false
}

// edge returns the state along the si'th successor edge of b: a TryLock
// whose result is tested by b's If holds its lock on the true edge; so
// does a call of a conditional lock helper (Summary.CondHolds) on the
// edge where its bool result is true, or its error result nil; and the
// send case of a select on a channel used as a mutex holds it on the
// edge into that case.
func (e *engine) edge(b *ssa.BasicBlock, si int, st state) state {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return st
	}
	if st.resume != nil {
		if out, ok := st.resume.along(b, si, st); ok {
			return out
		}
	}
	cond, want := ifi.Cond, 0
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond, want = u.X, 1
	}
	nilTest := false
	if bin, ok := cond.(*ssa.BinOp); ok && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		if si == want && bin.Op == token.EQL {
			if l, ok := e.selectCase(bin); ok {
				st.held = st.held.add(l)
				return st
			}
		}
		v := nilCompared(bin)
		if v == nil {
			return st
		}
		if bin.Op == token.NEQ {
			want = 1 - want
		}
		cond, nilTest = v, true
	}
	if si != want {
		return st
	}
	if x, ok := cond.(*ssa.Extract); ok {
		if t, isCall := x.Tuple.(*ssa.Call); isCall && x.Index == t.Call.Signature().Results().Len()-1 {
			cond = t
		}
	}
	call, ok := cond.(*ssa.Call)
	if !ok {
		return st
	}
	if !nilTest && !isTuple(call.Type()) {
		op, ok := e.cls.Op(&call.Call)
		if !ok {
			op, ok = e.cls.LockerOp(&call.Call)
			ok = ok && e.noLockEffect(call.Call.StaticCallee())
		}
		if ok && op.Kind == OpTryAcquire {
			st.held = st.held.add(e.lockOf(op.Ref, op.Mode, call.Pos()))
			return st
		}
	}
	for _, l := range e.condHolds(call, nilTest) {
		st.held = st.held.add(l)
	}
	return st
}

// isTuple reports whether t is a tuple: the results of a call of several.
func isTuple(t types.Type) bool {
	_, ok := t.(*types.Tuple)
	return ok
}

// nilCompared returns the operand bin compares with nil, or nil.
func nilCompared(bin *ssa.BinOp) ssa.Value {
	isNil := func(v ssa.Value) bool {
		k, ok := v.(*ssa.Const)
		return ok && k.IsNil()
	}
	switch {
	case isNil(bin.Y):
		return bin.X
	case isNil(bin.X):
		return bin.Y
	}
	return nil
}

// selectCase returns, for bin comparing the index a select chose with a
// constant (how go/ssa dispatches its cases), the lock that the case
// acquires when it is a send on a channel used as a mutex.
func (e *engine) selectCase(bin *ssa.BinOp) (Lock, bool) {
	x, ok := bin.X.(*ssa.Extract)
	if !ok || x.Index != 0 {
		return Lock{}, false
	}
	sel, ok := x.Tuple.(*ssa.Select)
	if !ok {
		return Lock{}, false
	}
	k, ok := bin.Y.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return Lock{}, false
	}
	i, exact := constant.Int64Val(k.Value)
	if !exact || i < 0 || int(i) >= len(sel.States) {
		return Lock{}, false
	}
	st := sel.States[i]
	if st.Dir != types.SendOnly {
		return Lock{}, false
	}
	r, ok := e.cls.chanLock(st.Chan)
	if !ok {
		return Lock{}, false
	}
	return e.lockOf(r, Write, st.Pos), true
}

// condHolds returns the locks that the callees of call hold where they
// return successfully (Summary.CondHolds): where their error result is
// nil (nilTest) or their bool result true. Every callee must hold a lock
// for the call to.
func (e *engine) condHolds(call *ssa.Call, nilTest bool) Set {
	res := call.Call.Signature().Results()
	if res.Len() == 0 {
		return nil
	}
	last := res.At(res.Len() - 1).Type()
	if nilTest && !isErrorType(last) || !nilTest && !isBool(last) {
		return nil
	}
	callees := e.callees(call, &call.Call)
	if len(callees) == 0 {
		return nil
	}
	as, binds := args(&call.Call), bindings(&call.Call)
	var out Set
	for i, fn := range callees {
		var h Set
		for _, it := range e.summary(fn).CondHolds {
			h = h.add(Lock{Item: e.mapItem(it, as, binds, fn, call.Pos())})
		}
		if i == 0 {
			out = h
		} else {
			out = out.intersect(h)
		}
	}
	return out
}

// isErrorType reports whether t is the error interface.
func isErrorType(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

// isBool reports whether t is a boolean type.
func isBool(t types.Type) bool {
	b, ok := types.Unalias(t).Underlying().(*types.Basic)
	return ok && b.Info()&types.IsBoolean != 0
}

// runBlock applies the instructions of b to st, calling before (when not
// nil) with the held set before each instruction.
func (e *engine) runBlock(b *ssa.BasicBlock, st *state, obs *observer, before func(i int, held Set)) {
	for i, instr := range b.Instrs {
		if before != nil {
			before(i, st.held)
		}
		switch instr := instr.(type) {
		case *ssa.Call:
			e.call(st, &instr.Call, instr, instr.Pos(), obs)
		case *ssa.Defer:
			st.defers = append(st.defers[:len(st.defers):len(st.defers)], instr)
		case *ssa.Go:
			e.handOff(st, instr, obs)
		case *ssa.Send, *ssa.UnOp, *ssa.Select:
			e.chanOp(st, instr, obs)
		case *ssa.RunDefers:
			for k := len(st.defers) - 1; k >= 0; k-- {
				e.runDropped(st, k+1)
				e.runDefer(st, st.defers[k], obs)
			}
			e.runDropped(st, 0)
			st.defers, st.dropped = nil, nil
		case *ssa.Return:
			if obs != nil && obs.ret != nil {
				obs.ret(Return{Instr: instr, Held: st.held})
			}
		}
	}
}

// runDropped applies to st the deferred calls registered on some paths
// only after the first at deferred calls (see state.dropped): a lock one
// of them releases is no longer held on every path. Each runs unobserved
// on its own copy of the locks held: what it does is not known to happen.
func (e *engine) runDropped(st *state, at int) {
	for _, dd := range st.dropped {
		if dd.at != at {
			continue
		}
		alone := state{held: st.held}
		e.runDefer(&alone, dd.d, nil)
		regained := alone.held.minus(st.held).intersect(dd.others)
		st.held = st.held.meet(alone.held)
		for _, l := range regained {
			// Taken back where d runs, held where it does not.
			st.held = st.held.add(l)
		}
	}
}

// runDefer applies deferred call d to st at a return.
func (e *engine) runDefer(st *state, d *ssa.Defer, obs *observer) {
	e.call(st, &d.Call, d, d.Pos(), obs)
	if isFuncValueCall(&d.Call) {
		// defer unlock(): a function value that may release anything;
		// assume nothing stays held.
		st.held = nil
	}
}

// chanOp applies an operation on a channel used as a mutex (see
// indexChanLocks): a send acquires it, a receive releases it. A select
// releases it where it has a case receiving from it (whichever case runs:
// the must-held set may only shrink by mistake), and acquires it on the
// edge into a case that sends on it (see edge); the acquisition is
// observed at the select, as a try when the select has a default.
func (e *engine) chanOp(st *state, instr ssa.Instruction, obs *observer) {
	switch instr := instr.(type) {
	case *ssa.Send:
		if r, ok := e.cls.chanLock(instr.Chan); ok {
			e.op(st, Op{Kind: OpAcquire, Mode: Write, Ref: r, Method: "send"}, instr, instr.Pos(), obs)
		}
	case *ssa.UnOp:
		if instr.Op != token.ARROW {
			return
		}
		if r, ok := e.cls.chanLock(instr.X); ok {
			e.op(st, Op{Kind: OpRelease, Mode: Write, Ref: r, Method: "receive"}, instr, instr.Pos(), obs)
		}
	case *ssa.Select:
		for _, s := range instr.States {
			r, ok := e.cls.chanLock(s.Chan)
			if !ok {
				continue
			}
			if s.Dir != types.SendOnly {
				e.op(st, Op{Kind: OpRelease, Mode: Write, Ref: r, Method: "receive"}, instr, s.Pos, obs)
				continue
			}
			if obs != nil && obs.acquire != nil {
				obs.acquire(Acquisition{Instr: instr, Pos: s.Pos, Lock: e.lockOf(r, Write, s.Pos), Held: st.held, Try: !instr.Blocking})
			}
		}
	}
}

// call applies the effect of a call on st: a lock operation, or the
// summaries of its callees.
// noLockEffect reports whether fn's summary acquires, releases and holds
// no lock: a lock of its own that the analysis does not see through (a
// spin lock over atomics).
func (e *engine) noLockEffect(fn *ssa.Function) bool {
	s := e.summary(fn)
	return len(s.Acquires) == 0 && len(s.Releases) == 0 && len(s.Holds) == 0
}

func (e *engine) call(st *state, common *ssa.CallCommon, instr ssa.Instruction, pos token.Pos, obs *observer) {
	if mc, body := loopBody(common); body != nil {
		// The iterator runs the loop's body (see runBody).
		if !pos.IsValid() {
			pos = body.Pos()
		}
		defer e.runBody(st, mc, body, pos, obs)
	}
	if op, ok := e.cls.Op(common); ok {
		e.op(st, op, instr, pos, obs)
		return
	}
	e.printed(st, common, instr, pos, obs)
	if p, ok := common.Value.(*ssa.Parameter); ok && !common.IsInvoke() {
		// A call of a function parameter: the caller knows which
		// function it is (see Summary.ParamCalls).
		if obs != nil && obs.paramCall != nil {
			obs.paramCall(paramIndex(p), st.held)
		}
		return
	}
	if op, ok := e.cls.LockerOp(common); ok && e.noLockEffect(common.StaticCallee()) {
		e.op(st, op, instr, pos, obs)
		return
	}
	ci, _ := instr.(ssa.CallInstruction)
	callees := e.callees(ci, common)
	// A Locker's Lock through an interface that resolves to one method
	// is that lock's acquisition, not a call into code the package
	// composes (see Item.Dynamic).
	dynamic := common.StaticCallee() == nil && (len(callees) != 1 || !lockerCall(common))
	callback := dynamic && !common.IsInvoke()

	as := args(common)
	if self := e.cls.selfReceiver(common); self != nil {
		// The field only ever holds its owner: its method is the
		// callee, on that owner.
		as = append([]ssa.Value{self}, as[1:]...)
		var own []*ssa.Function
		for _, fn := range callees {
			if r := fn.Signature.Recv(); r != nil && types.Identical(r.Type(), self.Type()) {
				own = append(own, fn)
			}
		}
		callees = own
	}
	var holds Set
	opaque := false
	for i, fn := range callees {
		opaque = opaque || e.opaqueUnlock(fn)
		s := e.summaryWith(fn, e.constFlags(fn, common))
		binds := bindings(common)
		if dynamic && binds == nil {
			binds = e.cls.fieldClosureBindings(common, fn)
		}
		if obs != nil && obs.acquire != nil {
			under := e.without(st.held, paramItems(s.Releases), as, binds, fn, pos)
			for _, it := range s.Acquires {
				l := Lock{Item: e.mapItem(it, as, binds, fn, pos)}
				l.Dynamic = l.Dynamic || dynamic
				l.Callback = l.Callback || callback
				obs.acquire(Acquisition{Instr: instr, Pos: pos, Lock: l, Held: e.without(under, it.Unheld, as, binds, fn, pos)})
			}
		}
		if obs != nil {
			e.callbacks(st.held, s, common, fn, dynamic, instr, pos, obs)
		}
		for _, it := range s.Releases {
			m := e.mapLock(it, as, binds)
			was, _ := st.held.find(m.Class, m.Mode, m.Inst)
			var ok bool
			st.held, ok = st.held.remove(m.Class, m.Mode, m.Inst)
			if obs != nil && obs.release != nil {
				m = e.mapItem(it, as, binds, fn, pos)
				obs.release(Release{Instr: instr, Pos: pos, Item: m, Matched: ok, Lock: was})
			}
		}
		var h Set
		for _, it := range s.Holds {
			m := e.mapItem(it, as, binds, fn, pos)
			m.Dynamic = m.Dynamic || dynamic
			m.Callback = m.Callback || callback
			h = h.add(Lock{Item: m})
		}
		if i == 0 {
			holds = h
		} else {
			holds = holds.intersect(h)
		}
	}
	for _, l := range holds {
		st.held = st.held.add(l)
	}
	if opaque {
		// A callee releases a lock it cannot name (unlock :=
		// unlockOnce(&mu) ... unlock(), once.Do(l.Unlock)): assume
		// nothing stays held, as after defer unlock().
		st.held = nil
	}
}

// passedLocker reports whether the sync.Locker v is a parameter or a
// captured variable of the function: whichever lock its callers pass.
func passedLocker(v ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.UnOp:
			if x.Op != token.MUL {
				return false
			}
			v = x.X
		case *ssa.TypeAssert:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.Parameter, *ssa.FreeVar:
			return true
		default:
			return false
		}
	}
}

// opaqueUnlock reports whether fn releases a lock the analysis cannot
// name: it calls Unlock or RUnlock of a sync.Locker whose value is not
// known or is its parameter or free variable (a release function that
// unlockOnce(&mu) returns), or makes such a method value, which it passes
// on (once.Do(l.Unlock)).
func (e *engine) opaqueUnlock(fn *ssa.Function) bool {
	if v, ok := e.opaque[fn]; ok {
		return v
	}
	found := false
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case ssa.CallInstruction:
				common := instr.Common()
				if common.IsInvoke() && lockerCall(common) && (common.Method.Name() == "Unlock" || common.Method.Name() == "RUnlock") {
					if _, ok := e.cls.Op(common); !ok || passedLocker(common.Value) {
						found = true
					}
				}
			case *ssa.MakeClosure:
				w, ok := instr.Fn.(*ssa.Function)
				if !ok || w.Parent() != nil || len(instr.Bindings) != 1 || !isInterface(instr.Bindings[0].Type()) {
					continue
				}
				if name := w.Name(); name == "Unlock$bound" || name == "RUnlock$bound" {
					if _, ok := e.cls.Ref(instr.Bindings[0]); !ok || passedLocker(instr.Bindings[0]) {
						found = true
					}
				}
			}
		}
	}
	e.opaque[fn] = found
	return found
}

func (e *engine) op(st *state, op Op, instr ssa.Instruction, pos token.Pos, obs *observer) {
	l := e.lockOf(op.Ref, op.Mode, pos)
	switch op.Kind {
	case OpAcquire:
		if obs != nil && obs.acquire != nil {
			obs.acquire(Acquisition{Instr: instr, Pos: pos, Lock: l, Held: st.held, Unshared: unshared(op.Ref.Value, instr)})
		}
		st.held = st.held.add(l)
	case OpTryAcquire:
		if obs != nil && obs.acquire != nil {
			obs.acquire(Acquisition{Instr: instr, Pos: pos, Lock: l, Held: st.held, Try: true})
		}
	case OpRelease:
		was, _ := st.held.find(l.Class, l.Mode, l.Inst)
		var ok bool
		st.held, ok = st.held.remove(l.Class, l.Mode, l.Inst)
		if obs != nil && obs.release != nil {
			obs.release(Release{Instr: instr, Pos: pos, Item: l.Item, Matched: ok, Lock: was})
		}
	case OpWait:
		if l.Inst == "" {
			// c.Wait() on a Cond whose L is not followed to its
			// instance: it releases and takes back the one lock of
			// its class held, which a deferred Unlock then releases.
			if h, ok := st.held.only(l.Class, l.Mode); ok {
				l.Inst, l.Param, l.Suffix, l.Value = h.Inst, h.Param, h.Suffix, h.Value
			}
		}
		var released bool
		st.held, released = st.held.remove(l.Class, l.Mode, l.Inst)
		if !released {
			// Wait takes back only what it released: an L not found
			// among the locks held (a Cond made on a mutex the function
			// names another way, sync.NewCond(mu) against p.mu) is not
			// taken, which would leave it held past every Unlock and
			// order it after the lock it is.
			break
		}
		if obs != nil && obs.acquire != nil {
			obs.acquire(Acquisition{Instr: instr, Pos: pos, Lock: l, Held: st.held, Wait: true})
		}
		st.held = st.held.add(l)
	}
}

// unshared reports whether mu, the mutex instr locks, is a variable
// declared just before instr, in its block, that nothing reaches before
// instr: every other use of it comes after instr.
func unshared(mu ssa.Value, instr ssa.Instruction) bool {
	alloc, ok := mu.(*ssa.Alloc)
	if !ok || alloc.Block() != instr.Block() || !After(alloc, instr) {
		return false
	}
	for _, r := range *alloc.Referrers() {
		if r == instr {
			continue
		}
		if _, ok := r.(*ssa.DebugRef); ok {
			continue
		}
		if !After(instr, r) {
			return false
		}
	}
	return true
}

func (e *engine) lockOf(r Ref, mode Mode, pos token.Pos) Lock {
	l := Lock{
		Item: Item{
			Class:  r.Class,
			Mode:   mode,
			Inst:   r.Inst,
			Param:  r.Param,
			Suffix: r.Suffix,
			Kind:   r.Kind,
			Pos:    pos,
		},
		Value: r.Value,
	}
	if pos.IsValid() {
		l.Position = e.fset.Position(pos).String()
	}
	return l
}

// callees returns the functions a call may invoke: its static callee, the
// callees VTA found for it, or for an interface method call VTA could not
// resolve (the value comes from outside the package's functions) the
// method of the package's own type that implements the interface, when
// there is exactly one.
func (e *engine) callees(call ssa.CallInstruction, common *ssa.CallCommon) []*ssa.Function {
	if fn := common.StaticCallee(); fn != nil {
		return []*ssa.Function{fn}
	}
	if call != nil && e.graph != nil {
		if fns, ok := e.dynamic[call]; ok {
			return fns
		}
	}
	if !common.IsInvoke() {
		return nil
	}
	iface, ok := common.Value.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	key := implKey{iface, common.Method.Name()}
	if fns, ok := e.impls[key]; ok {
		return fns
	}
	var fns []*ssa.Function
	prog := e.pkg.Prog
	for _, n := range e.types {
		if types.IsInterface(n) {
			continue
		}
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			if !types.Implements(t, iface) {
				continue
			}
			sel := prog.MethodSets.MethodSet(t).Lookup(common.Method.Pkg(), common.Method.Name())
			if sel == nil {
				continue
			}
			if fn := prog.MethodValue(sel); fn != nil {
				fns = append(fns, fn)
			}
			break
		}
	}
	if len(fns) != 1 {
		// Several implementations: a merge of all of them would
		// invent orders (decorators wrapping each other); only a
		// single implementation is taken as the callee.
		fns = nil
	}
	e.impls[key] = fns
	return fns
}

// summarize builds the summary of fn from its flow (computed with an
// empty entry lockset).
func (e *engine) summarize(f *flow) *Summary {
	s := &Summary{}
	seenAcq := map[string]bool{}
	seenRel := map[string]bool{}
	var holds, condHolds Set
	returns, successes := 0, 0
	var acqs []acquired // for the Unheld of the acquired items
	obs := &observer{
		bodies: true,
		acquire: func(a Acquisition) {
			if a.Try || a.Wait || a.Unshared {
				return
			}
			it := portable(a.Lock.Item)
			k := it.Key()
			acqs = append(acqs, acquired{pos: a.Pos, key: k, unheld: a.Lock.Unheld})
			if seenAcq[k] || len(s.Acquires) >= maxItems {
				return
			}
			seenAcq[k] = true
			s.Acquires = append(s.Acquires, it)
		},
		release: func(r Release) {
			it := portable(r.Item)
			if r.Matched && it.Kind == KindChan && !r.Lock.Inherited {
				if e.chanPaired == nil {
					e.chanPaired = map[string]bool{}
				}
				e.chanPaired[it.Class] = true
			}
			if r.Matched || seenRel[it.Key()] || len(s.Releases) >= maxItems {
				return
			}
			seenRel[it.Key()] = true
			s.Releases = append(s.Releases, it)
		},
		paramCall: func(param int, held Set) {
			if len(s.ParamCalls) >= maxItems {
				return
			}
			pc := ParamCall{Param: param}
			for _, l := range held {
				pc.Held = append(pc.Held, portable(l.Item))
			}
			s.ParamCalls = append(s.ParamCalls, pc)
		},
		ret: func(r Return) {
			if r.Instr.Block() == f.fn.Recover {
				return // after a recovered panic: not a lock helper's return
			}
			if returns == 0 {
				holds = r.Held
			} else {
				holds = holds.intersect(r.Held)
			}
			returns++
			if held, ok := e.successHeld(f.fn, r); ok {
				if successes == 0 {
					condHolds = held
				} else {
					condHolds = condHolds.intersect(held)
				}
				successes++
			}
		},
	}
	f.replay(e, obs)
	for _, l := range holds {
		if !l.Inherited {
			s.Holds = append(s.Holds, portable(l.Item))
		}
	}
	errResult := false
	if res := f.fn.Signature.Results(); res.Len() > 0 {
		errResult = isErrorType(res.At(res.Len() - 1).Type())
	}
	for _, l := range condHolds {
		if l.Inherited || l.Kind == KindMutex || hasItem(s.Holds, portable(l.Item)) {
			continue
		}
		if l.Kind == KindFlag && errResult {
			// A flag a function keeps where it returns a nil error
			// is a state it moved to (sarama's Broker.Open keeping
			// opened until Close), not a critical section its
			// callers run in: only a try-lock's bool passes it on.
			continue
		}
		s.CondHolds = append(s.CondHolds, portable(l.Item))
	}
	removed := neutral(s)
	for i, it := range s.Holds {
		if hasItem(s.Neutral, it) {
			s.Holds[i].Relocked = true
		}
	}
	e.unheld(f.fn, s, acqs, removed)
	return s
}

// successHeld returns, for a return r of fn whose last result is an
// error or a bool, the locks held where it returns success: a constant
// nil error or true; the result of a call holding locks where it
// succeeds (a try-lock's, Summary.CondHolds), with those locks. It
// reports false for the other returns.
func (e *engine) successHeld(fn *ssa.Function, r Return) (Set, bool) {
	res := fn.Signature.Results()
	n := res.Len()
	if n == 0 || len(r.Instr.Results) != n {
		return nil, false
	}
	t := res.At(n - 1).Type()
	nilTest := isErrorType(t)
	if !nilTest && !isBool(t) {
		return nil, false
	}
	v := r.Instr.Results[n-1]
	if k, ok := v.(*ssa.Const); ok {
		if nilTest && k.IsNil() || !nilTest && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value) {
			return r.Held, true
		}
		return nil, false
	}
	if x, ok := v.(*ssa.Extract); ok {
		if t, isCall := x.Tuple.(*ssa.Call); isCall && x.Index == t.Call.Signature().Results().Len()-1 {
			v = t
		}
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, false
	}
	held := r.Held
	if !nilTest && !isTuple(call.Type()) {
		if op, ok := e.cls.Op(&call.Call); ok && op.Kind == OpTryAcquire {
			return held.add(e.lockOf(op.Ref, op.Mode, call.Pos())), true
		}
	}
	cond := e.condHolds(call, nilTest)
	if len(cond) == 0 {
		return nil, false
	}
	for _, l := range cond {
		held = held.add(l)
	}
	return held, true
}

// unheld sets the Unheld of the items s acquires: the locks of its
// callers that every acquisition of the item, acqs, is made without,
// because a callee released them before it (their Unheld), or because
// fn releases them itself before it (its Releases, and its Neutral
// locks it takes back later, not held there when fn starts with them
// held). An acquisition made before fn releases its caller's lock is
// ordered after it (lock the registry, then unlock the caller's lock).
func (e *engine) unheld(fn *ssa.Function, s *Summary, acqs []acquired, removed map[string]*neutralItem) {
	var entry Set
	for _, it := range append(append([]Item(nil), s.Neutral...), s.Releases...) {
		if it.Param == 0 {
			entry = entry.add(Lock{Item: it, Inherited: true, Assumed: true})
		}
	}
	type event struct {
		pos token.Pos
		key string
	}
	own := map[event][]Item{}
	acquiredHeld := map[string]bool{} // neutral locks acquired while still held
	unheldAtReturn := map[string]bool{}
	if len(entry) > 0 {
		obs := &observer{acquire: func(a Acquisition) {
			if a.Try || a.Wait {
				return
			}
			var out []Item
			for _, l := range entry {
				if !holdsLike(a.Held, l.Item) {
					out = append(out, l.Item)
				}
			}
			it := portable(a.Lock.Item)
			if holdsLike(a.Held, it) {
				acquiredHeld[it.Key()] = true
			}
			ev := event{a.Pos, it.Key()}
			if prev, ok := own[ev]; ok {
				out = commonItems(prev, out)
			}
			own[ev] = out
		}, ret: func(r Return) {
			if r.Instr.Block() == fn.Recover {
				return
			}
			for _, l := range entry {
				if !holdsLike(r.Held, l.Item) {
					unheldAtReturn[l.Key()] = true
				}
			}
		}}
		e.solve(fn, entry).replay(e, obs)
	}
	// A neutral lock fn releases first (itself, not through a callee,
	// whose release may be a conditional helper's merged with the
	// callee's unlock), takes again only after that and does not hold
	// on every return is released, not left as found: it unlocks its
	// caller's lock, then locks and unlocks it in a callee (cache2go's
	// addInternal running the expiration check). One it takes back on
	// every path, only after releasing it, and holds on return, is its
	// caller's lock relocked: its acquisition stays in Acquires (with
	// itself Unheld), so the caller's other locks are ordered before it
	// (moby4951: DeleteDevice holds devices and info.lock while
	// removeDeviceAndWait unlocks devices, waits and locks it again).
	var keep []Item
	for _, it := range s.Neutral {
		k := it.Key()
		if it.Param == 0 && !acquiredHeld[k] && removed[k] != nil && removed[k].acquire.Class != "" && removed[k].release.Class != "" && len(removed[k].release.Chain) == 0 {
			if unheldAtReturn[k] {
				s.Acquires = append(s.Acquires, removed[k].acquire)
				s.Releases = append(s.Releases, removed[k].release)
				continue
			}
			if !strings.HasSuffix(it.Class, "(Locker)") {
				// (a Locker not known to wrap a mutex of
				// the package may be the caller's mutex:
				// no order between the two)
				s.Acquires = append(s.Acquires, removed[k].acquire)
			}
		}
		keep = append(keep, it)
	}
	s.Neutral = keep
	byKey := map[string][]Item{}
	seen := map[string]bool{}
	for _, a := range acqs {
		k := a.key
		var un []Item
		for _, u := range a.unheld {
			un = append(un, portable(u))
		}
		for _, u := range own[event{a.pos, k}] {
			if !hasItem(un, u) {
				un = append(un, u)
			}
		}
		if seen[k] {
			un = commonItems(byKey[k], un)
		}
		seen[k] = true
		byKey[k] = un
	}
	for i := range s.Acquires {
		s.Acquires[i].Unheld = byKey[s.Acquires[i].Key()]
	}
}

// An acquired is what unheld needs of an acquisition summarize saw (a
// blocking one): where it is, the key of its portable item, and the
// locks its item lists as unheld.
type acquired struct {
	pos    token.Pos
	key    string
	unheld []Item
}

// holdsLike reports whether held holds a lock of it's class and mode,
// of its instance when that is known.
func holdsLike(held Set, it Item) bool {
	for _, l := range held {
		if l.Class == it.Class && l.Mode == it.Mode && (it.Inst == "" || l.Inst == it.Inst) {
			return true
		}
	}
	return false
}

// hasItem reports whether items holds an item with it's key.
func hasItem(items []Item, it Item) bool {
	return slices.ContainsFunc(items, func(x Item) bool { return x.Key() == it.Key() })
}

// commonItems returns the items of a whose keys are in b.
func commonItems(a, b []Item) []Item {
	var out []Item
	for _, x := range a {
		if hasItem(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// neutral removes from s the locks it both acquires and releases
// without holding them (a helper that locks only when asked, if lock {
// mu.Lock() } ... if lock { mu.Unlock() }, which merging paths cannot
// pair; one that unlocks around a callback and locks again): from the
// caller's side such a function leaves the lock as it found it, and
// taking its acquisition and its release for the caller's would invent a
// double lock, or drop a lock the caller still holds. It returns the
// items removed, by key (see unheld, which puts back those of a function
// that releases its caller's lock for good).
func neutral(s *Summary) map[string]*neutralItem {
	// An item of unknown instance pairs with any of its class and mode
	// (the release through a callee whose instance is lost, of the lock
	// a closure capturing the receiver takes).
	both := make(map[string]bool)
	for _, r := range s.Releases {
		for _, a := range s.Acquires {
			if a.Class == r.Class && a.Mode == r.Mode && (a.Inst == r.Inst || a.Inst == "" || r.Inst == "") {
				both[a.Key()], both[r.Key()] = true, true
			}
		}
	}
	if len(both) == 0 {
		return nil
	}
	removed := map[string]*neutralItem{}
	keep := func(items []Item, acquire bool) []Item {
		var out []Item
		for _, it := range items {
			if !both[it.Key()] {
				out = append(out, it)
				continue
			}
			if !hasItem(s.Neutral, it) {
				s.Neutral = append(s.Neutral, it)
			}
			r := removed[it.Key()]
			if r == nil {
				r = &neutralItem{}
				removed[it.Key()] = r
			}
			if acquire {
				r.acquire = it
			} else {
				r.release = it
			}
		}
		return out
	}
	s.Acquires, s.Releases = keep(s.Acquires, true), keep(s.Releases, false)
	return removed
}

// A neutralItem is the acquisition and the release of a lock that
// neutral took out of a summary.
type neutralItem struct {
	acquire, release Item
}

// portable drops the parts of an instance path that mean nothing outside
// the function (values local to it).
func portable(it Item) Item {
	if strings.HasPrefix(it.Inst, "v:") {
		it.Inst = ""
	}
	return it
}

// replay runs every reachable block of f once from its solved entry
// state, reporting events to obs.
func (f *flow) replay(e *engine, obs *observer) {
	for i, b := range f.fn.Blocks {
		if f.in[i] == nil {
			continue
		}
		st := *f.in[i]
		e.runBlock(b, &st, obs, nil)
		if obs.join == nil {
			continue
		}
		for si, succ := range b.Succs {
			in := f.in[succ.Index]
			if in == nil {
				continue
			}
			out := e.edge(b, si, st)
			if out.dead {
				continue
			}
			if extra := out.held.minus(in.held); len(extra) > 0 {
				obs.join(Join{From: b, To: succ, Held: extra})
			}
		}
	}
}

// heldBefore returns the must-held set before instr, an instruction of
// f's function.
func (f *flow) heldBefore(e *engine, instr ssa.Instruction) Set {
	b := instr.Block()
	if b == nil || b.Index >= len(f.in) || f.in[b.Index] == nil {
		return nil
	}
	if f.blockHeld == nil {
		f.blockHeld = make([][]Set, len(f.in))
	}
	held := f.blockHeld[b.Index]
	if held == nil {
		held = make([]Set, len(b.Instrs))
		st := *f.in[b.Index]
		e.runBlock(b, &st, nil, func(i int, h Set) { held[i] = h })
		f.blockHeld[b.Index] = held
	}
	for i, x := range b.Instrs {
		if x == instr {
			return held[i]
		}
	}
	return nil
}

// isFuncValueCall reports whether common calls a function value (not a
// known function, closure literal, method or builtin).
func isFuncValueCall(common *ssa.CallCommon) bool {
	if common.IsInvoke() || common.StaticCallee() != nil {
		return false
	}
	_, builtin := common.Value.(*ssa.Builtin)
	return !builtin
}

// args returns the values bound to the callee's parameters (the receiver
// first for an interface method call).
func args(common *ssa.CallCommon) []ssa.Value {
	if common.IsInvoke() {
		return append([]ssa.Value{common.Value}, common.Args...)
	}
	return common.Args
}

func bindings(common *ssa.CallCommon) []ssa.Value {
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		return mc.Bindings
	}
	return nil
}

// callbacks reports the acquisitions of the functions passed to callee
// at the call common, for each call of its parameter the callee makes,
// under the locks held at the call plus those the callee holds when it
// calls the parameter. A parameter of the caller passed on becomes a call
// of the caller's parameter.
func (e *engine) callbacks(held Set, s *Summary, common *ssa.CallCommon, callee *ssa.Function, dynamic bool, instr ssa.Instruction, pos token.Pos, obs *observer) {
	as, binds := args(common), bindings(common)
	for _, pc := range s.ParamCalls {
		if pc.Param < 0 || pc.Param >= len(as) {
			continue
		}
		under := held
		for _, it := range pc.Held {
			under = under.add(Lock{Item: e.mapItem(it, as, binds, callee, pos)})
		}
		arg := as[pc.Param]
		for {
			ct, ok := arg.(*ssa.ChangeType) // a func literal of a named func type
			if !ok {
				break
			}
			arg = ct.X
		}
		if p, ok := arg.(*ssa.Parameter); ok {
			if obs.paramCall != nil {
				obs.paramCall(paramIndex(p), under)
			}
			continue
		}
		if obs.acquire == nil {
			continue
		}
		var fns []*ssa.Function
		var fbinds []ssa.Value
		stored := false
		switch a := arg.(type) {
		case *ssa.Function:
			fns = []*ssa.Function{a}
		case *ssa.MakeClosure:
			if fn, ok := a.Fn.(*ssa.Function); ok {
				fns = []*ssa.Function{fn}
			}
			fbinds = a.Bindings
		default:
			// A function value loaded from a field and passed on
			// (q.Pop(c.process)): the functions stored there.
			fns, stored = e.storedFuncs(arg, 0), true
		}
		for _, fn := range fns {
			fs := e.summary(fn)
			under := e.without(under, paramItems(fs.Releases), nil, fbinds, fn, pos)
			for _, it := range fs.Acquires {
				m := e.mapItem(it, nil, fbinds, fn, pos)
				m.Chain = append([]string{e.funcName(callee)}, m.Chain...)
				m.Dynamic = m.Dynamic || dynamic || stored
				m.Callback = true // a function passed to the callee and called there
				obs.acquire(Acquisition{Instr: instr, Pos: pos, Lock: Lock{Item: m}, Held: e.without(under, it.Unheld, nil, fbinds, fn, pos)})
			}
		}
	}
}

// paramItems returns the items of a summary named after a parameter of
// the function (Param > 0): their release cannot be placed relative to
// its acquisitions (see unheld), which are not ordered after them.
func paramItems(items []Item) []Item {
	var out []Item
	for _, it := range items {
		if it.Param > 0 {
			out = append(out, it)
		}
	}
	return out
}

// without returns held without the locks that callee releases (rel, from
// its summary, or an item's Unheld): its acquisitions are not ordered
// after locks it released first (an unlock-call-relock callback,
// Cond-style waits).
func (e *engine) without(held Set, rel []Item, as, binds []ssa.Value, callee *ssa.Function, pos token.Pos) Set {
	for _, it := range rel {
		m := e.mapLock(it, as, binds)
		held, _ = held.remove(m.Class, m.Mode, m.Inst)
	}
	return held
}

// funcName returns FuncName(fn), computed once per function: mapItem
// names the callee for every item it maps, and printing a receiver's type
// is costly.
func (e *engine) funcName(fn *ssa.Function) string {
	n, ok := e.names[fn]
	if !ok {
		n = FuncName(fn)
		if e.names == nil {
			e.names = map[*ssa.Function]string{}
		}
		e.names[fn] = n
	}
	return n
}

// mapItem translates an item of the summary of callee into the caller's
// terms at a call at pos passing as (with binds for a closure).
func (e *engine) mapItem(it Item, as, binds []ssa.Value, callee *ssa.Function, pos token.Pos) Item {
	out := e.mapLock(it, as, binds)
	out.Pos = pos
	out.Chain = append([]string{e.funcName(callee)}, it.Chain...)
	out.Unheld = nil
	for _, u := range it.Unheld {
		u.Unheld = nil
		out.Unheld = append(out.Unheld, e.mapItem(u, as, binds, callee, pos))
	}
	return out
}

// mapLock translates what names the lock of an item of a callee's
// summary (its class and instance) into the caller's terms, and nothing
// else: enough to find it among the locks held.
func (e *engine) mapLock(it Item, as, binds []ssa.Value) Item {
	out := it
	out.Inst = e.mapInst(it.Inst, as, binds)
	out.Param, out.Suffix = 0, ""
	if it.Param > 0 {
		if p := it.Param - 1; p < len(as) {
			if r, ok := e.cls.ref(as[p], 0); ok {
				out.Class = r.Class + it.Suffix
				out.Param, out.Suffix = r.Param, r.Suffix+it.Suffix
			}
		}
	}
	return out
}

// mapInst translates a callee's instance path into the caller's.
func (e *engine) mapInst(inst string, as, binds []ssa.Value) string {
	if inst == "" || strings.HasPrefix(inst, "g:") {
		return inst
	}
	var vals []ssa.Value
	switch inst[0] {
	case '$':
		vals = as
	case '^':
		vals = binds
	default:
		return ""
	}
	n := 1
	for n < len(inst) && inst[n] >= '0' && inst[n] <= '9' {
		n++
	}
	i, err := strconv.Atoi(inst[1:n])
	if err != nil || i >= len(vals) || vals[i] == nil {
		return ""
	}
	if a, ok := vals[i].(*ssa.Alloc); ok && strings.HasPrefix(inst[n:], "*") {
		if v := CellValue(a); v != nil {
			// A captured variable that only holds its initial
			// value: "^0*.mu" is that value's ".mu".
			vals = []ssa.Value{pointee{v}}
			i = 0
		}
	}
	if d, ok := vals[i].(pointee); ok {
		// A variable captured by reference whose content the caller
		// has: "^0*.mu" is the caller's value's ".mu".
		if !strings.HasPrefix(inst[n:], "*") {
			return ""
		}
		r, ok := e.cls.path(d.Value, 0)
		if !ok || r.Inst == "" {
			return ""
		}
		return r.Inst + inst[n+1:]
	}
	r, ok := e.cls.path(vals[i], 0)
	if !ok || r.Inst == "" {
		if m := e.throughConstructor(vals[i], inst[n:]); m != "" {
			return m
		}
		return e.throughBackPointer(vals[i], inst[n:])
	}
	return r.Inst + inst[n:]
}

// throughConstructor translates rest, an instance path below the result
// of a call to a constructor (".client*.mu"), into the caller's, when the
// constructor stores its argument into that field of the new object it
// returns and nothing else stores there: NewMembersAPI(c) keeps c in its
// client, so the result's ".client*" is c. It returns "" otherwise.
func (e *engine) throughConstructor(v ssa.Value, rest string) string {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeInterface:
			v = x.X
			continue
		}
		break
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return ""
	}
	field, after, ok := leadingField(rest)
	if !ok {
		return ""
	}
	callee := call.Call.StaticCallee()
	if callee == nil {
		return ""
	}
	idx, ok := e.constructorFields(callee)[field]
	if !ok || idx >= len(call.Call.Args) {
		return ""
	}
	r, ok := e.cls.path(call.Call.Args[idx], 0)
	if !ok || r.Inst == "" {
		return ""
	}
	return r.Inst + after
}

// throughBackPointer translates rest, an instance path below an element
// of a container field of some object (for _, r := range s.replicas),
// into the caller's, when it starts with the element's pointer back to
// an object of the container's owner's type (".store*.mu"): that is the
// owner (r.store is s). It returns "" otherwise.
func (e *engine) throughBackPointer(v ssa.Value, rest string) string {
	field, after, ok := leadingField(rest)
	if !ok {
		return ""
	}
	owner, container := containerOwner(v)
	if owner == nil {
		return ""
	}
	es, ok := deref(v.Type()).Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	for i := range es.NumFields() {
		f := es.Field(i)
		if f.Name() != field || !types.Identical(f.Type(), owner.Type()) {
			continue
		}
		if !e.backLinked(container, backLink{es, field}) {
			return ""
		}
		r, ok := e.cls.path(owner, 0)
		if !ok || r.Inst == "" {
			return ""
		}
		return r.Inst + after
	}
	return ""
}

// A backLink names an element type's field that may point back to the
// owner of a container of such elements.
type backLink struct {
	elem  *types.Struct
	field string
}

// backLinked reports whether some function of the package puts into
// container (a field of the owner) an element whose link points to that
// owner: r := &Replica{store: s}; s.replicas[k] = r, or s.subs[ch] =
// newSub(s, ch) with a constructor keeping s in the link. Without that,
// the link may point anywhere (a child of the same type as its parent,
// which has a router of its own, or none).
func (e *engine) backLinked(container fieldOf, link backLink) bool {
	if e.backLinks == nil {
		e.backLinks = map[fieldOf]map[backLink]bool{}
		for _, fn := range e.cls.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					owner, c, elem := containerPut(instr)
					if owner == nil {
						continue
					}
					es, ok := deref(elem.Type()).Underlying().(*types.Struct)
					if !ok {
						continue
					}
					for i := range es.NumFields() {
						f := es.Field(i)
						if types.Identical(f.Type(), owner.Type()) && e.linksTo(elem, f.Name(), owner) {
							if e.backLinks[c] == nil {
								e.backLinks[c] = map[backLink]bool{}
							}
							e.backLinks[c][backLink{es, f.Name()}] = true
						}
					}
				}
			}
		}
	}
	return e.backLinks[container][link]
}

// containerPut matches instr putting elem into the map or slice field c of
// owner: owner.c[k] = elem (a map update or an element store), or
// owner.c = append(owner.c, elem).
func containerPut(instr ssa.Instruction) (owner ssa.Value, c fieldOf, elem ssa.Value) {
	var target ssa.Value
	switch x := instr.(type) {
	case *ssa.MapUpdate:
		target, elem = x.Map, x.Value
	case *ssa.Store:
		if ia, ok := x.Addr.(*ssa.IndexAddr); ok {
			target, elem = ia.X, x.Val
			break
		}
		fa, ok := x.Addr.(*ssa.FieldAddr)
		if !ok {
			return nil, fieldOf{}, nil
		}
		if vs := Appended(x.Val); len(vs) == 1 {
			if c, ok := fieldAt(fa); ok {
				return fa.X, c, vs[0]
			}
		}
		return nil, fieldOf{}, nil
	}
	load, ok := target.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, fieldOf{}, nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, fieldOf{}, nil
	}
	c, ok = fieldAt(fa)
	if !ok {
		return nil, fieldOf{}, nil
	}
	return fa.X, c, elem
}

// Appended returns the values that v, the result of append(s, x, y...),
// adds to s: those go/ssa stores into the variadic array it builds. It
// returns nil when v is no such call.
func Appended(v ssa.Value) []ssa.Value {
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil
	}
	if bi, ok := call.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "append" || len(call.Call.Args) != 2 {
		return nil
	}
	sl, ok := call.Call.Args[1].(*ssa.Slice)
	if !ok {
		return nil
	}
	arr, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, r := range *arr.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		for _, rr := range *ia.Referrers() {
			if st, ok := rr.(*ssa.Store); ok && st.Addr == ia {
				out = append(out, st.Val)
			}
		}
	}
	return out
}

// fieldAt names the field that fa selects, of the struct its base
// points to.
func fieldAt(fa *ssa.FieldAddr) (fieldOf, bool) {
	st, ok := deref(fa.X.Type()).Underlying().(*types.Struct)
	if !ok {
		return fieldOf{}, false
	}
	return fieldOf{st, st.Field(fa.Field).Name()}, true
}

// linksTo reports whether elem's field is set to owner where elem is
// made: a store elem.field = owner (a composite literal's too), or a
// constructor keeping that argument there (see constructorFields).
func (e *engine) linksTo(elem ssa.Value, field string, owner ssa.Value) bool {
	if call, ok := elem.(*ssa.Call); ok {
		if callee := call.Call.StaticCallee(); callee != nil {
			if i, ok := e.constructorFields(callee)[field]; ok && i < len(call.Call.Args) {
				return unwrapIface(call.Call.Args[i]) == owner
			}
		}
		return false
	}
	refs := elem.Referrers()
	if refs == nil {
		return false
	}
	for _, r := range *refs {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.X != elem {
			continue
		}
		if f, ok := fieldAt(fa); !ok || f.name != field {
			continue
		}
		for _, rr := range *fa.Referrers() {
			if store, ok := rr.(*ssa.Store); ok && store.Addr == fa && unwrapIface(store.Val) == owner {
				return true
			}
		}
	}
	return false
}

// leadingField splits an instance path that starts with a pointer field
// loaded (".store*.mu") into the field's name and the rest (".mu").
func leadingField(rest string) (field, after string, ok bool) {
	if !strings.HasPrefix(rest, ".") {
		return "", "", false
	}
	end := strings.IndexAny(rest[1:], ".*[")
	if end < 0 || rest[1+end] != '*' {
		return "", "", false
	}
	return rest[1 : 1+end], rest[2+end:], true
}

// containerOwner returns the object whose field holds the map, slice or
// array that v is an element of (the range value, an index or a lookup
// of s.replicas: s), and that field; nil when v is no such element.
func containerOwner(v ssa.Value) (ssa.Value, fieldOf) {
	var c ssa.Value
	switch x := v.(type) {
	case *ssa.Extract:
		switch t := x.Tuple.(type) {
		case *ssa.Next:
			if r, ok := t.Iter.(*ssa.Range); ok && x.Index == 2 {
				c = r.X
			}
		case *ssa.Lookup:
			if x.Index == 0 {
				c = t.X
			}
		}
	case *ssa.Lookup:
		c = x.X
	case *ssa.UnOp:
		if ia, ok := x.X.(*ssa.IndexAddr); ok && x.Op == token.MUL {
			c = ia.X
		}
	}
	load, ok := c.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, fieldOf{}
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil, fieldOf{}
	}
	f, ok := fieldAt(fa)
	if !ok {
		return nil, fieldOf{}
	}
	return fa.X, f
}

// constructorFields returns, for a function that returns one new object
// of a struct type of the package, the fields it sets to one of its
// parameters (by index), when no other code of the package stores into
// them: the object keeps that argument for good.
func (e *engine) constructorFields(fn *ssa.Function) map[string]int {
	if m, ok := e.ctorFields[fn]; ok {
		return m
	}
	var m map[string]int
	defer func() { e.ctorFields[fn] = m }()
	var obj *ssa.Alloc
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok {
			continue
		}
		if len(ret.Results) == 0 {
			return nil
		}
		a, ok := unwrapIface(ret.Results[0]).(*ssa.Alloc)
		if !ok || !a.Heap || obj != nil && a != obj {
			return nil
		}
		obj = a
	}
	if obj == nil {
		return nil
	}
	st, ok := deref(obj.Type()).Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	for _, r := range *obj.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, rr := range *fa.Referrers() {
			store, ok := rr.(*ssa.Store)
			if !ok || store.Addr != fa {
				continue
			}
			if m == nil {
				m = map[string]int{}
			}
			name := st.Field(fa.Field).Name()
			p, isParam := unwrapIface(store.Val).(*ssa.Parameter)
			if _, seen := m[name]; seen || !isParam {
				m[name] = -1 // set twice, or not to an argument
				continue
			}
			m[name] = slices.Index(fn.Params, p)
		}
	}
	for name, i := range m {
		if i < 0 || e.storedElsewhere(st, name, fn) {
			delete(m, name)
		}
	}
	return m
}

// storedElsewhere reports whether a function of the package other than
// ctor stores into field name of struct type st.
func (e *engine) storedElsewhere(st *types.Struct, name string, ctor *ssa.Function) bool {
	if e.fieldStores == nil {
		e.fieldStores = map[fieldOf][]*ssa.Function{}
		for _, fn := range e.cls.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					store, ok := instr.(*ssa.Store)
					if !ok {
						continue
					}
					fa, ok := store.Addr.(*ssa.FieldAddr)
					if !ok {
						continue
					}
					if k, ok := fieldAt(fa); ok {
						if fns := e.fieldStores[k]; len(fns) == 0 || fns[len(fns)-1] != fn {
							e.fieldStores[k] = append(fns, fn)
						}
					}
				}
			}
		}
	}
	for _, fn := range e.fieldStores[fieldOf{st, name}] {
		if fn != ctor {
			return true
		}
	}
	return false
}

// A fieldOf names a field of a struct type.
type fieldOf struct {
	st   *types.Struct
	name string
}

// unwrapIface returns the value v converts to an interface, or v.
func unwrapIface(v ssa.Value) ssa.Value {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
		case *ssa.ChangeInterface:
			v = x.X
		case *ssa.ChangeType:
			v = x.X
		default:
			return v
		}
	}
}

// toCallee translates the locks held at a call into the callee's terms:
// the entry lockset contribution of that call site.
func (e *engine) toCallee(held Set, common *ssa.CallCommon) Set {
	var out Set
	as, binds := args(common), bindings(common)
	for _, l := range held {
		m := l
		m.Value = nil
		m.Inherited = true
		m.Param, m.Suffix = 0, ""
		m.Inst = rootIn(l.Inst, e, as, "$")
		if m.Inst == "" {
			m.Inst = rootIn(l.Inst, e, binds, "^")
		}
		if strings.HasPrefix(l.Inst, "g:") {
			m.Inst = l.Inst
		}
		m.key = ""
		out = out.add(m)
	}
	return out
}

// rootIn rewrites inst relative to the first of vals whose own path is a
// prefix of it, as prefix+index+rest; "" if none is.
func rootIn(inst string, e *engine, vals []ssa.Value, prefix string) string {
	if inst == "" {
		return ""
	}
	for i, v := range vals {
		star := ""
		if a, ok := v.(*ssa.Alloc); ok && prefix == "^" {
			if val := CellValue(a); val != nil {
				// A captured variable that only holds its
				// initial value: the closure names that value
				// "^i*" (see Classifier.path).
				v, star = val, "*"
			}
		}
		r, ok := e.cls.path(v, 0)
		if !ok || r.Inst == "" || !strings.HasPrefix(inst, r.Inst) {
			continue
		}
		rest := inst[len(r.Inst):]
		if rest == "" || rest[0] == '.' || rest[0] == '*' || rest[0] == '[' {
			return prefix + strconv.Itoa(i) + star + rest
		}
	}
	return ""
}

// handOff applies a go statement to st: the locks the started function
// releases without having acquired them (its summary's Releases), held
// here, are handed over to the new goroutine, which unlocks them (mu.Lock();
// go func() { ...; mu.Unlock() }()). The spawner no longer holds them.
func (e *engine) handOff(st *state, g *ssa.Go, obs *observer) {
	common := &g.Call
	as, binds := args(common), bindings(common)
	for _, fn := range e.callees(g, common) {
		for _, it := range e.summary(fn).Releases {
			m := e.mapLock(it, as, binds)
			was, _ := st.held.find(m.Class, m.Mode, m.Inst)
			var ok bool
			st.held, ok = st.held.remove(m.Class, m.Mode, m.Inst)
			if ok && obs != nil && obs.release != nil {
				m = e.mapItem(it, as, binds, fn, g.Pos())
				obs.release(Release{Instr: g, Pos: g.Pos(), Item: m, Matched: true, Lock: was})
			}
		}
	}
}

// lockerCall reports whether common calls, through an interface, a
// method with the name and signature of a mutex's lock or unlock.
func lockerCall(common *ssa.CallCommon) bool {
	if !common.IsInvoke() {
		return false
	}
	_, _, ok := lockerMethod(common.Method.Name(), common.Signature())
	return ok
}
