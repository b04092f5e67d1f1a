package race

import (
	"fmt"
	"go/ast"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// A lock is inferred to guard an object (RacerX-style belief: code that
// usually locks means to always lock) when at least minGuardFuncs
// functions, and at least minGuardShareNum/minGuardShareDen of the
// functions accessing the object, hold it at all their accesses.
//
// Fewer than strongGuardFuncs locking functions make a weak belief: on
// real code, a field written under a lock by one or two functions and
// read without it elsewhere is mostly set up before the readers start
// (Start, init, connect, then the serving goroutines) or is ordered by
// something the analysis does not see. Under a weak belief, only the
// unguarded accesses the code itself marks as suspect are reported: a
// write, an access in a function that takes the guard elsewhere (a read
// after Unlock), an access to a field an exported function writes under
// the guard (callers may do so at any time), or to a type a test file
// declares. A guard under which the object is only read (not a map's
// contents) is no belief at all: see checkObjectGuard.
const (
	minGuardFuncs                      = 2
	strongGuardFuncs                   = 3
	minGuardShareNum, minGuardShareDen = 1, 2
)

// checkGuards infers, for each field and variable, the lock that guards
// it from the locks held where it is accessed, and reports accesses that
// hold no lock (inconsistent locking) or only other locks (wrong lock).
func (c *checker) checkGuards() {
	byObj := map[string][]*access{}
	var keys []string
	for _, fn := range c.funcs {
		fi := c.info(fn)
		if fi.excluded || c.ctx.exclusive[fn] || c.ctx.unknown[fn] {
			// Before publication (init, Once.Do, a method only called
			// on memory its caller has not published), or a callback
			// whose context is not known.
			continue
		}
		inTest, suite := c.inTestFile(fn), c.inSuite(fn) && fn.Parent() == nil
		for _, a := range fi.accesses {
			if a.atomic {
				// An atomic operation is no evidence of the lock that
				// guards the memory, nor unguarded: it races only with
				// plain accesses, which the goroutine check pairs.
				continue
			}
			if inTest && (!a.obj.test || c.soloTest(fn)) || suite {
				// A test's own code touching the package's memory, which
				// the goroutine check covers when the test starts
				// goroutines, and which otherwise runs alone. Memory of
				// types the test declares is the test program's own,
				// checked like the package's, but not in a test that
				// starts no goroutines (it runs alone: tests run one at
				// a time), nor in a suite's methods, its tests and their
				// helpers, which its runner calls one at a time.
				continue
			}
			if a.preEscape || a.goEscape || a.obj.owner != nil && c.runsIn(fn, a.obj.owner, 0) || c.exclusiveWhen(a) {
				// A local variable's own function orders its accesses
				// with the goroutines it starts; see checkGoroutines.
				continue
			}
			if _, ok := byObj[a.obj.key]; !ok {
				keys = append(keys, a.obj.key)
			}
			byObj[a.obj.key] = append(byObj[a.obj.key], a)
		}
	}
	for _, k := range keys {
		c.checkObjectGuard(byObj[k])
	}
}

// checkObjectGuard checks the accesses of one object.
func (c *checker) checkObjectGuard(accs []*access) {
	guard, guarded, funcs := inferGuard(accs)
	if guard == "" || guarded < minGuardFuncs || guarded*minGuardShareDen < funcs*minGuardShareNum || c.foreignGuard(accs[0].obj, guard) {
		c.checkDisjointLocks(accs)
		return
	}
	var withGuard []*access
	for _, a := range accs {
		if a.held.has(guard) && (!a.held.readOnly(guard) || c.ownReadLock(a, guard)) {
			withGuard = append(withGuard, a)
		}
	}
	// A field only read under the lock: the lock is held around the
	// reads for other memory, and what orders the unlocked writes (a
	// setter called before Start, a reset of a pooled value) is not a
	// lock this check can name. A map's contents are another matter: a
	// map read under a lock and changed without it is the lock forgotten.
	readOnly := !writesUnder(withGuard, guard) && !strings.HasSuffix(accs[0].obj.key, "{}")
	wrongInstance := map[*ssa.Function]bool{}
	for _, a := range preferWrites(accs) {
		if calledLocked(a.fn) {
			continue
		}
		if a.held.has(guard) {
			if held, want, ok := c.otherInstance(a, guard); ok {
				if other := conflictingWrite(a, withGuard); other != nil && !wrongInstance[a.fn] {
					wrongInstance[a.fn] = true // once per function and field
					c.reportOtherInstance(a, other, held, want)
				}
				continue
			}
			if a.write && a.held.readOnly(guard) && c.ownReadLock(a, guard) && c.readLockOnSame(a, guard) {
				if other := conflicting(a, withGuard); other != nil {
					c.reportReadLockedWrite(a, other, guard)
				}
			}
			continue
		}
		other := conflicting(a, c.calleesLast(a, c.notClaimed(a, c.notForkJoined(a, c.notJoinedBefore(a, c.offLoop(a, notCallingAfter(a, c.notSettingUp(a, withGuard))))))))
		if other == nil {
			continue
		}
		if a.held.onlyFlags() {
			// (an atomic flag held is no lock the discipline knows:
			// the access is reported as unguarded, as without it)
			if readOnly || ownAccess(a, guard) || guarded < strongGuardFuncs && !a.write && !c.takesGuard(a.fn, guard) && !a.obj.test && !exportedWrites(accs, guard) {
				continue
			}
			c.reportUnguarded(a, other, guard, guarded, funcs)
		} else if ownerLocked(a, other) {
			c.reportWrongLock(a, other)
		}
	}
}

// inferGuard returns the lock class that the most functions accessing an
// object hold at all their accesses to it, how many functions do, and
// how many functions access the object. A lock a function only assumes
// held (heldLock.Assumed) is no evidence of what guards the object.
func inferGuard(accs []*access) (guard string, guarded, funcs int) {
	// A copy of the whole struct under a lock (peer := s.peer) guards
	// the field holding it: no evidence for one of the struct's fields,
	// which other copies share.
	perFunc := heldPerFunc(accs, func(a *access) bool { return a.obj.whole == nil })
	count := map[string]int{}
	for _, h := range perFunc {
		for _, l := range h {
			if !l.Assumed {
				count[l.Class]++
			}
		}
	}
	for class, n := range count {
		if n > guarded || n == guarded && class < guard {
			guard, guarded = class, n
		}
	}
	return guard, guarded, len(perFunc)
}

// foreignGuard reports whether obj is a field of a type another package
// declares and guard is not a lock of that type (a response the package
// fetched and also keeps in a cache under its own lock): the other
// package's code reads and writes the field too, out of sight, so the
// locks held around it here are no evidence that one of them guards
// every value of the type. Types are matched by package name and type
// name, as lock classes are written.
func (c *checker) foreignGuard(obj object, guard string) bool {
	typ, ok := strings.CutPrefix(obj.key, "field:")
	if !ok || strings.HasPrefix(typ, "struct{") {
		return false // not a field, or one of a struct type without a name
	}
	if rest, ok := strings.CutPrefix(typ, c.pass.Pkg.Path()+"."); ok && strings.Count(rest, ".") == 1 {
		return false // the package's own type (not pkg.v2's)
	}
	owner, _, ok := strings.Cut(obj.name, ")")
	return !ok || !strings.HasPrefix(guard, owner+")")
}

// preferWrites orders accesses so that at each position a write comes
// before a read, keeping source order otherwise.
func preferWrites(accs []*access) []*access {
	out := append([]*access(nil), accs...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].pos != out[j].pos {
			return out[i].pos < out[j].pos
		}
		return out[i].write && !out[j].write
	})
	return out
}

