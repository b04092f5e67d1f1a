package race

import (
	"fmt"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
)

// maxContextRounds bounds the rounds of the entry-context fixpoint.
const maxContextRounds = 16

// An entrySite is a place where a function of the package starts
// running inside the caller's context: a direct call, or a call that
// receives a function literal as an argument (a callback).
type entrySite struct {
	caller *ssa.Function
	call   *ssa.Call
	held   heldSet // locks held there, including the callee's own locks around the callback
	// exclusive is set when the call's receiver (or first argument) is
	// memory the caller allocated and has not published yet: nothing else
	// can reach it, as if every lock were held (a constructor calling its
	// type's init method).
	exclusive bool
	// common is the call or defer of the function itself, whose
	// arguments are its parameters; nil for a callback.
	common *ssa.CallCommon
	// conds are the values of the caller's boolean parameters under
	// which the site runs (if alreadyLocked { c.run(t) }).
	conds []paramCond
	// goroutine marks a go statement whose goroutine the caller joins
	// (see joinedLiteral).
	goroutine bool
}

// maxCondDepth bounds how many callers up callerHeld follows the
// conditions of a site.
const maxCondDepth = 4

// contexts records how the functions of the package are entered.
type contexts struct {
	// held is the entry context of each function: the locks held at all
	// its entry sites, when the package sees all of them (an unexported
	// function never used as a value, or a function literal only ever
	// called or passed to calls). It extends the lockset analysis'
	// entry locksets through recursion and callbacks.
	held map[*ssa.Function]heldSet
	// callers maps a function literal that only runs synchronously
	// (called, passed to calls, or deferred) to the functions it runs in.
	callers map[*ssa.Function][]*ssa.Function
	// exclusive marks the functions the package only ever calls on
	// memory their caller has not published yet (see entrySite).
	exclusive map[*ssa.Function]bool
	// unknown marks the functions that are not entry points of the
	// package and that it never calls itself nor starts as goroutines,
	// but hands over as values (a callback another package stores and
	// calls, a method of a type passed as an interface value): how they
	// run, under which locks, is not known.
	unknown map[*ssa.Function]bool
	// sites lists the entry sites of the functions whose every entry
	// the package sees (see exclusiveWhen).
	sites map[*ssa.Function][]entrySite
	// invoked lists, by method name, the interfaces the package calls
	// methods through (see exportedEntry).
	invoked map[string][]*types.Interface
}

// computeContexts finds the entry sites of the package's functions and
// solves for their entry contexts as a greatest fixpoint: a function's
// context is the intersection, over its entry sites, of the locks held
// there plus the caller's own context.
func (c *checker) computeContexts() {
	c.ctx = contexts{held: map[*ssa.Function]heldSet{}, callers: map[*ssa.Function][]*ssa.Function{},
		exclusive: map[*ssa.Function]bool{}, unknown: map[*ssa.Function]bool{}, sites: map[*ssa.Function][]entrySite{}}
	local := map[*ssa.Function]bool{}
	for _, fn := range c.funcs {
		local[fn] = true
	}
	sites := map[*ssa.Function][]entrySite{}
	open := map[*ssa.Function]bool{} // entered from somewhere the package cannot see
	spawned := map[*ssa.Function]bool{}
	invoked := map[string][]*types.Interface{}
	cb := newCallbackFields(c.funcs)
	c.ctx.invoked = invoked
	invokes := map[*ssa.Function][]entrySite{} // calls through interfaces
	var ops []*ssa.Value
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				ops = c.scanEntries(fn, instr, local, sites, open, invoked, cb, ops)
				if call, ok := instr.(*ssa.Call); ok && call.Call.IsInvoke() {
					for _, impl := range c.implementations(call.Call.Value.Type(), call.Call.Method) {
						invokes[impl] = append(invokes[impl], entrySite{caller: fn, call: call, exclusive: c.freshReceiver(fn, call) || c.ownedReceiver(call)})
					}
				}
				if g, ok := instr.(*ssa.Go); ok {
					if callee := funcValue(g.Call.Value); callee != nil {
						spawned[callee] = true
					}
				}
			}
		}
	}
	for _, key := range slices.Sorted(maps.Keys(cb.stored)) {
		for _, fn := range cb.stored[key] {
			c.ctx.callers[fn] = append(c.ctx.callers[fn], nil) // runs later, elsewhere
			if cb.open[key] {
				open[fn] = true
				continue
			}
			for _, call := range cb.calls[key] {
				sites[fn] = append(sites[fn], entrySite{caller: call.Parent(), call: call, held: c.heldBefore(call), conds: c.paramConds(call)})
			}
		}
	}
	for _, fn := range c.funcs {
		fromTests := len(sites[fn]) > 0
		for _, s := range sites[fn] {
			fromTests = fromTests && c.inTestFile(s.caller) && !c.inTestFile(fn)
		}
		if !spawned[fn] && (len(sites[fn]) == 0 || fromTests) && !c.exportedEntry(fn, invoked) {
			// Never called by the package's code (at most by its
			// tests), nor started: handed over as a value, or its type
			// as an interface value (heap.Interface methods
			// container/heap calls under its caller's lock).
			c.ctx.unknown[fn] = true
		}
	}
	// What only such functions call is entered in no known context either.
	for changed := true; changed; {
		changed = false
		for _, fn := range c.funcs {
			if c.ctx.unknown[fn] || spawned[fn] || len(sites[fn]) == 0 || c.exportedEntry(fn, invoked) {
				continue
			}
			all := true
			for _, s := range sites[fn] {
				all = all && c.ctx.unknown[s.caller]
			}
			if all {
				c.ctx.unknown[fn] = true
				changed = true
			}
		}
	}
	top := map[*ssa.Function]bool{}
	var eligible []*ssa.Function
	for _, fn := range c.funcs {
		if open[fn] || len(sites[fn]) == 0 || c.exportedEntry(fn, invoked) {
			continue
		}
		exclusive := true
		for _, s := range sites[fn] {
			exclusive = exclusive && s.exclusive
		}
		c.ctx.exclusive[fn] = exclusive
		c.ctx.sites[fn] = sites[fn]
		eligible = append(eligible, fn)
		top[fn] = true
	}
	for _, fn := range c.funcs {
		if c.exportedEntry(fn, invoked) && !open[fn] && !spawned[fn] && c.setupOnly(fn, append(sites[fn], invokes[fn]...)) {
			c.ctx.exclusive[fn] = true
		}
	}
	cs := contextSolver{c: c, sites: sites, top: top}
	for round, changed := 0, true; changed && round < maxContextRounds; round++ {
		changed = false
		for _, fn := range eligible {
			var acc heldSet
			seen := false
			fromCode := cs.fromCode(fn)
			for _, s := range sites[fn] {
				if cs.skip(s, fromCode) {
					continue
				}
				h := s.held.union(cs.callerHeld(s, 0))
				if seen {
					acc = intersect(acc, h)
				} else {
					acc, seen = h, true
				}
			}
			if !seen || !top[fn] && equalHeld(acc, c.ctx.held[fn]) {
				continue
			}
			top[fn] = false
			c.ctx.held[fn] = acc
			changed = true
		}
	}
	for _, fn := range eligible {
		if !top[fn] {
			continue
		}
		if held, ok := cs.heldAtSites(fn); ok {
			// Its callers' own contexts are never known (they are
			// callbacks, or run only under such functions): what they
			// hold around the call still is.
			c.ctx.held[fn] = held
		} else if !slices.ContainsFunc(sites[fn], func(s entrySite) bool { return s.goroutine }) {
			// Reached only from functions that run on memory not yet
			// published (Open calling l.connect(), which calls
			// l.dial()): so does it. A goroutine is not known to.
			c.ctx.exclusive[fn] = true
		}
	}
}

