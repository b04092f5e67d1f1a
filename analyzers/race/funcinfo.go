package race

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// funcInfo is what the analyzer records about one function of the
// package: its accesses and its calls, each with the locks held there.
type funcInfo struct {
	fn       *ssa.Function
	accesses []*access
	calls    []callSite
	signals  bool // sends on or closes a channel, or calls WaitGroup.Done
	excluded bool // runs before any goroutine can share its data (init, Once.Do)
}

// A callSite is a call, defer or go instruction and the locks held there.
type callSite struct {
	instr ssa.CallInstruction
	held  heldSet
	// flagged holds, for a call whose locks depend on a boolean
	// parameter of its function (see splitOnFlag), the locks held for
	// each of its values; held is what both hold.
	flagged []flagged
}

// A flagged is the set of locks held at a point when a boolean parameter
// has the value cond wants.
type flagged struct {
	cond paramCond
	held heldSet
}

// info returns the funcInfo of fn, computing it on first use.
func (c *checker) info(fn *ssa.Function) *funcInfo {
	if fi, ok := c.infos[fn]; ok {
		return fi
	}
	fi := &funcInfo{fn: fn, excluded: c.initOnly(fn)}
	c.infos[fn] = fi
	esc := newEscapes(fn, c.locked, c.handsOff)
	if c.neverMade(fn) {
		return fi
	}
	ctx := c.ctx.held[fn]
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch instr := instr.(type) {
			case *ssa.UnOp:
				if instr.Op == token.MUL {
					c.addAccess(fi, esc, instr, instr.X, false, ctx)
				}
			case *ssa.Store:
				if load, ok := instr.Val.(*ssa.UnOp); ok && load.Op == token.MUL && load.X == instr.Addr {
					break // x = x: the value does not change (return of a named result)
				}
				c.addAccess(fi, esc, instr, instr.Addr, true, ctx)
			case *ssa.MapUpdate:
				c.addMapAccess(fi, esc, instr, instr.Map, true, ctx)
			case *ssa.Lookup:
				if isMap(instr.X.Type()) {
					c.addMapAccess(fi, esc, instr, instr.X, false, ctx)
				}
			case *ssa.Range:
				if isMap(instr.X.Type()) {
					c.addMapAccess(fi, esc, instr, instr.X, false, ctx)
				}
			case *ssa.Send:
				fi.signals = true
			case ssa.CallInstruction:
				if m, write, ok := mapBuiltin(instr.Common()); ok {
					c.addMapAccess(fi, esc, instr, m, write, ctx)
				}
				if addr, write, ok := atomicOp(instr.Common()); ok {
					c.addAtomicAccess(fi, esc, instr, addr, write, ctx)
				}
				fi.calls = append(fi.calls, callSite{instr: instr, held: c.heldBefore(instr).union(ctx)})
				if isSignal(instr.Common()) {
					fi.signals = true
				}
			}
		}
	}
	c.splitOnFlag(fi, ctx)
	return fi
}

