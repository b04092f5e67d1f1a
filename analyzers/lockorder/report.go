package lockorder

import (
	"fmt"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"github.com/confirm-go/confirm/analyzers/warning"
	"golang.org/x/tools/go/ssa"
)

func access(m lockset.Mode) warning.Access {
	if m == lockset.Read {
		return warning.AccessRLock
	}
	return warning.AccessLock
}

// verb says how a lock is taken: "acquires" or "read-acquires".
func verb(m lockset.Mode) string {
	if m == lockset.Read {
		return "read-acquires"
	}
	return "acquires"
}

// via describes a call chain: " via b.LockAll -> b.lock".
func via(chain []string) string {
	if len(chain) == 0 {
		return ""
	}
	return " via " + strings.Join(chain, " -> ")
}

// site builds the site of one end of an edge.
func site(e *Edge, end End, role string, held []string) warning.Site {
	return warning.Site{
		Pos:       end.Pos,
		Position:  end.Position,
		Role:      role,
		Access:    access(end.Mode),
		Object:    end.Class,
		Held:      held,
		Func:      e.Func,
		Chain:     end.Chain,
		FuncLine:  end.FuncLine,
		Goroutine: end.Goroutine,
	}
}

// reportCycles reports every cycle of the lock-order graph that goes
// through an edge of this package. The sites are, for a cycle
// X1 -> X2 -> ... -> Xn -> X1 whose i'th edge is observed on path i:
// the acquisition of X1 on path 1, of X2 on path 2, ..., of Xn on path n,
// then the acquisition of X2 while holding X1 on path 1, of X3 while
// holding X2 on path 2, ..., and of X1 while holding Xn on path n. For a
// 2-cycle: [A (path 1), B (path 2), B holding A (path 1), A holding B
// (path 2)].
func (c *checker) reportCycles() {
	for _, cyc := range c.graph.cycles() {
		if len(cyc) > 2 && calledEdges(cyc) > 1 || farEdge(cyc) {
			continue
		}
		w := &warning.Warning{Kind: warning.LockOrderCycle}
		var names []string
		for _, e := range cyc {
			names = append(names, e.From.Class)
			w.Objects = append(w.Objects, e.From.Class)
		}
		for i, e := range cyc {
			w.Sites = append(w.Sites, site(e, e.From,
				fmt.Sprintf("%s %s%s (path %d)", verb(e.From.Mode), e.From.Class, via(e.From.Chain), i+1), nil))
		}
		for i, e := range cyc {
			w.Sites = append(w.Sites, site(e, e.To,
				fmt.Sprintf("%s %s%s while holding %s (path %d)", verb(e.To.Mode), e.To.Class, via(e.To.Chain), e.From.Class, i+1), e.Held))
		}
		first, last := cyc[0], cyc[len(cyc)-1]
		if len(cyc) == 2 {
			w.Message = fmt.Sprintf("lock-order cycle: %s acquires %s while holding %s, but %s acquires %s while holding %s; goroutines running both can deadlock",
				first.Func, first.To.Class, first.From.Class, last.Func, last.To.Class, last.From.Class)
		} else {
			w.Message = fmt.Sprintf("lock-order cycle %s -> %s: %s acquires %s while holding %s; goroutines running the %d paths can deadlock",
				strings.Join(names, " -> "), names[0], first.Func, first.To.Class, first.From.Class, len(cyc))
		}
		warning.Report(c.pass, c.res, w)
	}
}

// calledEdges counts the edges of a cycle whose locks are taken in
// callees rather than in the function observing the edge. A cycle over
// three or more locks deadlocks only when as many goroutines each stand
// at their edge at once; where more than one of those edges is only
// reached through calls, across the call graph of a large package (hooks,
// interface methods, paths taken on some values only), the cycle is
// mostly one no run can make, and it is not reported. Two-lock cycles
// are reported whatever their paths.
func calledEdges(cyc []*Edge) int {
	n := 0
	for _, e := range cyc {
		if len(e.From.Chain) > 0 || len(e.To.Chain) > 0 {
			n++
		}
	}
	return n
}