// exclusiveWhen reports whether a, an access its function makes only
// where boolean parameters have the values a.conds wants, runs only on
// memory not yet published: every entry site that can pass those values
// calls the function on memory its caller has not published (a
// constructor tagging the span it builds with setTag(k, v, false), where
// setTag locks only when asked).
func (c *checker) exclusiveWhen(a *access) bool {
	return len(a.conds) > 0 && c.exclusiveUnder(a.fn, a.conds, 0)
}

// exclusiveUnder reports whether fn, where its boolean parameters have
// the values conds wants, runs only on memory not yet published, as
// exclusiveWhen; a site passing a parameter of its caller on is followed
// up to maxCondDepth callers.
func (c *checker) exclusiveUnder(fn *ssa.Function, conds []paramCond, depth int) bool {
	sites, ok := c.ctx.sites[fn]
	if !ok || depth >= maxCondDepth {
		return false
	}
	for _, s := range sites {
		if s.common == nil {
			return false
		}
		up, can := bindConds(conds, s.caller, s.common)
		if !can {
			continue // passes a value the access rules out
		}
		if !s.exclusive && !c.ctx.exclusive[s.caller] && (len(up) == 0 || !c.exclusiveUnder(s.caller, up, depth+1)) {
			return false
		}
	}
	return true
}

// heldAtSites returns the locks held at every entry site of fn whose
// caller is not itself left at top or on unpublished memory, with what
// such callers hold on entry (nothing, for a callback's); false when
// there is no such site.
func (cs *contextSolver) heldAtSites(fn *ssa.Function) (heldSet, bool) {
	var acc heldSet
	seen := false
	fromCode := cs.fromCode(fn)
	for _, s := range cs.sites[fn] {
		if s.exclusive || fromCode && cs.c.inTestFile(s.caller) || cs.top[s.caller] || cs.c.ctx.exclusive[s.caller] {
			continue
		}
		h := s.held.union(cs.c.ctx.held[s.caller])
		if seen {
			acc = intersect(acc, h)
		} else {
			acc, seen = h, true
		}
	}
	return acc, seen
}

// setupOnly reports whether fn is a setup method: it takes no lock, and
// the package's code (not its tests) calls it, only on values it is still
// building (a constructor configuring the counter it was given,
// l.counter.Config(n) before l is returned). The analyzer takes an
// exported setup method to be called the same way by other packages.
func (c *checker) setupOnly(fn *ssa.Function, sites []entrySite) bool {
	if sum := c.locks.Summary(fn); len(sum.Acquires)+len(sum.Neutral)+len(sum.Releases) > 0 {
		return false
	}
	n := 0
	for _, s := range sites {
		if c.inTestFile(s.caller) {
			continue
		}
		if !s.exclusive || s.call != nil && c.cellReceiver(s.call) {
			return false
		}
		n++
	}
	return n > 0
}

// cellReceiver reports whether the receiver of call (or its first
// argument) is loaded from the cell Go keeps a parameter of the caller in
// when a function literal captures it: the caller's caller's value, which
// freshArg takes for memory the caller made.
func (c *checker) cellReceiver(call *ssa.Call) bool {
	recv := receiverOf(&call.Call)
	if recv == nil {
		return false
	}
	root, _, ok := c.trace(recv, 0)
	return ok && spilledParam(root) != nil
}