// conflicting returns an access of others that races with a: at least
// one of the two writes and their locksets do not protect them. Accesses
// in other functions, then writes, are preferred.
func conflicting(a *access, others []*access) *access {
	var best *access
	bestScore := -1
	for _, o := range others {
		if !a.write && !o.write || a.atomic && o.atomic || a.held.protects(o.held) || publishOrdered(a, o) || apart(a, o) {
			continue
		}
		score := 0
		if o.fn != a.fn {
			score += 2
		}
		if o.write {
			score++
		}
		if score > bestScore {
			best, bestScore = o, score
		}
	}
	return best
}

// apart reports whether a and b reach the field inside structs held by
// value in fields of different types, at some depth both see (ms.state.Msgs
// of a memStore and fs.state.Msgs of a fileStore, both StreamState;
// cs.o.state.Delivered.Stream of two consumer stores, both ConsumerState):
// different memory, whichever values of those types they are. So are a
// struct of its own storage (see ownStorage: a local ObjectInfo, an
// element of a []ObjectInfo) and one another struct holds by value
// (o.objectInfo.Size under o.mutex).
func apart(a, b *access) bool {
	if len(a.owners) == 1 && a.ownBase && len(b.owners) > 1 || len(b.owners) == 1 && b.ownBase && len(a.owners) > 1 {
		// A struct of its own (a local ObjectInfo, an element of a
		// []ObjectInfo) against one another struct holds by value
		// (o.objectInfo): different memory.
		return true
	}
	for i := 1; i < min(len(a.owners), len(b.owners)); i++ {
		if a.owners[i] != b.owners[i] {
			return true
		}
	}
	return false
}