// splitOnFlag tells apart, in fi, the accesses and calls made holding
// locks that fn takes only when a boolean parameter asks it to (if lock
// { s.mu.Lock(); defer s.mu.Unlock() }): each access becomes one for
// each value of the parameter, holding the locks held then, and each
// call keeps both sets (see callSite.flagged). A caller passing true
// then binds the locked access only. A function that takes the lock on
// some paths and releases it on others (lockset.Summary.Neutral) is left
// to heldBefore.
func (c *checker) splitOnFlag(fi *funcInfo, ctx heldSet) {
	fn := fi.fn
	if len(c.locks.Summary(fn).Neutral) > 0 {
		return
	}
	flags := c.locks.LockFlags(fn)
	if len(flags) == 0 {
		return
	}
	p := flags[0]
	i := indexOfParam(fn, p)
	// variants returns the locks held at instr for each value of p that
	// reaches it; nil when they are those held on every path, held.
	variants := func(instr ssa.Instruction, held heldSet) []flagged {
		var out []flagged
		same := true
		for _, want := range []bool{true, false} {
			set, ok := c.locks.HeldBeforeWhen(instr, p, want)
			if !ok {
				same = false
				continue
			}
			h := c.heldOf(instr, set).union(ctx)
			same = same && equalHeld(h, held)
			out = append(out, flagged{cond: paramCond{param: i, want: want}, held: h})
		}
		if same {
			return nil
		}
		return out
	}
	var accs []*access
	for _, a := range fi.accesses {
		vs := variants(a.instr, a.held)
		if vs == nil {
			accs = append(accs, a)
			continue
		}
		for _, v := range vs {
			b := *a
			b.held = v.held
			b.conds = append(slices.Clip(a.conds), v.cond)
			accs = append(accs, &b)
		}
	}
	fi.accesses = accs
	for j, cs := range fi.calls {
		if _, ok := cs.instr.(*ssa.Go); ok {
			continue
		}
		fi.calls[j].flagged = variants(cs.instr, cs.held)
	}
}

func (c *checker) addAccess(fi *funcInfo, esc *escapes, instr ssa.Instruction, addr ssa.Value, write bool, ctx heldSet) {
	c.addAccessOf(fi, esc, instr, addr, write, false, ctx)
}

// addAtomicAccess records the operation of package sync/atomic that call
// instr makes on the memory at addr.
func (c *checker) addAtomicAccess(fi *funcInfo, esc *escapes, instr ssa.Instruction, addr ssa.Value, write bool, ctx heldSet) {
	c.addAccessOf(fi, esc, instr, addr, write, true, ctx)
}

// atomicOp returns the address a call of a function of package
// sync/atomic operates on (atomic.AddInt64(&s.n, 1): &s.n), and whether
// the operation writes it. The methods of the atomic types (atomic.Int64)
// are not: their memory is never accessed otherwise.
func atomicOp(common *ssa.CallCommon) (addr ssa.Value, write, ok bool) {
	fn, isFunc := common.Value.(*ssa.Function)
	if !isFunc || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || fn.Signature.Recv() != nil || len(common.Args) == 0 {
		return nil, false, false
	}
	name := fn.Name()
	switch {
	case strings.HasPrefix(name, "Load"):
		return common.Args[0], false, true
	case strings.HasPrefix(name, "Store"), strings.HasPrefix(name, "Add"), strings.HasPrefix(name, "Swap"),
		strings.HasPrefix(name, "CompareAndSwap"), strings.HasPrefix(name, "And"), strings.HasPrefix(name, "Or"):
		return common.Args[0], true, true
	}
	return nil, false, false
}

func (c *checker) addAccessOf(fi *funcInfo, esc *escapes, instr ssa.Instruction, addr ssa.Value, write, atomic bool, ctx heldSet) {
	obj, root, path, ok := c.classifyAddr(addr)
	if !ok {
		return
	}
	if fa, isField := addr.(*ssa.FieldAddr); isField && c.fromDetached(fa.X, map[*ssa.Phi]bool{}) {
		return
	}
	a := &access{
		accessSite: &accessSite{obj: obj, write: write, atomic: atomic, pos: c.accessPos(instr, addr), fn: fi.fn, instr: instr},
		held:       c.heldBefore(instr).union(ctx),
		root:       root, path: path,
	}
	c.record(fi, esc, instr, a, addr)
	if _, isField := addr.(*ssa.FieldAddr); isField && !atomic {
		t := derefType(addr.Type())
		var owners []string // the whole field's struct, then a's owners
		for _, sub := range c.subfields(obj, t) {
			if owners == nil {
				owners = append([]string{typeName(t)}, a.owners...)
			}
			c.record(fi, esc, instr, &access{
				accessSite: &accessSite{obj: sub.obj, write: write, pos: a.pos, fn: fi.fn, instr: instr, owners: owners},
				held:       a.held,
				root:       root, path: path + "." + sub.name,
			}, addr)
		}
	}
}