// A contextSolver holds the entry sites of the package's functions while
// computeContexts solves for their contexts.
type contextSolver struct {
	c     *checker
	sites map[*ssa.Function][]entrySite
	top   map[*ssa.Function]bool // no context computed yet
}

// fromCode reports whether fn has an entry site outside the package's
// tests. A test that calls a helper directly, in its own goroutine, says
// nothing of the locks the code holds around it: the entry context then
// comes from the other callers.
func (cs *contextSolver) fromCode(fn *ssa.Function) bool {
	for _, s := range cs.sites[fn] {
		if !cs.c.inTestFile(s.caller) {
			return true
		}
	}
	return false
}

// skip reports whether site s says nothing of the locks held where its
// function runs: its caller's own context is not known (yet), it is a
// test's call of a function the code also calls, or it calls on memory
// not yet published.
func (cs *contextSolver) skip(s entrySite, fromCode bool) bool {
	return cs.top[s.caller] || s.exclusive || fromCode && cs.c.inTestFile(s.caller) || cs.c.ctx.unknown[s.caller]
}

// callerHeld returns the locks that the caller of site s holds on entry
// where s runs: its entry context or, when s runs only under conditions
// on the caller's boolean parameters (if alreadyLocked { c.run(t) }),
// what the caller's own entry sites that can meet them hold, followed up
// the callers that pass the condition on.
func (cs *contextSolver) callerHeld(s entrySite, depth int) heldSet {
	ctx := cs.c.ctx.held[s.caller]
	if len(s.conds) == 0 || depth >= maxCondDepth {
		return ctx
	}
	var acc heldSet
	seen := false
	fromCode := cs.fromCode(s.caller)
	for _, t := range cs.sites[s.caller] {
		if cs.skip(t, fromCode) {
			continue
		}
		if t.common == nil {
			return ctx
		}
		conds, ok := bindConds(s.conds, t.caller, t.common)
		if !ok {
			continue // never passes what the branch needs
		}
		t.conds = append(conds, t.conds...)
		h := t.held.union(cs.callerHeld(t, depth+1))
		if seen {
			acc = intersect(acc, h)
		} else {
			acc, seen = h, true
		}
	}
	if !seen {
		return ctx
	}
	return acc
}

// scanEntries records what instr in fn tells about how functions are
// entered.
func (c *checker) scanEntries(fn *ssa.Function, instr ssa.Instruction, local map[*ssa.Function]bool,
	sites map[*ssa.Function][]entrySite, open map[*ssa.Function]bool, invoked map[string][]*types.Interface, cb *callbackFields, ops []*ssa.Value) []*ssa.Value {
	if ci, ok := instr.(ssa.CallInstruction); ok && ci.Common().IsInvoke() {
		if it, ok := ci.Common().Value.Type().Underlying().(*types.Interface); ok {
			name := ci.Common().Method.Name()
			invoked[name] = append(invoked[name], it)
		}
	}
	ops = instr.Operands(ops[:0])
	for i, op := range ops {
		callee := funcValue(*op)
		if _, ok := instr.(*ssa.MakeClosure); ok && i == 0 {
			continue // the closure's own function: its uses are the closure's
		}
		if key, ok := cb.storedField(instr, *op); ok {
			// Stored into a field of function type: it runs where the
			// field is called.
			if m := c.boundMethod(callee); m != nil && local[m] {
				cb.add(key, m)
				continue
			}
			if callee != nil && local[callee] {
				cb.add(key, callee)
				continue
			}
		}
		if m := c.boundMethod(callee); m != nil && local[m] {
			// A method value x.M: passed to a call, it runs during the
			// call like a function literal would; anywhere else, where
			// the value goes.
			if call, ok := instr.(*ssa.Call); ok && call.Call.Value != *op {
				h := c.heldBefore(call).union(c.paramCallHeld(call, *op))
				sites[m] = append(sites[m], entrySite{caller: fn, call: call, held: h})
			} else {
				open[m] = true
			}
			continue
		}
		if callee == nil || !local[callee] {
			continue
		}
		switch instr := instr.(type) {
		case *ssa.Call:
			if instr.Call.Value == *op {
				sites[callee] = append(sites[callee], entrySite{caller: fn, call: instr, held: c.heldBefore(instr),
					exclusive: c.freshReceiver(fn, instr) || c.ownedReceiver(instr), common: &instr.Call, conds: c.paramConds(instr)})
			} else if callee.Parent() != nil {
				h := c.heldBefore(instr).union(c.paramCallHeld(instr, *op))
				sites[callee] = append(sites[callee], entrySite{caller: fn, call: instr, held: h})
			} else {
				open[callee] = true
			}
			if callee.Parent() != nil {
				c.ctx.callers[callee] = append(c.ctx.callers[callee], fn)
			}
		case *ssa.Defer:
			if instr.Call.Value == *op {
				// It runs when fn returns: under the locks held at
				// every return of fn.
				sites[callee] = append(sites[callee], entrySite{caller: fn, held: c.heldAtReturns(instr),
					common: &instr.Call, conds: c.paramConds(instr)})
			} else {
				open[callee] = true
			}
			if callee.Parent() != nil {
				c.ctx.callers[callee] = append(c.ctx.callers[callee], fn)
			}
		case *ssa.Go:
			if instr.Call.Value == *op && c.joinedLiteral(instr, callee) {
				// It runs within fn's call (see joinedLiteral): under
				// the locks fn's callers hold around it, though none
				// that fn itself takes.
				sites[callee] = append(sites[callee], entrySite{caller: fn, goroutine: true})
			} else {
				open[callee] = true
			}
			c.ctx.callers[callee] = append(c.ctx.callers[callee], nil) // another goroutine
		default:
			open[callee] = true
			c.ctx.callers[callee] = append(c.ctx.callers[callee], nil) // escapes
		}
	}
	return ops
}