func (c *checker) reportUnguarded(a, other *access, guard string, guarded, funcs int) {
	msg := fmt.Sprintf("possible data race: %s %s %s without holding %s; %s %s it holding %s (%d of %d functions accessing it hold %s)",
		funcName(a.fn), a.verb(), a.obj.name, guard,
		funcName(other.fn), other.verb(), other.held, guarded, funcs, guard)
	c.report(msg, a.obj, siteOf(a, fmt.Sprintf("%s %s without holding %s", a.verb(), a.obj.name, guard), ""),
		siteOf(other, fmt.Sprintf("%s %s holding %s", other.verb(), other.obj.name, other.held), ""))
}

func (c *checker) reportWrongLock(a, other *access) {
	msg := fmt.Sprintf("possible data race: %s %s %s holding %s, but %s %s it holding %s; the locksets do not intersect",
		funcName(a.fn), a.verb(), a.obj.name, a.held,
		funcName(other.fn), other.verb(), other.held)
	c.report(msg, a.obj, siteOf(a, fmt.Sprintf("%s %s holding %s", a.verb(), a.obj.name, a.held), ""),
		siteOf(other, fmt.Sprintf("%s %s holding %s", other.verb(), other.obj.name, other.held), ""))
}

func (c *checker) reportReadLockedWrite(a, other *access, guard string) {
	msg := fmt.Sprintf("possible data race: %s writes %s holding only the read lock of %s; %s %s it holding %s",
		funcName(a.fn), a.obj.name, guard, funcName(other.fn), other.verb(), other.held)
	c.report(msg, a.obj, siteOf(a, fmt.Sprintf("writes %s holding only the read lock of %s", a.obj.name, guard), ""),
		siteOf(other, fmt.Sprintf("%s %s holding %s", other.verb(), other.obj.name, other.held), ""))
}

// writesUnder reports whether one of accs is a write holding guard,
// taken rather than assumed held.
func writesUnder(accs []*access, guard string) bool {
	for _, a := range accs {
		if a.write && takenIn(a.held, guard) {
			return true
		}
	}
	return false
}

// exportedWrites reports whether a function that code outside the
// package can call (or a literal declared in one) writes the object
// under guard.
func exportedWrites(accs []*access, guard string) bool {
	for _, a := range accs {
		if a.write && takenIn(a.held, guard) && exported(a.fn) {
			return true
		}
	}
	return false
}

// exported reports whether code outside the package can call fn, or the
// function that declares the literal fn.
func exported(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	return ast.IsExported(fn.Name())
}