// maxSubfields bounds how many fields of a struct copied whole are
// counted as accessed one by one.
const maxSubfields = 16

// A subfield is a field of a struct-typed field.
type subfield struct {
	obj  object
	name string
}

// subfields returns the fields of t, the type of field obj, when t is a
// struct type: a field copied or assigned whole (out = fs.Counts;
// c.lastStat = stat) reads or writes each of them, and races with an
// access to one (fs.Counts.Success++). Only the fields the package can
// select are returned: another package's unexported fields are touched
// by its code alone, which the whole access already stands for.
func (c *checker) subfields(obj object, t types.Type) []subfield {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || st.NumFields() > maxSubfields || isSyncType(t) {
		return nil
	}
	var out []subfield
	for i := range st.NumFields() {
		f := st.Field(i)
		if f.Name() == "_" || isSyncType(f.Type()) || !f.Exported() && f.Pkg() != c.pass.Pkg {
			continue
		}
		sub := c.fieldObject(t, f)
		sub.test, sub.whole = obj.test, &wholeField{key: obj.key, name: obj.name}
		out = append(out, subfield{obj: sub, name: f.Name()})
	}
	return out
}

// addMapAccess records a read or write of the elements of map m: an
// index expression, an assignment to one, a range loop, delete or clear.
// The elements are an object of their own, named after the variable or
// field that holds the map.
func (c *checker) addMapAccess(fi *funcInfo, esc *escapes, instr ssa.Instruction, m ssa.Value, write bool, ctx heldSet) {
	var obj object
	var root ssa.Value
	var path string
	switch m := m.(type) {
	case *ssa.UnOp:
		if m.Op != token.MUL || c.detached(m) {
			return
		}
		var ok bool
		if obj, root, path, ok = c.classifyAddr(m.X); !ok {
			return
		}
	case *ssa.Parameter:
		obj = object{key: "param:" + c.pass.Fset.Position(m.Pos()).String(), name: "parameter " + m.Name() + " of " + funcName(m.Parent())}
		root = m
	default:
		return
	}
	obj.key += "{}"
	obj.name = "map contents of " + obj.name
	pos := c.exprStart(instr.Pos())
	if call, ok := instr.(ssa.CallInstruction); ok && isBuiltin(call.Common(), "len") {
		// len(x.m): the access is the operand, where the read happens.
		if p := mapOperandPos(m); p.IsValid() {
			pos = c.exprStart(p)
		}
	}
	c.record(fi, esc, instr, &access{
		accessSite: &accessSite{obj: obj, write: write, pos: pos, fn: fi.fn, instr: instr},
		held:       c.heldBefore(instr).union(ctx),
		root:       root, path: path + "{}",
	}, m)
}

// fieldOwners returns the struct types holding the field addr selects,
// or the field a map value addr was loaded from: the field's own, then
// those of the fields holding it by value.
func fieldOwners(addr ssa.Value) []string {
	if load, ok := addr.(*ssa.UnOp); ok && load.Op == token.MUL {
		addr = load.X
	}
	var out []string
	for i := 0; i <= maxTraceDepth; i++ {
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			break
		}
		out = append(out, typeName(derefType(fa.X.Type())))
		addr = fa.X
	}
	return out
}