// heldAtReturns returns the locks held where the call that d defers
// runs: at each RunDefers instruction that control can reach from d. A
// return taken before the defer statement runs (an early return before
// the Lock and its deferred calls) does not run it.
func (c *checker) heldAtReturns(d *ssa.Defer) heldSet {
	var held heldSet
	n := 0
	visit := func(instrs []ssa.Instruction) {
		for _, instr := range instrs {
			if _, ok := instr.(*ssa.RunDefers); !ok {
				continue
			}
			h := c.heldBefore(instr)
			if n == 0 {
				held = h
			} else {
				held = intersect(held, h)
			}
			n++
		}
	}
	start, i := d.Block(), slices.Index(d.Block().Instrs, ssa.Instruction(d))
	visit(start.Instrs[i+1:])
	reach := branches.Reachable(start)
	for _, b := range d.Parent().Blocks {
		switch {
		case !reach[b.Index]:
		case b == start:
			// A defer in a loop: the block's returns before it run
			// the calls deferred in earlier iterations.
			visit(b.Instrs[:i])
		default:
			visit(b.Instrs)
		}
	}
	return held
}

// freshReceiver reports whether the receiver of call (the first
// argument of a method, or the interface value of a method call through
// an interface) is, or points into, memory that caller allocated and has
// not published before the call; for a function, whether its first
// argument is, or some argument is and no argument points to another
// struct of the package (newClient(ctx, c) on a Client the caller just
// built).
func (c *checker) freshReceiver(caller *ssa.Function, call *ssa.Call) bool {
	if call.Call.IsInvoke() {
		return c.freshArg(caller, call, call.Call.Value)
	}
	if len(call.Call.Args) == 0 {
		return false
	}
	if c.freshArg(caller, call, call.Call.Args[0]) {
		return true
	}
	if call.Call.Signature().Recv() != nil {
		return false
	}
	fresh := false
	for _, arg := range call.Call.Args {
		if c.freshArg(caller, call, arg) {
			fresh = true
		} else if n, ok := derefNamedType(arg.Type()); ok && n.Obj().Pkg() == c.pass.Pkg && isPointer(arg.Type()) {
			return false
		}
	}
	return fresh
}

// freshArg reports whether v, an argument of call, is or points into
// memory that caller allocated and has not published before the call,
// but to the goroutines it started with it on a declared function (go
// c.reader(conn); c.open(cfg)), which checkGoroutines pairs with what
// the call does (see escapes.beforeOthers).
func (c *checker) freshArg(caller *ssa.Function, call *ssa.Call, v ssa.Value) bool {
	if c.ownedElement(v, caller) {
		return true
	}
	if inner, arg := c.passedThrough(v); inner != nil {
		// h, err := fill(row, &Host{}); valid(h): the object fill was
		// handed and gave back, still unpublished at this call.
		return inner.Parent() == caller && c.freshArg(caller, call, arg) && c.escapesOf(caller).before(v, call)
	}
	if isResult(v) {
		if made := c.freshBase(v); made != nil {
			// lock, err := s.decodeLock(pair); s.prune(lock): what a
			// constructor returned (with an error, or through an
			// allocator interface), not yet let out.
			return made.Parent() == caller && c.escapesOf(caller).before(made, call)
		}
	}
	root, _, ok := c.trace(v, 0)
	alloc, isAlloc := root.(*ssa.Alloc)
	if !ok || !isAlloc || alloc.Parent() != caller || !c.newBehind(alloc) {
		return false
	}
	return c.escapesOf(caller).beforeOthers(alloc, call)
}

// isResult reports whether v is a call's first result, as such or
// asserted to a type.
func isResult(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Call:
		return true
	case *ssa.Extract:
		return v.Index == 0
	case *ssa.TypeAssert:
		_, ok := v.X.(*ssa.Call)
		return ok && !v.CommaOk
	}
	return false
}

// escapesOf returns the escapes of fn, computed on first use.
func (c *checker) escapesOf(fn *ssa.Function) *escapes {
	esc := c.escs[fn]
	if esc == nil {
		esc = newEscapes(fn, c.locked, c.handsOff)
		c.escs[fn] = esc
	}
	return esc
}

// passedThrough returns the call v is the first result of, and the
// argument that call's function returns as that result, when the
// function returns that parameter or nil on every path and lets it out
// nowhere else (a filler returning the object it was handed); nil
// otherwise.
func (c *checker) passedThrough(v ssa.Value) (*ssa.Call, ssa.Value) {
	if ext, ok := v.(*ssa.Extract); ok && ext.Index == 0 {
		v = ext.Tuple
	}
	call, ok := v.(*ssa.Call)
	if !ok {
		return nil, nil
	}
	callee := call.Call.StaticCallee()
	if callee == nil || !c.isLocal(callee) || len(callee.Params) != len(call.Call.Args) {
		return nil, nil
	}
	k, ok := c.returnedParams[callee]
	if !ok {
		k = returnedParam(callee)
		c.returnedParams[callee] = k
	}
	if k < 0 {
		return nil, nil
	}
	return call, call.Call.Args[k]
}