// maxEdgeChain is the longest chain of calls through which a cycle's
// edge takes its second lock and the cycle is still reported.
const maxEdgeChain = 6

// farEdge reports whether an edge of the cycle takes its second lock
// more than maxEdgeChain calls down from the function that holds the
// first. Paths that long, across a large package's hooks, method values
// and interface methods (a client's Close running its close hooks, one
// of which closes a failover that locks), are mostly ones no run takes
// with the first lock held; the bug kernels' cycles take at most five.
func farEdge(cyc []*Edge) bool {
	for _, e := range cyc {
		if len(e.To.Chain) > maxEdgeChain {
			return true
		}
	}
	return false
}

// reportDouble reports a lock acquired again while held: a double lock
// (Go mutexes are not reentrant), or for two read locks a recursive read
// lock that deadlocks when a writer waits in between.
func (c *checker) reportDouble(fn *ssa.Function, h lockset.Lock, a lockset.Acquisition) {
	name := lockset.FuncName(fn)
	inst := c.instName(fn, a.Lock.Inst)
	if inst == "" {
		inst = a.Lock.Class
	}
	w := &warning.Warning{Objects: []string{a.Lock.Class}}
	first := warning.Site{
		Pos: h.Pos, Role: fmt.Sprintf("%s %s%s", verb(h.Mode), a.Lock.Class, via(h.Chain)), Access: access(h.Mode),
		Object: h.Class, Func: name, Chain: h.Chain, FuncLine: c.funcLine(fn, h.Pos), Goroutine: c.goroutine(fn),
	}
	second := warning.Site{
		Pos: a.Pos, Role: fmt.Sprintf("%s %s%s again while holding it", verb(a.Lock.Mode), a.Lock.Class, via(a.Lock.Chain)),
		Access: access(a.Lock.Mode), Object: a.Lock.Class, Held: a.Held.Classes(), Func: name,
		Chain: a.Lock.Chain, FuncLine: c.funcLine(fn, a.Pos), Goroutine: c.goroutine(fn),
	}
	if h.Mode == lockset.Read && a.Lock.Mode == lockset.Read {
		if !c.writers[a.Lock.Class] {
			return // no writer can wait in between
		}
		w.Kind = warning.RWRDeadlock
		w.Message = fmt.Sprintf("recursive read lock: %s read-locks %s%s while already holding its read lock; a writer waiting in between deadlocks both",
			name, inst, via(a.Lock.Chain))
	} else {
		w.Kind = warning.DoubleLock
		w.Message = fmt.Sprintf("double lock: %s %s %s%s while already holding it (Go mutexes are not reentrant)",
			name, lockWord(a.Lock.Mode), inst, via(a.Lock.Chain))
	}
	w.Sites = []warning.Site{first, second}
	warning.Report(c.pass, c.res, w)
}

func lockWord(m lockset.Mode) string {
	if m == lockset.Read {
		return "read-locks"
	}
	return "locks"
}

// reportNested reports two instances of one lock class nested without an
// order between them: with the instances swapped in another goroutine,
// each holds the lock the other wants.
func (c *checker) reportNested(fn *ssa.Function, h lockset.Lock, a lockset.Acquisition) {
	name := lockset.FuncName(fn)
	outer, inner := c.instName(fn, h.Inst), c.instName(fn, a.Lock.Inst)
	w := &warning.Warning{
		Kind:    warning.LockOrderCycle,
		Objects: []string{a.Lock.Class},
		Message: fmt.Sprintf("lock-order cycle: %s locks %s (%s) while holding %s of the same class; two goroutines with the instances swapped deadlock (AB-BA); lock them in a fixed order",
			name, inner, a.Lock.Class, outer),
	}
	w.Sites = []warning.Site{
		{
			Pos: h.Pos, Role: fmt.Sprintf("%s %s (%s)%s", verb(h.Mode), outer, h.Class, via(h.Chain)), Access: access(h.Mode),
			Object: h.Class, Func: name, Chain: h.Chain, FuncLine: c.funcLine(fn, h.Pos),
		},
		{
			Pos: a.Pos, Role: fmt.Sprintf("%s %s (%s)%s while holding %s", verb(a.Lock.Mode), inner, a.Lock.Class, via(a.Lock.Chain), outer),
			Access: access(a.Lock.Mode), Object: a.Lock.Class, Held: a.Held.Classes(), Func: name,
			Chain: a.Lock.Chain, FuncLine: c.funcLine(fn, a.Pos),
		},
	}
	warning.Report(c.pass, c.res, w)
}