// ownStorage reports whether the struct whose field addr selects is its
// own storage: a variable (also one a function literal captures), a
// value made with new or a composite literal, a package-level variable,
// an element of a slice or array of such structs. A value that another
// struct holds in a field (o.info.Size, owners [Info, Object]) is not,
// and neither is one reached through a pointer from elsewhere, which may
// point into such a field.
func (c *checker) ownStorage(addr ssa.Value) bool {
	if load, ok := addr.(*ssa.UnOp); ok && load.Op == token.MUL {
		addr = load.X
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	x := fa.X
	for i := 0; i < 8; i++ {
		switch v := x.(type) {
		case *ssa.Alloc, *ssa.Global:
			return true
		case *ssa.IndexAddr:
			// &s[i] of a []T or *[n]T: the element is a T of its own.
			return true
		case *ssa.FreeVar:
			b := c.caps.bound(v)
			if b == nil {
				return false
			}
			x = b
		default:
			return false
		}
	}
	return false
}

// record completes access a of fi, made through addr, and adds it.
func (c *checker) record(fi *funcInfo, esc *escapes, instr ssa.Instruction, a *access, addr ssa.Value) {
	if a.owners == nil {
		a.owners = fieldOwners(addr)
		a.ownBase = c.ownStorage(addr)
	}
	if owned(c.ownedRoots(instr), a) {
		return
	}
	root := a.root
	if g, ok := root.(*ssa.Global); ok {
		if v, ok := g.Object().(*types.Var); ok {
			a.global = globalKey(v)
		}
	}
	a.conds = c.paramConds(instr)
	a.waited = c.waitedBefore(instr)
	var publishes, acquires []string
	if a.write {
		publishes = appendKey(c.closesAfterSet(instr, addr), flagStoredAfter(instr))
		publishes = appendKey(publishes, c.lazyPublishes(addr))
	} else {
		if fa, ok := addr.(*ssa.FieldAddr); ok {
			acquires = receivedFrom(instr, fa.X)
		}
		acquires = appendKey(acquires, flagLoadedTrue(instr))
		acquires = appendKey(acquires, c.lazyAcquires(instr, addr))
	}
	if len(publishes) > 0 || len(acquires) > 0 {
		a.notes = &accessNotes{publishes: publishes, acquires: acquires}
	}
	// An element of a slice lives in the slice's backing array, which the
	// root's field may share with other values (c := &S{shards:
	// o.shards}): whether it is new is the element's own question.
	element := strings.Contains(a.path, "[]")
	if alloc, ok := root.(*ssa.Alloc); ok && alloc.Parent() == fi.fn && !element {
		a.preEscape = c.newBehind(alloc) && esc.before(alloc, instr)
		a.goEscape = !a.preEscape && c.newBehind(alloc) && esc.beforeOthers(alloc, instr)
	} else if prm, ok := root.(*ssa.Parameter); ok && prm.Parent() == fi.fn && !element && c.freshParam(prm) {
		// Unpublished by every caller, until a goroutine the function
		// starts has it (use(&W{}) calling w.Start(), then setting w).
		a.preEscape = esc.beforeGoroutine(prm, instr)
	} else if fv, ok := root.(*ssa.FreeVar); ok && !element && insideVar(addr, fv) {
		a.preEscape = c.capturedUnpublished(fi.fn, fv)
	} else if root == nil || element || isCallResult(root) || strings.Contains(a.path, "{}.") {
		if call := c.freshBase(addr); call != nil && call.Parent() == fi.fn {
			a.preEscape = esc.before(call, instr)
		} else if c.ownedElement(addr, fi.fn) || freshElement(addr, fi.fn, instr, esc) {
			a.preEscape = true
		}
	}
	fi.accesses = append(fi.accesses, a)
}

// isCallResult reports whether v is a value a call returns (see trace).
func isCallResult(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Call:
		return true
	case *ssa.Extract:
		_, ok := v.Tuple.(*ssa.Call)
		return ok
	}
	return false
}

// initOnly reports whether fn runs while the package is initialised, or
// only inside sync.Once.Do: its accesses happen before other goroutines
// can observe the data.
func (c *checker) initOnly(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if f.Parent() == nil && f.Signature.Recv() == nil && (f.Name() == "init" || strings.HasPrefix(f.Name(), "init#") || f.Synthetic == "package initializer") {
			return true
		}
	}
	return c.onceFuncs[fn]
}