// takenIn reports whether h holds guard, not only assumed held.
func takenIn(h heldSet, guard string) bool {
	for _, l := range h {
		if l.Class == guard && !l.Assumed {
			return true
		}
	}
	return false
}

// ownReadLock reports whether the read lock of guard that a holds may be
// the one of the object a accesses: not when neither is known (a copy
// being filled, copy := list[n-1], under the read lock of the value it
// copies), nor when a goes through one parameter holding the lock of
// another. Such an access is neither a write under the read lock nor
// evidence of what the guard protects.
func (c *checker) ownReadLock(a *access, guard string) bool {
	if a.instr == nil || a.chain.len() > 0 {
		return true
	}
	p, isParam := a.root.(*ssa.Parameter)
	found := false
	for _, l := range c.locks.HeldBefore(a.instr) {
		if l.Class != guard {
			continue
		}
		found = true
		switch {
		case isParam && p.Parent() == a.fn:
			if k, _, ok := instParam(l.Inst); ok && k == indexOfParam(p.Parent(), p) {
				return true
			}
		case a.root != nil || l.Inst != "":
			return true
		}
	}
	return !found // held through the callers' context: not known
}

// readLockOnSame reports whether a, a write holding only the read lock
// of guard, holds it on the object whose field it writes: the field is
// the locked struct's own (or that of a struct it holds by value),
// reached from a parameter, and where the function takes the read lock
// itself, it takes it on that parameter (r.mu.RLock(); r.err = err). A
// read lock of another object (a cache's, while it fills a node it
// found; a client's, while it fills a pooled value) is held for that
// object's fields: what keeps such writes apart is the written object's
// own protocol (a reference, ownership), which this check cannot see.
// Accesses bound from callees are judged as ownReadLock does.
func (c *checker) readLockOnSame(a *access, guard string) bool {
	if a.instr == nil || a.chain.len() > 0 {
		return true
	}
	p, ok := a.root.(*ssa.Parameter)
	if !ok || p.Parent() != a.fn {
		return false
	}
	if len(a.owners) > 0 && !slices.ContainsFunc(a.owners, func(o string) bool {
		return strings.HasPrefix(guard, "("+o+").") || strings.HasPrefix(guard, "(*"+o+").")
	}) {
		return false // a field of a struct the locked one points to
	}
	found := false
	for _, l := range c.locks.HeldBefore(a.instr) {
		if l.Class != guard {
			continue
		}
		found = true
		if k, _, ok := instParam(l.Inst); ok && k == indexOfParam(a.fn, p) {
			return true
		}
	}
	return !found // held through the callers' context, on a field of its struct
}

// takesGuard reports whether fn holds guard, taken by itself or its
// callers, at one of its accesses or calls.
func (c *checker) takesGuard(fn *ssa.Function, guard string) bool {
	fi := c.info(fn)
	for _, a := range fi.accesses {
		if takenIn(a.held, guard) {
			return true
		}
	}
	for _, call := range fi.calls {
		if takenIn(call.held, guard) {
			return true
		}
	}
	return false
}

// ownAccess reports whether a is an access to a field of a value its
// function was handed (its receiver, or a parameter of the value's
// type), while the inferred guard is a lock of another type: a value that
// a container guards while it holds it, and hands over (a pool's
// resource, acquired and then used by its holder alone). That the value
// is then read without the container's lock is the protocol, not a race
// the code shows.
func ownAccess(a *access, guard string) bool {
	owner, _, ok := strings.Cut(a.obj.name, ").")
	if !ok || !strings.HasPrefix(owner, "(") || strings.HasPrefix(guard, owner+").") {
		return false
	}
	p, ok := a.root.(*ssa.Parameter)
	if !ok || p.Parent() != a.fn || strings.Count(a.path, ".") > 1 {
		return false // not a field of the value itself
	}
	n, ok := derefNamedType(p.Type())
	return ok && "("+typeName(n) == owner
}