// instName names an instance path in the words of the source: "$1.mu" of
// func(from, to *Account) is "to.mu".
func (c *checker) instName(fn *ssa.Function, inst string) string {
	if inst == "" {
		return ""
	}
	var root, rest string
	n := 1
	for n < len(inst) && inst[n] >= '0' && inst[n] <= '9' {
		n++
	}
	switch {
	case inst[0] == '$':
		i, err := strconv.Atoi(inst[1:n])
		if err != nil || i >= len(fn.Params) {
			return inst
		}
		root, rest = fn.Params[i].Name(), inst[n:]
	case inst[0] == '^':
		i, err := strconv.Atoi(inst[1:n])
		if err != nil || i >= len(fn.FreeVars) {
			return inst
		}
		root, rest = fn.FreeVars[i].Name(), inst[n:]
	case strings.HasPrefix(inst, "g:"):
		// "g:example.com/bank.mu.x" is bank.mu.x.
		full := inst[2:]
		if i := strings.LastIndex(full, "/"); i >= 0 {
			full = full[i+1:]
		}
		return strings.ReplaceAll(full, "*", "")
	case strings.HasPrefix(inst, "v:"):
		rest = inst[2:]
		if i := strings.IndexAny(rest, ".*["); i >= 0 {
			root, rest = rest[:i], rest[i:]
		} else {
			root, rest = rest, ""
		}
		root = localName(fn, root)
	default:
		return inst
	}
	return root + strings.ReplaceAll(rest, "*", "")
}

// localName returns the source name of the SSA value named name in fn
// when it is a local variable, or name.
func localName(fn *ssa.Function, name string) string {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if v, ok := instr.(ssa.Value); ok && v.Name() == name {
				if a, ok := v.(*ssa.Alloc); ok && a.Comment != "" {
					return a.Comment
				}
				return name
			}
		}
	}
	return name
}

// checkLeaks reports the locks fn acquires and still holds on some, but
// not every, return. A function that returns with a lock held on every
// path is a lock helper: its callers must release the lock, and are
// checked in turn; so is a function whose last result is an error that
// holds the lock on every return of a nil error (the lock is held on
// success). Both are reported when nothing in the package ever releases
// a lock of the class after a call (see unreleased). Conditional lock
// helpers are not reported: functions whose last result is a bool
// (tryAcquire() bool), functions returning a function (the release
// callback). Functions deferring calls the analysis cannot resolve are
// not checked, nor the bodies of range-over-func loops, whose returns
// go on with the loop or leave it (the enclosing function's returns
// are checked). The locks held on some of the paths merging before a
// return are checked by checkJoinLeaks.
func (c *checker) checkLeaks(fn *ssa.Function, t *lockset.Trace) {
	if len(t.Returns) == 0 || lockset.IsLoopBody(fn) || lastResultIsBool(fn) || returnsFunc(fn) || c.hasOpaqueDefer(fn) || isLockMethod(fn) {
		return
	}
	sum := c.summary(fn)
	skip := map[string]bool{}
	// A lock fn releases and takes back is its callers', held when it
	// returns as when it was called (unlock, wait, lock again).
	for _, it := range sum.Neutral {
		skip[classMode(it)] = true
	}
	helper := map[string]bool{} // held on every return: a lock helper's
	for _, it := range sum.Holds {
		if !skip[classMode(it)] && !it.Relocked {
			helper[classMode(it)] = true
		}
		skip[classMode(it)] = true
	}
	success := heldOnSuccess(fn, t)
	reported := map[string]bool{}
	for _, r := range t.Returns {
		for _, l := range r.Held {
			key := classMode(l.Item)
			// A lock a callee released and took back (Relocked) is
			// likewise fn's callers'.
			if l.Inherited || l.Relocked || reported[key] || c.handedOff(fn)[l.Class] || c.away[l.Class] {
				continue
			}
			why := someNotOthers
			switch {
			case helper[key]:
				// A lock helper, unless nothing releases what it
				// returns holding.
				if !c.unreleased(fn, l) {
					continue
				}
				why = everyNoneFrees
			case skip[key]:
				continue
			case success[key]:
				// Held on success for the caller to release,
				// unless no caller does.
				if !c.unreleased(fn, l) {
					continue
				}
				why = noCallerFrees
			}
			reported[key] = true // report each lock once
			c.reportLeak(fn, l, r, why)
		}
	}
	for k := range reported {
		skip[k] = true
	}
	c.checkFailureLeaks(fn, t, success, skip)
	c.checkJoinLeaks(fn, t, skip)
}