// isSignal reports whether call lets a waiting goroutine proceed:
// close(ch), WaitGroup.Done, and Cond.Signal/Broadcast. A context's
// cancel function, which closes its Done channel, is matched with the
// waits on that channel only (see goroutineCancels).
func isSignal(call *ssa.CallCommon) bool {
	if b, ok := call.Value.(*ssa.Builtin); ok {
		return b.Name() == "close"
	}
	return isSyncMethod(call, "WaitGroup", "Done") ||
		isSyncMethod(call, "Cond", "Signal") || isSyncMethod(call, "Cond", "Broadcast")
}

// isCancelFunc reports whether t is context's CancelFunc or
// CancelCauseFunc.
func isCancelFunc(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "context" {
		return false
	}
	return n.Obj().Name() == "CancelFunc" || n.Obj().Name() == "CancelCauseFunc"
}

// isBubbleWait reports whether call is testing/synctest's Wait, which
// returns once every other goroutine of the bubble has exited or is
// durably blocked: what they did before, it orders before its return.
func isBubbleWait(call *ssa.CallCommon) bool {
	fn := call.StaticCallee()
	return fn != nil && fn.Name() == "Wait" && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "testing/synctest"
}

// isSyncMethod reports whether call statically calls method name of
// sync.typ.
func isSyncMethod(call *ssa.CallCommon, typ, name string) bool {
	fn := call.StaticCallee()
	return fn != nil && isSyncFunc(fn, typ, name)
}

// isSyncFunc reports whether fn is method name of sync.typ.
func isSyncFunc(fn *ssa.Function, typ, name string) bool {
	if fn.Name() != name || fn.Signature.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(derefType(fn.Signature.Recv().Type())).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" && n.Obj().Name() == typ
}

// isWait reports whether instr blocks until another goroutine signals:
// a channel receive, a select, or WaitGroup.Wait.
func isWait(instr ssa.Instruction) bool {
	switch instr := instr.(type) {
	case *ssa.UnOp:
		return instr.Op == token.ARROW
	case *ssa.Select:
		return instr.Blocking
	case *ssa.Call:
		return isSyncMethod(instr.Common(), "WaitGroup", "Wait") || isSyncMethod(instr.Common(), "Cond", "Wait") ||
			isBubbleWait(instr.Common())
	}
	return false
}

// findOnceFuncs returns the functions passed to sync.Once.Do in funcs.
func findOnceFuncs(funcs []*ssa.Function) map[*ssa.Function]bool {
	once := map[*ssa.Function]bool{}
	called := map[*ssa.Function]bool{} // called other than through Once.Do
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				if !isSyncMethod(call.Common(), "Once", "Do") || len(call.Common().Args) < 2 {
					if f := call.Common().StaticCallee(); f != nil && f.Synthetic == "" {
						called[f] = true
					}
					continue
				}
				if f := funcValue(call.Common().Args[1]); f != nil {
					once[f] = true
					if f.Synthetic != "" {
						// once.Do(x.init): the bound method wrapper
						// calls the method.
						for _, b := range f.Blocks {
							for _, instr := range b.Instrs {
								if c, ok := instr.(*ssa.Call); ok && c.Call.StaticCallee() != nil {
									once[c.Call.StaticCallee()] = true
								}
							}
						}
					}
				}
			}
		}
	}
	for f := range once {
		if called[f] {
			// once.Do(res.Release), and res.Release() elsewhere: not
			// only run inside Once.Do.
			delete(once, f)
		}
	}
	return once
}

// heldBefore returns the locks that the lockset analysis says must be
// held just before instr.
func (c *checker) heldBefore(instr ssa.Instruction) heldSet {
	return c.heldOf(instr, c.locks.HeldBefore(instr))
}