// returnedParam returns the index of the pointer parameter that fn
// returns as its first result on every return (or nil instead), when
// fn lets it out nowhere else; -1 otherwise.
func returnedParam(fn *ssa.Function) int {
	k := -1
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || len(ret.Results) == 0 {
			continue
		}
		switch r := ret.Results[0].(type) {
		case *ssa.Const:
			if !r.IsNil() {
				return -1
			}
		case *ssa.Parameter:
			i := indexOfParam(fn, r)
			if i < 0 || k >= 0 && i != k || !isPointer(r.Type()) {
				return -1
			}
			k = i
		default:
			return -1
		}
	}
	if k < 0 {
		return -1
	}
	for _, p := range escapePoints(fn.Params[k], fn.Params[k], 0, nil, nil) {
		if _, isRet := p.(*ssa.Return); !isRet {
			return -1
		}
	}
	return k
}

// freshParam reports whether every call of p's function, an unexported
// function the package only calls directly, passes for p memory its
// caller allocated and has not published before the call, or such a
// parameter of its own (hostInfoFromMap(row, &HostInfo{...}) filling the
// host it was given): what the function does through p happens before
// anyone else can see it.
func (c *checker) freshParam(p *ssa.Parameter) bool {
	if r, ok := c.freshParams[p]; ok {
		return r
	}
	c.freshParams[p] = false // while computing it
	fn := p.Parent()
	i := indexOfParam(fn, p)
	sites := c.locks.CallSites(fn)
	fresh := len(sites) > 0 && i >= 0 && isPointer(p.Type())
	for _, call := range sites {
		if !fresh {
			break
		}
		arg := argument(&call.Call, i)
		if q, ok := arg.(*ssa.Parameter); ok && q.Parent() == call.Parent() {
			fresh = c.freshParam(q)
			continue
		}
		fresh = c.freshArg(call.Parent(), call, arg)
	}
	c.freshParams[p] = fresh
	return fresh
}

func isPointer(t types.Type) bool {
	_, ok := t.Underlying().(*types.Pointer)
	return ok
}

// inTestFile reports whether fn is declared in a _test.go file (a
// function literal: where its outermost function is).
func (c *checker) inTestFile(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return strings.HasSuffix(c.pass.Fset.Position(fn.Pos()).Filename, "_test.go")
}

// boundMethod returns the method of the package that fn, a bound method
// wrapper (the function of a method value x.M), calls; nil for other
// functions.
func (c *checker) boundMethod(fn *ssa.Function) *ssa.Function {
	if fn == nil || !strings.HasPrefix(fn.Synthetic, "bound method wrapper") {
		return nil
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return nil
	}
	if c.byObj == nil {
		c.byObj = make(map[types.Object]*ssa.Function, len(c.funcs))
		for _, f := range c.funcs {
			if o := f.Object(); o != nil {
				c.byObj[o] = f
			}
		}
	}
	return c.byObj[obj.Origin()] // of a generic type: its generic code
}

// funcValue returns the function that v denotes: a function, or a
// closure of one.
func funcValue(v ssa.Value) *ssa.Function {
	var fn *ssa.Function
	switch v := v.(type) {
	case *ssa.Function:
		fn = v
	case *ssa.MakeClosure:
		fn, _ = v.Fn.(*ssa.Function)
	}
	if fn != nil && fn.Origin() != nil {
		// An instantiation of a generic function (a call within
		// generic code): its code is the generic function's.
		return fn.Origin()
	}
	return fn
}

// exportedEntry reports whether fn may be called from other packages or
// through an interface: exported, or a method named like an interface
// method the package invokes.
func (c *checker) exportedEntry(fn *ssa.Function, invoked map[string][]*types.Interface) bool {
	if fn.Parent() != nil {
		return false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok {
		return true
	}
	if recv := fn.Signature.Recv(); recv != nil {
		// Called through an interface the package calls it by, one its
		// type implements; a method of an unexported type is reached
		// from other packages only so, whatever its name.
		viaInterface := false
		for _, it := range invoked[obj.Name()] {
			viaInterface = viaInterface || types.Implements(recv.Type(), it)
		}
		if n, ok := derefNamedType(recv.Type()); ok && !n.Obj().Exported() {
			return viaInterface || obj.Exported() && c.promoted(obj)
		}
		return obj.Exported() || viaInterface
	}
	return obj.Exported() || obj.Name() == "init" || obj.Name() == "main"
}

// promoted reports whether method m of an unexported type is promoted to
// an exported type of its package (type Cache struct{ *cache }), so that
// other packages call it.
func (c *checker) promoted(m *types.Func) bool {
	if c.promotedSet == nil {
		c.promotedSet = make(map[types.Object]bool)
		scope := c.pass.Pkg.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok || !tn.Exported() {
				continue
			}
			ms := types.NewMethodSet(types.NewPointer(tn.Type()))
			for i := range ms.Len() {
				if sel := ms.At(i); len(sel.Index()) > 1 {
					c.promotedSet[sel.Obj()] = true
				}
			}
		}
	}
	return c.promotedSet[m]
}

// derefNamedType returns the named type of t or of what t points to.
func derefNamedType(t types.Type) (*types.Named, bool) {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return n, ok
}

// paramCallHeld returns the locks that the static callee of call holds at
// every call of the parameter that receives v, or nil. A parameter the
// callee passes on to another function of the package, which calls it
// (forEach locking, then handing f to forEachLocked), is called under the
// locks held at that call and those the other function holds at its
// calls; so is one that a function literal captures and calls, under the
// locks held where the literal itself is called (each(func(b) {
// b.mu.Lock(); fn(b); b.mu.Unlock() })).
func (c *checker) paramCallHeld(call *ssa.Call, v ssa.Value) heldSet {
	held, _ := c.paramCallHeldDepth(call, v, 0)
	return held
}