// calledLocked reports whether fn, or the function a literal fn is
// declared in, follows a naming convention for functions called with the
// lock held (fooLocked, locked; UnsafePut, the "unsafe" prefix of etcd
// and bbolt for methods their callers lock around): the analyzer takes
// the convention at its word where the lockset analysis could not see
// the lock (a lock helper that returns with the lock held on some paths
// only; a caller locking around a call through an interface).
func calledLocked(fn *ssa.Function) bool {
	for ; fn != nil; fn = fn.Parent() {
		name := strings.ToLower(fn.Name())
		if strings.HasSuffix(name, "locked") || strings.HasPrefix(name, "unsafe") {
			return true
		}
	}
	return false
}

// notSettingUp returns the accesses of others that did not set up the
// goroutine a runs in: the spawner's writes before go p.router() happen
// before everything router does.
func (c *checker) notSettingUp(a *access, others []*access) []*access {
	setup := c.goSetup(a.fn)
	if len(setup) == 0 {
		return others
	}
	var out []*access
	for _, o := range others {
		if !setup[o.instr] {
			out = append(out, o)
		}
	}
	return out
}

// offLoop returns the accesses of others that may run on another
// goroutine than a: not both on an object's event loop (see loopOwned),
// nor both on the goroutine each new object of a type gets to itself
// (see connOwned), whose own accesses need no lock among themselves.
func (c *checker) offLoop(a *access, others []*access) []*access {
	var out []*access
	for _, o := range others {
		if !c.loopOwned(a.fn, o.fn) && !c.connOwned(a, o) {
			out = append(out, o)
		}
	}
	return out
}

// notJoinedBefore returns the accesses of others that may run beside a:
// not those made only in goroutines that a's function waits for before
// a, on a WaitGroup of its own each of them marks done as it exits (a
// server's Serve closing the files its workers left open once
// wg.Wait() returns). Two calls of the function at once, each waiting
// for its own goroutines only, are not considered.
func (c *checker) notJoinedBefore(a *access, others []*access) []*access {
	if a.instr == nil || a.instr.Parent() != a.fn || !slices.ContainsFunc(others, func(o *access) bool { return c.onlyInGoroutines(o.fn) }) {
		return others // (no scan of a's function for waits that could join none)
	}
	waited := c.waitGroupsWaited(a.fn, a.instr)
	if len(waited) == 0 {
		return others
	}
	var out []*access
	for _, o := range others {
		if !c.joinedBy(o.fn, waited) {
			out = append(out, o)
		}
	}
	return out
}

// calleesLast returns others with the accesses made in functions a's
// function calls itself moved last: conflicting names the first of the
// partners it likes equally, and a helper a's function calls (handleGreet
// calling setSession) runs on a's goroutine, while another entry point
// (Close) may run beside it.
func (c *checker) calleesLast(a *access, others []*access) []*access {
	callees := c.callIndex().calls[a.fn]
	if len(callees) == 0 || !slices.ContainsFunc(others, func(o *access) bool { return slices.Contains(callees, o.fn) }) {
		return others
	}
	out := make([]*access, 0, len(others))
	var last []*access
	for _, o := range others {
		if slices.Contains(callees, o.fn) {
			last = append(last, o)
		} else {
			out = append(out, o)
		}
	}
	return append(out, last...)
}

// notForkJoined returns the accesses of others that may run beside a,
// which the package's goroutines never make: not those made only in
// goroutines whose spawners wait for them before they return (a fan-out
// joined by wg.Wait()), which run within the spawner's call, their lock
// keeping them from each other. a runs before or after such a call,
// unless its callers make the calls at once, which the code does not
// show.
func (c *checker) notForkJoined(a *access, others []*access) []*access {
	if c.inGoroutine(a.fn) {
		return others
	}
	var out []*access
	for _, o := range others {
		if !c.forkJoined(o.fn) {
			out = append(out, o)
		}
	}
	return out
}