// checkFailureLeaks reports, for a function that hands a lock to its
// caller on success (held on every return of a nil error, released by
// the caller later), a return of a non-nil error that still holds it
// when another such return does not: the caller, seeing the error, does
// not release it (etcd 5509: the context error returned with the read
// lock held).
func (c *checker) checkFailureLeaks(fn *ssa.Function, t *lockset.Trace, success, skip map[string]bool) {
	for _, key := range sortedKeys(success) {
		if skip[key] {
			continue
		}
		var leaking *lockset.Return
		var lock lockset.Lock
		released := false
		for i := range t.Returns {
			r := &t.Returns[i]
			if nilErr, ok := errorReturn(fn, r.Instr); !ok || nilErr {
				continue // not a failure
			}
			held := false
			for _, l := range r.Held {
				if classMode(l.Item) == key && !l.Inherited {
					held, lock = true, l
				}
			}
			switch {
			case !held:
				released = true
			case leaking == nil:
				leaking = r
			}
		}
		if leaking != nil && released && !c.handedOff(fn)[lock.Class] && !c.away[lock.Class] {
			c.reportLeak(fn, lock, *leaking, someNotOthers)
		}
	}
}

// heldOnSuccess returns the locks held on every return of a nil error
// when fn's last result is an error (and it returns a nil error somewhere).
func heldOnSuccess(fn *ssa.Function, t *lockset.Trace) map[string]bool {
	res := fn.Signature.Results()
	if res.Len() == 0 || !isError(res.At(res.Len()-1).Type()) {
		return nil
	}
	var out map[string]bool
	for _, r := range t.Returns {
		if nilErr, ok := errorReturn(fn, r.Instr); !ok || !nilErr {
			continue // not a success
		}
		here := map[string]bool{}
		for _, l := range r.Held {
			here[classMode(l.Item)] = true
		}
		if out == nil {
			out = here
			continue
		}
		for k := range out {
			if !here[k] {
				delete(out, k)
			}
		}
	}
	return out
}

// classMode keys a lock by its class and mode, whatever its instance.
func classMode(it lockset.Item) string { return it.Class + "\x00" + it.Mode.String() }

// errorReturn reports whether ret, a return of fn whose last result is
// an error, returns a nil error; ok is false for a return that says
// nothing either way: one after a recovered panic, which yields the zero
// results whatever the lock, or one of another arity.
func errorReturn(fn *ssa.Function, ret *ssa.Return) (nilErr, ok bool) {
	n := fn.Signature.Results().Len()
	if len(ret.Results) != n || ret.Block() == fn.Recover {
		return false, false
	}
	return isNilConst(returned(ret, n-1)), true
}