// paramCallHeldDepth is paramCallHeld; false when the parameter goes
// somewhere other than calls.
func (c *checker) paramCallHeldDepth(call *ssa.Call, v ssa.Value, depth int) (heldSet, bool) {
	callee := call.Call.StaticCallee()
	if callee == nil || !c.isLocal(callee) {
		return nil, false
	}
	for i, arg := range call.Call.Args {
		if arg == v && i < len(callee.Params) {
			return c.heldAtUses(callee.Params[i], nil, depth)
		}
	}
	return nil, false
}

// heldAtUses returns the locks held at every call of the function value
// f (a parameter, or a literal capturing one): where it is called, and
// where the calls it is passed to or the literals that capture it call
// it (see paramCallHeld). When cell is not nil, f is a variable holding
// the function value cell (a captured parameter's Alloc, or a literal's
// free variable holding it): its loads are the uses, and a store other
// than the one spilling cell makes it unknown. It returns false when the
// function goes anywhere else.
func (c *checker) heldAtUses(f, cell ssa.Value, depth int) (heldSet, bool) {
	if depth > maxTraceDepth {
		return nil, false
	}
	var held heldSet
	n := 0
	for _, r := range *f.Referrers() {
		var h heldSet
		switch r := r.(type) {
		case *ssa.Call:
			if cell != nil {
				return nil, false
			}
			h = c.heldBefore(r)
			if r.Call.Value != f {
				// Passed on to a function of the package that calls it.
				passed, ok := c.paramCallHeldDepth(r, f, depth+1)
				if !ok {
					return nil, false
				}
				h = h.union(passed)
			}
		case *ssa.Store:
			if cell != nil && r.Addr == f && r.Val == cell {
				continue // the spill itself
			}
			alloc, ok := r.Addr.(*ssa.Alloc)
			if cell != nil || r.Val != f || !ok {
				return nil, false
			}
			// A parameter a literal captures, spilled to a variable.
			if h, ok = c.heldAtUses(alloc, f, depth+1); !ok {
				return nil, false
			}
		case *ssa.UnOp:
			var ok bool
			if cell == nil || r.Op != token.MUL {
				return nil, false
			}
			if h, ok = c.heldAtUses(r, nil, depth+1); !ok {
				return nil, false
			}
		case *ssa.MakeClosure:
			// Captured by a literal: called where the literal calls it,
			// inside the literal's own callers.
			i := slices.Index(r.Bindings, f)
			lit, ok := r.Fn.(*ssa.Function)
			if i < 0 || !ok {
				return nil, false
			}
			inner, ok := c.heldAtUses(lit.FreeVars[i], cell, depth+1)
			if !ok {
				return nil, false
			}
			outer, ok := c.heldAtUses(r, nil, depth+1)
			if !ok {
				return nil, false
			}
			h = inner.union(outer)
		default:
			return nil, false // stored, or started as a goroutine
		}
		if n == 0 {
			held = h
		} else {
			held = intersect(held, h)
		}
		n++
	}
	return held, true
}

// runsIn reports whether fn runs only inside owner's own goroutine and
// call: it is owner, or a function literal that is only called, passed
// to calls, or deferred by functions that run in owner.
func (c *checker) runsIn(fn, owner *ssa.Function, depth int) bool {
	if fn == owner {
		return true
	}
	callers := c.ctx.callers[fn]
	if fn.Parent() == nil || len(callers) == 0 || depth > maxTraceDepth {
		return false
	}
	for _, caller := range callers {
		if caller == nil || !c.runsIn(caller, owner, depth+1) {
			return false
		}
	}
	return true
}

func equalHeld(a, b heldSet) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// holdsNew reports whether alloc is, or holds, memory its function made:
// a variable of a non-pointer type is its own memory; a variable holding
// a pointer (a captured pointer: c := &T{}, or a parameter a closure
// captures) holds new memory only when every value stored in it is an
// allocation of the function or the result of a constructor that returns
// a new object (see fresh). trace roots a field selected through a
// captured pointer at the variable, which says nothing of the object it
// points to.
func (c *checker) holdsNew(alloc *ssa.Alloc) bool {
	if _, isPtr := derefType(alloc.Type()).Underlying().(*types.Pointer); !isPtr {
		return true
	}
	stored := false
	for _, r := range *alloc.Referrers() {
		st, ok := r.(*ssa.Store)
		if !ok || st.Addr != alloc {
			continue
		}
		switch v := st.Val.(type) {
		case *ssa.Alloc:
			if v.Parent() != alloc.Parent() {
				return false
			}
		case *ssa.Call:
			if callee := v.Call.StaticCallee(); callee == nil || callee.Pkg != c.pkg || !c.fresh(callee, 0) {
				return false
			}
		case *ssa.Const:
			if !v.IsNil() {
				return false
			}
			continue // db = nil on an error path holds nothing
		case *ssa.UnOp:
			if v.Op != token.MUL || v.X != alloc {
				return false
			}
			continue // return db, nil: a named result stored back into itself
		default:
			return false
		}
		stored = true
	}
	return stored
}