// forkJoined reports whether fn runs only in goroutines that go
// statements of the package start and whose spawners wait for them
// before they return (see spawner.joined): every way to fn, up the
// package's calls, reaches such a go statement, and none passes through
// a function other packages may call (an exported function, also one the
// package calls in its goroutines) or one entered from where the package
// cannot see.
func (c *checker) forkJoined(fn *ssa.Function) bool {
	if j, ok := c.forkJoins[fn]; ok {
		return j
	}
	idx := c.callIndex()
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	joined := true
	for len(work) > 0 && joined {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		gos, callers := idx.starts[f], idx.callers[f]
		if c.exportedEntry(f, c.ctx.invoked) || c.ctx.unknown[f] || len(gos)+len(callers) == 0 {
			joined = false
			break
		}
		for _, g := range gos {
			joined = joined && c.joinedGo(g)
		}
		for _, caller := range callers {
			if !seen[caller] {
				seen[caller] = true
				work = append(work, caller)
			}
		}
	}
	if c.forkJoins == nil {
		c.forkJoins = map[*ssa.Function]bool{}
	}
	c.forkJoins[fn] = joined
	return joined
}

// joinedGo reports whether the function of go statement g waits for
// the goroutine before it returns.
func (c *checker) joinedGo(g *ssa.Go) bool {
	if j, ok := c.joinedGos[g]; ok {
		return j
	}
	fi := c.info(g.Parent())
	gr := &goroutine{stmt: g, entries: c.callees(g)}
	for _, callee := range gr.entries {
		gr.signals = gr.signals || c.summary(callee).signals
	}
	j := newSpawner(c, fi).joined(gr)
	if c.joinedGos == nil {
		c.joinedGos = map[*ssa.Go]bool{}
	}
	c.joinedGos[g] = j
	return j
}

// waitGroupsWaited returns the WaitGroup variables of fn whose Wait fn
// calls before instr on every path.
func (c *checker) waitGroupsWaited(fn *ssa.Function, instr ssa.Instruction) map[*ssa.Alloc]bool {
	var out map[*ssa.Alloc]bool
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			call, ok := x.(*ssa.Call)
			if !ok || !isSyncMethod(&call.Call, "WaitGroup", "Wait") || len(call.Call.Args) != 1 || !lockset.After(call, instr) {
				continue
			}
			if wg := c.waitGroupVar(call.Call.Args[0]); wg != nil && wg.Parent() == fn {
				if out == nil {
					out = map[*ssa.Alloc]bool{}
				}
				out[wg] = true
			}
		}
	}
	return out
}

// waitGroupVar returns the WaitGroup variable v addresses: the variable
// itself, or the one a function literal captures.
func (c *checker) waitGroupVar(v ssa.Value) *ssa.Alloc {
	switch v := v.(type) {
	case *ssa.Alloc:
		return v
	case *ssa.FreeVar:
		return c.caps.allocOf(v)
	}
	return nil
}

// joinedBy reports whether fn runs only in goroutines that defer, first
// thing, the Done of one of the WaitGroup variables waited.
func (c *checker) joinedBy(fn *ssa.Function, waited map[*ssa.Alloc]bool) bool {
	if !c.onlyInGoroutines(fn) {
		return false
	}
	for s := range c.goReach().from[fn] {
		if len(s.Blocks) == 0 || !slices.ContainsFunc(s.Blocks[0].Instrs, func(x ssa.Instruction) bool {
			d, ok := x.(*ssa.Defer)
			return ok && isSyncMethod(&d.Call, "WaitGroup", "Done") && len(d.Call.Args) == 1 && waited[c.waitGroupVar(d.Call.Args[0])]
		}) {
			return false
		}
	}
	return true
}