// heldOf returns set, the locks the lockset analysis says are held just
// before instr, as a heldSet.
func (c *checker) heldOf(instr ssa.Instruction, set lockset.Set) heldSet {
	var neutral []lockset.Item
	if fn := instr.Parent(); fn != nil {
		// A function that locks only when asked runs, where it does
		// not, under its callers' lock (see lockset.Summary.Neutral).
		neutral = c.locks.Summary(fn).Neutral
	}
	if len(set) == 0 && len(neutral) == 0 {
		return nil
	}
	locks := make([]heldLock, 0, len(set)+len(neutral))
	for _, l := range set {
		// An atomic flag taken by compare-and-swap is a token often
		// held across the goroutines its holder hands the work to
		// (palm's checkAndRun running operationRunner, whose workers
		// hold nothing): it excludes its holders from one another, but
		// is no evidence of what guards the memory they touch.
		flag := l.Kind == lockset.KindFlag
		locks = append(locks, heldLock{Class: l.Class, Read: l.Mode == lockset.Read, Assumed: l.Assumed || flag, Flag: flag})
	}
	for _, it := range neutral {
		locks = append(locks, heldLock{Class: it.Class, Read: it.Mode == lockset.Read})
	}
	return makeHeldSet(locks)
}

// isMap reports whether t is a map type.
func isMap(t types.Type) bool {
	_, ok := t.Underlying().(*types.Map)
	return ok
}

// isBuiltin reports whether call calls the builtin function name.
func isBuiltin(call *ssa.CallCommon, name string) bool {
	b, ok := call.Value.(*ssa.Builtin)
	return ok && b.Name() == name
}

// mapOperandPos returns the position of the expression that loads the
// map m: the selector of x.m, the variable of v.
func mapOperandPos(m ssa.Value) token.Pos {
	if u, ok := m.(*ssa.UnOp); ok {
		if fa, ok := u.X.(*ssa.FieldAddr); ok && fa.Pos().IsValid() {
			return fa.Pos()
		}
		return u.Pos()
	}
	return m.Pos()
}

// mapBuiltin recognizes delete(m, k) and clear(m) on a map, writes of its
// elements, and len(m), a read.
func mapBuiltin(call *ssa.CallCommon) (ssa.Value, bool, bool) {
	b, ok := call.Value.(*ssa.Builtin)
	if !ok || len(call.Args) == 0 || !isMap(call.Args[0].Type()) {
		return nil, false, false
	}
	switch b.Name() {
	case "delete", "clear":
		return call.Args[0], true, true
	case "len":
		// The race detector reports len(m) against a write of m.
		return call.Args[0], false, true
	}
	return nil, false, false
}

// locked reports whether the lockset analysis says some lock is held
// just before instr.
func (c *checker) locked(instr ssa.Instruction) bool {
	return len(c.locks.HeldBefore(instr)) > 0
}

// neverMade reports whether fn is a function literal that nothing makes:
// go/ssa builds no code after a call that does not return (t.Skip,
// t.Fatal, log.Fatal, panic), so a literal written only there is never
// made, and never runs (a test that skips itself first thing starts none
// of its goroutines). So is a literal inside one.
func (c *checker) neverMade(fn *ssa.Function) bool {
	parent := fn.Parent()
	if parent == nil || fn.Synthetic != "" {
		return false
	}
	if made, ok := c.made[fn]; ok {
		return !made
	}
	made := !c.neverMade(parent) && slices.ContainsFunc(parent.Blocks, func(b *ssa.BasicBlock) bool {
		return slices.ContainsFunc(b.Instrs, func(instr ssa.Instruction) bool { return makes(instr, fn) })
	})
	c.made[fn] = made
	return !made
}

// makes reports whether instr makes the function literal fn: a closure
// of it, or fn itself as a value or callee.
func makes(instr ssa.Instruction, fn *ssa.Function) bool {
	for _, op := range instr.Operands(nil) {
		if *op == fn {
			return true
		}
	}
	return false
}