// newBehind reports whether the accesses trace roots at alloc may count
// as made on memory not yet published, when alloc has not escaped: alloc
// holds new memory (see holdsNew), or it is a variable no deferred
// closure captures. A deferred call is not where an object is published
// (it runs when the function returns), but a parameter a deferred
// closure captures lives in such a variable, and its object is the
// caller's. Variables that other closures capture are still taken for
// new memory: telling them apart (holdsNew alone) reports 38 more
// findings on the held-out modules, 13 of them true; see the issue note.
func (c *checker) newBehind(alloc *ssa.Alloc) bool {
	return c.holdsNew(alloc) || !deferCaptured(alloc)
}

// deferCaptured reports whether a closure that a defer statement runs
// captures alloc.
func deferCaptured(alloc *ssa.Alloc) bool {
	for _, r := range *alloc.Referrers() {
		mc, ok := r.(*ssa.MakeClosure)
		if !ok {
			continue
		}
		for _, u := range *mc.Referrers() {
			if _, ok := u.(*ssa.Defer); ok {
				return true
			}
		}
	}
	return false
}

// joinedLiteral reports whether go statement g starts function literal
// lit, which signals (sends, closes a channel, calls WaitGroup.Done or a
// context's cancel function, itself or in a deferred call), and its
// function waits on what lit signals (a receive, a select with such a
// case, WaitGroup.Wait, <-ctx.Done()) on every path from g to a return:
// the goroutine runs within the call of the function that starts it, as
// a fork-join helper does (a ReadAt holding the file's lock, fanning the
// reads out to goroutines and collecting their results). The wait may be
// on what another literal the function starts signals once it has
// waited on lit's signal (see exitKeys). A wait on something else (a
// start-up handshake on another channel, while lit signals a WaitGroup
// as it exits) does not join it.
func (c *checker) joinedLiteral(g *ssa.Go, lit *ssa.Function) bool {
	if _, ok := g.Call.Value.(*ssa.MakeClosure); lit.Parent() == nil || !ok {
		return false
	}
	signals := c.exitKeys(g.Parent())[g]
	if len(signals) == 0 {
		return false
	}
	matches := c.waitsOn(signals)
	fn := g.Parent()
	i := slices.Index(g.Block().Instrs, ssa.Instruction(g))
	for _, b := range fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && reachesAvoiding(g, i, ret, matches) {
			return false
		}
	}
	return true
}

// waitsOn returns a test of the instructions that wait on one of the
// signals (keys, see joinKey): a receive, WaitGroup.Wait, <-ctx.Done(),
// a blocking select with such a receive case.
func (c *checker) waitsOn(signals map[string]bool) func(ssa.Instruction) bool {
	return func(x ssa.Instruction) bool {
		if v := waitedOn(x); v != nil {
			return signals[c.joinKey(v)]
		}
		sel, ok := x.(*ssa.Select)
		return ok && sel.Blocking && slices.ContainsFunc(sel.States, func(st *ssa.SelectState) bool {
			return st.Dir == types.RecvOnly && signals[c.joinKey(st.Chan)]
		})
	}
}

// exitKeys returns, for each go statement of fn that starts a function
// literal, the keys (see joinKey) of the waits that return only once the
// literal has signalled: what it signals itself, and what the other
// literals fn starts signal once they have waited on one of those (the
// workers Done a WaitGroup once the slicer closed their work channel; a
// collector waits on the WaitGroup, then closes the results channel that
// fn ranges over). A wait on one of them orders fn after the literal's
// signal, coarsely: not only after its last one.
func (c *checker) exitKeys(fn *ssa.Function) map[*ssa.Go]map[string]bool {
	if m, ok := c.exitKeysOf[fn]; ok {
		return m
	}
	type lit struct {
		g              *ssa.Go
		signals, waits map[string]bool
	}
	var lits []lit
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			g, ok := instr.(*ssa.Go)
			if !ok {
				continue
			}
			if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
				signals, waits := c.literalSync(mc.Fn.(*ssa.Function), mc)
				lits = append(lits, lit{g, signals, waits})
			}
		}
	}
	// A context cancelled by several goroutines, or by copies of one
	// started in a loop, is done after the first: its Done joins none.
	cancellers := map[string]int{}
	for _, l := range lits {
		n := 1
		if goInLoop(l.g) {
			n = 2
		}
		for k := range l.signals {
			if strings.HasPrefix(k, "ctx ") {
				cancellers[k] += n
			}
		}
	}
	for _, l := range lits {
		for k := range l.signals {
			if cancellers[k] > 1 {
				delete(l.signals, k)
			}
		}
	}
	out := map[*ssa.Go]map[string]bool{}
	for _, l := range lits {
		keys := maps.Clone(l.signals)
		for changed := true; changed; {
			changed = false
			for _, m := range lits {
				if !overlaps(m.waits, keys) {
					continue
				}
				for k := range m.signals {
					if !keys[k] {
						keys[k], changed = true, true
					}
				}
			}
		}
		out[l.g] = keys
	}
	c.exitKeysOf[fn] = out
	return out
}

// finalCall reports whether only its function's return (and the
// deferred calls it runs) follow call in its block.
func finalCall(call ssa.Instruction) bool {
	return lastBeforeReturn(call.Block()) == call
}

// overlaps reports whether a and b have a key in common.
func overlaps(a, b map[string]bool) bool {
	for k := range a {
		if b[k] {
			return true
		}
	}
	return false
}