// notCallingAfter returns the accesses of others that are not made by a
// function just before it calls a's function, in the same goroutine: the
// write in ListenAndServe (s.ln = ln under the lock, then serve(s))
// happens before serve's reads. (A second ListenAndServe on the same
// server while the first serves would race; servers are not started
// twice.)
func notCallingAfter(a *access, others []*access) []*access {
	target := a.fn
	for target.Parent() != nil {
		target = target.Parent()
	}
	var out []*access
	for _, o := range others {
		if o.instr == nil || o.instr.Parent() != o.fn || !callsAfter(o.instr, target) {
			out = append(out, o)
		}
	}
	return out
}

// callsAfter reports whether a call of target follows instr in its
// function on every path from instr to it: instr dominates the call.
func callsAfter(instr ssa.Instruction, target *ssa.Function) bool {
	for _, b := range instr.Parent().Blocks {
		for _, x := range b.Instrs {
			call, ok := x.(*ssa.Call)
			if !ok || !lockset.After(instr, x) {
				continue
			}
			if callee := call.Call.StaticCallee(); callee != nil && (callee == target || callee.Origin() == target) {
				return true
			}
		}
	}
	return false
}

// checkDisjointLocks reports an object that every function accessing it
// accesses under some lock, too few of them under one lock to infer a
// guard, when a goroutine writes it under one lock and another function
// accesses it under others only: both sides mean to synchronize, and the
// locks they chose do not exclude each other (a collector's goroutine
// records lastStat under the collection's lock; LastStat reads it under
// the registry's).
func (c *checker) checkDisjointLocks(accs []*access) {
	perFunc := heldPerFunc(accs, func(*access) bool { return true })
	if len(perFunc) < 2 {
		return
	}
	for _, h := range perFunc {
		if !heldForReal(h) {
			return
		}
	}
	for _, w := range preferWrites(accs) {
		if !w.write || calledLocked(w.fn) || !c.inGoroutine(w.fn) {
			continue
		}
		var others []*access
		for _, o := range accs {
			if o.fn != w.fn && !c.sameGoroutines(w.fn, o.fn) && ownerLocked(w, o) {
				others = append(others, o)
			}
		}
		if other := conflicting(w, notCallingAfter(w, c.notSettingUp(w, others))); other != nil {
			c.reportWrongLock(other, w)
			return
		}
	}
}

// ownerLocked reports whether a or b holds a lock of an object that
// holds the field they access, as both see it (see access.owners): a
// mutex of the field's struct, or of a struct both reach it in by value. A field read and
// written under the locks of other objects only (a queue's lock, a
// table's) is taken to be owned by each of them in turn, or to live in
// different objects of one type: nothing shows one object reached under
// both. Accesses whose owners are not known count as locked by them.
func ownerLocked(a, b *access) bool {
	if len(a.owners) == 0 || len(b.owners) == 0 {
		return true
	}
	// Only an object that holds the field in both views: a struct one
	// side reaches by value (ms.state.Msgs under memStore's lock) is
	// not known to hold what the other reaches through a pointer.
	var owners []string
	for _, o := range a.owners {
		if slices.Contains(b.owners, o) {
			owners = append(owners, o)
		}
	}
	for _, h := range []heldSet{a.held, b.held} {
		for _, l := range h {
			for _, o := range owners {
				if strings.HasPrefix(l.Class, "("+o+")") || strings.HasPrefix(l.Class, "(*"+o+")") {
					return true
				}
			}
		}
	}
	return false
}

// heldForReal reports whether h holds a lock the function takes itself,
// or its callers take, rather than one it only assumes held.
func heldForReal(h heldSet) bool {
	for _, l := range h {
		if !l.Assumed {
			return true
		}
	}
	return false
}

// heldPerFunc returns, for each function making one of the accesses
// that count, the locks it holds at all of them.
func heldPerFunc(accs []*access, counts func(*access) bool) map[*ssa.Function]heldSet {
	perFunc := map[*ssa.Function]heldSet{}
	for _, a := range accs {
		if !counts(a) {
			continue
		}
		if h, ok := perFunc[a.fn]; ok {
			perFunc[a.fn] = intersect(h, a.held)
		} else {
			perFunc[a.fn] = a.held
		}
	}
	return perFunc
}