// returned returns result i of ret: in a function with defers, the
// value last stored into the result's slot in ret's block before the
// deferred calls run (t, nil stored, then RunDefers, then return *t0,
// *t1).
func returned(ret *ssa.Return, i int) ssa.Value {
	v := ret.Results[i]
	load, ok := v.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return v
	}
	slot, ok := load.X.(*ssa.Alloc)
	if !ok {
		return v
	}
	var stored ssa.Value
	for _, instr := range ret.Block().Instrs {
		if st, ok := instr.(*ssa.Store); ok && st.Addr == slot {
			stored = st.Val
		}
		if instr == ret {
			break
		}
	}
	if stored == nil {
		return v
	}
	return stored
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

func returnsFunc(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		if _, ok := res.At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

func (c *checker) reportLeak(fn *ssa.Function, l lockset.Lock, r lockset.Return, why string) {
	c.reportLeakMsg(fn, l, r, fmt.Sprintf("lock leak: %s returns with %s still held %s (missing %s?)",
		lockset.FuncName(fn), l.Class, why, unlockWord(l.Mode)))
}

// The reasons a return holding a lock leaks it.
const (
	someNotOthers  = "on this path but not on others"
	noCallerFrees  = "on this path but not on others, and no caller in the package releases it"
	everyNoneFrees = "on every path, and no caller in the package releases it"
)

func (c *checker) reportLeakMsg(fn *ssa.Function, l lockset.Lock, r lockset.Return, msg string) {
	name := lockset.FuncName(fn)
	retPos := r.Instr.Pos()
	if !retPos.IsValid() {
		if syn := fn.Syntax(); syn != nil {
			retPos = syn.End() - 1
		}
	}
	w := &warning.Warning{
		Kind:    warning.LockLeak,
		Objects: []string{l.Class},
		Message: msg,
	}
	w.Sites = []warning.Site{
		{
			Pos: l.Pos, Role: fmt.Sprintf("%s %s%s", verb(l.Mode), l.Class, via(l.Chain)), Access: access(l.Mode),
			Object: l.Class, Func: name, Chain: l.Chain, FuncLine: c.funcLine(fn, l.Pos),
		},
		{
			Pos: retPos, Role: fmt.Sprintf("returns with %s held", l.Class), Access: warning.AccessReturn,
			Object: l.Class, Held: r.Held.Classes(), Func: name, FuncLine: c.funcLine(fn, retPos),
		},
	}
	warning.Report(c.pass, c.res, w)
}

func lastResultIsBool(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	if res.Len() == 0 {
		return false
	}
	b, ok := res.At(res.Len() - 1).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// hasOpaqueDefer reports whether fn defers a call that may release a lock
// the analysis cannot see: a function value it cannot resolve, or Unlock
// of an unknown sync.Locker.
func (c *checker) hasOpaqueDefer(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if _, isBuiltin := d.Call.Value.(*ssa.Builtin); isBuiltin {
				continue
			}
			if _, isOp := c.op(d); isOp {
				continue
			}
			if d.Call.IsInvoke() {
				if isUnlockName(d.Call.Method.Name()) && len(c.ls.Callees(d)) == 0 {
					return true
				}
				continue
			}
			if d.Call.StaticCallee() == nil && len(c.ls.Callees(d)) == 0 {
				return true
			}
		}
	}
	return false
}

// isLockMethod reports whether fn is a method named like a lock operation
// (Lock, RLock, TryLock, TryRLock): a lock type's own acquiring method,
// which returns holding what it locked on purpose (xsync's RBMutex.RLock
// holds its inner RWMutex on its slow path only).
func isLockMethod(fn *ssa.Function) bool {
	if fn.Signature.Recv() == nil {
		return false
	}
	switch fn.Name() {
	case "Lock", "RLock", "TryLock", "TryRLock":
		return true
	}
	return false
}