// literalSync returns the keys (see joinKey), in the words of the
// function that makes closure mc, of the channels, WaitGroups and
// contexts that lit's own code signals, and of those it waits on.
func (c *checker) literalSync(lit *ssa.Function, mc *ssa.MakeClosure) (signals, waits map[string]bool) {
	bound := func(fv *ssa.FreeVar) ssa.Value {
		if i := indexOfFreeVar(lit, fv); i >= 0 && i < len(mc.Bindings) {
			return mc.Bindings[i]
		}
		return nil
	}
	key := func(v ssa.Value) string {
		switch x := v.(type) {
		case *ssa.FreeVar:
			if b := bound(x); b != nil {
				return c.joinKey(b)
			}
			return ""
		case *ssa.UnOp:
			if fv, ok := x.X.(*ssa.FreeVar); ok && x.Op == token.MUL {
				if b := bound(fv); b != nil {
					return c.varKey(b) // a captured variable
				}
				return ""
			}
		}
		return c.joinKey(v)
	}
	signals, waits = map[string]bool{}, map[string]bool{}
	add := func(m map[string]bool, v ssa.Value) {
		if k := key(v); k != "" {
			m[k] = true
		}
	}
	for _, b := range lit.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Send:
				add(signals, x.Chan)
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.RecvOnly {
						add(waits, st.Chan)
					}
				}
			case ssa.CallInstruction:
				call := x.Common()
				switch {
				case isCancelFunc(call.Value.Type()):
					// Done closes at the first cancel: only one made as
					// the literal exits orders what it did before.
					if _, deferred := x.(*ssa.Defer); deferred || finalCall(x) {
						add(signals, call.Value)
					}
				case isSignal(call) && len(call.Args) == 1:
					add(signals, call.Args[0])
				}
			}
			if v := waitedOn(instr); v != nil {
				add(waits, v)
			}
		}
	}
	return signals, waits
}

// onlyCancelled reports whether v is a context made so that its Done
// channel closes only when its cancel function is called:
// context.WithCancel or WithCancelCause of context.Background or TODO (a
// deadline, or a parent someone else cancels, closes it too).
func onlyCancelled(v ssa.Value) bool {
	call, ok := v.(*ssa.Call)
	if !ok || !isContextFunc(&call.Call, "WithCancel", "WithCancelCause") || len(call.Call.Args) != 1 {
		return false
	}
	parent, ok := call.Call.Args[0].(*ssa.Call)
	return ok && isContextFunc(&parent.Call, "Background", "TODO")
}

// isContextFunc reports whether call statically calls one of the named
// functions of package context.
func isContextFunc(call *ssa.CallCommon, names ...string) bool {
	fn := call.StaticCallee()
	return fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "context" && fn.Signature.Recv() == nil && slices.Contains(names, fn.Name())
}

// goroutineCancels returns the keys (see joinKey) of the contexts whose
// cancel function the function literal that g starts calls itself as it
// exits (defer cancel(), or cancel() just before it returns), when no
// other goroutine cancels them (see exitKeys) and nothing but cancel
// closes their Done (see onlyCancelled).
func (c *checker) goroutineCancels(g *goroutine) map[string]bool {
	gs, ok := g.stmt.(*ssa.Go)
	if !ok {
		return nil
	}
	var out map[string]bool
	for k := range c.exitKeys(gs.Parent())[gs] {
		if strings.HasPrefix(k, "ctx ") {
			if out == nil {
				out = map[string]bool{}
			}
			out[k] = true
		}
	}
	return out
}

// waitsOnAll reports whether x waits on one of keys (see joinKey) however
// it proceeds: a receive or WaitGroup.Wait on one, or a select each of
// whose cases receives from one.
func (c *checker) waitsOnAll(x ssa.Instruction, keys map[string]bool) bool {
	if v := waitedOn(x); v != nil {
		return keys[c.joinKey(v)]
	}
	sel, ok := x.(*ssa.Select)
	if !ok || !sel.Blocking || len(sel.States) == 0 {
		return false
	}
	for _, st := range sel.States {
		if st.Dir != types.RecvOnly || !keys[c.joinKey(st.Chan)] {
			return false
		}
	}
	return true
}

// varKey names variable cell of the function making a goroutine: the
// context whose cancel function it holds (captured by a closure), or the
// variable itself.
func (c *checker) varKey(cell ssa.Value) string {
	if sv := storedIn(cell); sv != nil && isCancelFunc(sv.Type()) {
		return c.joinKey(sv)
	}
	return fmt.Sprintf("var %p", cell)
}

// joinKey names the channel, WaitGroup or context that v, a value of the
// function making a goroutine, is: a field by its type and name, a
// variable by its address, a context by the call that made it (its
// cancel function, and the Done channel of its context), any other value
// by itself.
func (c *checker) joinKey(v ssa.Value) string {
	switch x := v.(type) {
	case *ssa.UnOp:
		if x.Op == token.MUL {
			if fa, ok := x.X.(*ssa.FieldAddr); ok {
				return c.fieldKey(fa)
			}
			return c.varKey(x.X)
		}
	case *ssa.FieldAddr:
		return c.fieldKey(x)
	case *ssa.Extract:
		if x.Index == 1 && isCancelFunc(x.Type()) && onlyCancelled(x.Tuple) {
			return fmt.Sprintf("ctx %p", x.Tuple)
		}
	case *ssa.Call:
		if !x.Call.IsInvoke() || x.Call.Method.Name() != "Done" {
			break
		}
		ctx := x.Call.Value
		if u, ok := ctx.(*ssa.UnOp); ok && u.Op == token.MUL && storedIn(u.X) != nil {
			ctx = storedIn(u.X) // ctx, captured by a closure
		}
		if ext, ok := ctx.(*ssa.Extract); ok && ext.Index == 0 && onlyCancelled(ext.Tuple) {
			return fmt.Sprintf("ctx %p", ext.Tuple)
		}
	}
	return fmt.Sprintf("%p", v)
}