// handedOff returns the lock classes that a goroutine started in fn's
// top-level function (by fn, or by a closure of the same declaration)
// releases without having acquired them: locks handed from one goroutine
// to another (locked by a test's server goroutine, unlocked by its
// client; a spawner's lock unlocked by the goroutine it starts). So are
// those that a function literal of the declaration releases when it is
// handed to a call (see passedOn). A return of fn still holding one is
// not a leak.
func (c *checker) handedOff(fn *ssa.Function) map[string]bool {
	top := outermost(fn)
	if h, ok := c.handed[top]; ok {
		return h
	}
	h := map[string]bool{}
	for g, spawners := range c.started {
		for _, s := range spawners {
			if outermost(s) != top {
				continue
			}
			for _, it := range c.summary(g).Releases {
				h[it.Class] = true
			}
		}
	}
	c.passedOn(top, h)
	if c.handed == nil {
		c.handed = map[*ssa.Function]map[string]bool{}
	}
	c.handed[top] = h
	return h
}

// passedOn adds to h the lock classes that a function literal made in
// fn or its literals releases, or the method value of a release method
// (mu.Unlock) fn makes, when the value is an argument of a call: the
// callee keeps it to call when the work it starts is done (a commit's
// onDone callback that unlocks the commit lock, queued for the loop that
// commits). A callee that calls it before it returns releases the lock
// in the caller's lockset already; one that does not has taken the
// release on.
func (c *checker) passedOn(fn *ssa.Function, h map[string]bool) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok {
				continue
			}
			for _, a := range call.Call.Args {
				switch a := a.(type) {
				case *ssa.MakeClosure:
					if lit, _ := a.Fn.(*ssa.Function); isUnlockValue(a) || lit != nil && lit.Parent() != nil {
						c.releasesOf(a, h)
					}
				case *ssa.Function:
					if a.Parent() != nil { // a literal capturing nothing (a package-level mutex's)
						for _, it := range c.summary(a).Releases {
							h[it.Class] = true
						}
					}
				}
			}
		}
	}
	for _, lit := range fn.AnonFuncs {
		c.passedOn(lit, h)
	}
}

// releasedElsewhere returns the lock classes whose release funcs hand
// away as a function value: a method value of Unlock or RUnlock, or a
// function literal that releases the lock, stored into a field or a
// package-level variable, or passed to a go statement
// (server.NotifyStartedFunc = waitLock.Unlock, a test's start signal).
// Whoever calls it releases the lock, so a function returning with it
// held has not leaked it.
func (c *checker) releasedElsewhere(funcs []*ssa.Function) map[string]bool {
	away := map[string]bool{}
	handAway := func(v ssa.Value) {
		if mc, ok := v.(*ssa.MakeClosure); ok {
			c.releasesOf(mc, away)
		}
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					switch instr.Addr.(type) {
					case *ssa.FieldAddr, *ssa.Global:
						handAway(instr.Val)
					}
				case *ssa.Go:
					for _, a := range instr.Call.Args {
						handAway(a)
					}
				}
			}
		}
	}
	return away
}

// releasesOf adds to h the lock classes that calling the function value
// mc makes releases without having acquired them: the mutex of a method
// value of Unlock or RUnlock, or what the function's summary releases.
func (c *checker) releasesOf(mc *ssa.MakeClosure, h map[string]bool) {
	fn, _ := mc.Fn.(*ssa.Function)
	if fn == nil {
		return
	}
	if isUnlockValue(mc) {
		if r, ok := c.ls.Ref(mc.Bindings[0]); ok && r.Class != "" {
			h[r.Class] = true
		}
		return
	}
	for _, it := range c.summary(fn).Releases {
		h[it.Class] = true
	}
}

// isUnlockName reports whether name is a release method's.
func isUnlockName(name string) bool {
	return name == "Unlock" || name == "RUnlock"
}

// isUnlockValue reports whether mc makes the method value of a release
// method bound to its mutex (mu.Unlock, lf.lock.RUnlock), whose one
// binding is the mutex.
func isUnlockValue(mc *ssa.MakeClosure) bool {
	fn, ok := mc.Fn.(*ssa.Function)
	return ok && fn.Parent() == nil && len(mc.Bindings) == 1 && strings.HasSuffix(fn.Name(), "$bound") && isUnlockName(strings.TrimSuffix(fn.Name(), "$bound"))
}

// outermost returns the declared function that fn is, or is nested in.
func outermost(fn *ssa.Function) *ssa.Function {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return fn
}
