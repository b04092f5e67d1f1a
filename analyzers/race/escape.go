package race

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// escapes answers whether a local allocation has escaped its function at
// a given instruction: whether some instruction that lets the pointer
// out (stores it elsewhere, passes it to a call, returns it, captures it
// in a closure, starts a goroutine with it) can execute before.
type escapes struct {
	fn     *ssa.Function
	points map[ssa.Value][]ssa.Instruction
	reach  map[*ssa.BasicBlock][]bool // blocks reachable from a block's successors
	index  map[ssa.Instruction]int    // position of each instruction in its block

	// locked reports whether a lock is held just before an instruction
	// (of fn or a function it calls); see unpublished.
	locked func(ssa.Instruction) bool
	// handsOff reports whether a call hands a function value to a
	// goroutine (see checker.handsOff).
	handsOff handOff
}

// A handOff reports whether call passes fn, a function value, to a
// callee that runs it in a goroutine it leaves running: what fn captures
// escapes there.
type handOff func(call *ssa.Call, fn ssa.Value) bool

func newEscapes(fn *ssa.Function, locked func(ssa.Instruction) bool, handsOff handOff) *escapes {
	return &escapes{fn: fn, locked: locked, handsOff: handsOff}
}

// before reports whether instr executes before alloc escapes on every
// path. alloc is an *ssa.Alloc of the function, or the result of a call
// of a function that returns a new object (see checker.fresh).
func (e *escapes) before(alloc ssa.Value, instr ssa.Instruction) bool {
	return e.escapesAfter(alloc, instr, false)
}

// escapesAfter is before, not counting the go statements that start a
// declared function (go a.loop()) when skipGo is set.
func (e *escapes) escapesAfter(alloc ssa.Value, instr ssa.Instruction, skipGo bool) bool {
	if e.points == nil {
		e.points = map[ssa.Value][]ssa.Instruction{}
		e.reach = map[*ssa.BasicBlock][]bool{}
	}
	pts, ok := e.points[alloc]
	if !ok {
		pts = escapePoints(alloc, alloc, 0, e.handsOff, nil)
		e.points[alloc] = pts
	}
	for _, p := range pts {
		if g, isGo := p.(*ssa.Go); isGo && skipGo {
			if callee := g.Call.StaticCallee(); callee != nil && callee.Parent() == nil {
				continue
			}
		}
		if e.mayPrecede(p, instr) && !e.reallocated(alloc, p, instr) && !e.unpublished(p, instr) {
			return false
		}
	}
	return true
}

// beforeOthers reports whether instr executes before alloc escapes
// anywhere but to the goroutines the function starts with it as an
// argument of a declared function (go a.loop()): a constructor that
// starts the object's loop, then sets it up. Those goroutines are the
// only other code that can reach the object, and checkGoroutines pairs
// their accesses with the function's. (A closure started with it may
// hand it anywhere, as the test's func() { p.Return(f.make()) } does.)
func (e *escapes) beforeOthers(alloc ssa.Value, instr ssa.Instruction) bool {
	return e.escapesAfter(alloc, instr, true)
}

// beforeGoroutine reports whether instr executes, on every path, before
// v is handed to a goroutine: to a go statement, a closure one starts, or
// a call whose callee starts one with it (see checker.handsOff). Other
// escapes of v are not counted (a parameter the callers' memory binds).
func (e *escapes) beforeGoroutine(v ssa.Value, instr ssa.Instruction) bool {
	if e.reach == nil {
		e.reach = map[*ssa.BasicBlock][]bool{}
	}
	for _, p := range escapePoints(v, v, 0, e.handsOff, nil) {
		switch p.(type) {
		case *ssa.Go, *ssa.Call:
			if e.mayPrecede(p, instr) {
				return false
			}
		}
	}
	return true
}

// reallocated reports whether every path from escape point p to instr
// runs alloc again, so that instr touches a new object, not the one that
// escaped at p (a loop filling a slice with new values: node := &Node{};
// if ... { node.x = v }; nodes[i] = node).
func (e *escapes) reallocated(alloc ssa.Value, p, instr ssa.Instruction) bool {
	a, ok := alloc.(ssa.Instruction)
	if !ok {
		return false
	}
	return !reachesAvoiding(p, e.indexOf(p), instr, func(x ssa.Instruction) bool { return x == a })
}

// escapePoints lists the instructions through which pointer v, or an
// address derived from it, may become visible to another goroutine:
// stored into memory, sent on a channel, captured by a closure, passed
// to a go statement, or returned, or captured by a function
// that handsOff says a call runs in a goroutine (errgroup's g.Go).
// Passing it to an ordinary call is not counted: a constructor that
// calls an initialisation method is still initialising (a callee that
// publishes the pointer is not modelled). Nor is storing it into the object root itself, or
// into an object root alone holds (c.f = c.m, c.g.h = c.m with c.g a
// new object only stored in c): that keeps it where it already is.
func escapePoints(root ssa.Value, v ssa.Value, depth int, handsOff handOff, out []ssa.Instruction) []ssa.Instruction {
	w := &escWalker{root: root, carry: true, handsOff: handsOff, seen: map[ssa.Value]bool{}}
	return w.walk(v, depth, out)
}

// An escWalker walks the uses of one root, each value once (phis and
// values reached along many paths would otherwise be walked, and their
// escape points listed, once per path).
type escWalker struct {
	root     ssa.Value
	carry    bool
	handsOff handOff // nil: no call counts
	seen     map[ssa.Value]bool
}

// escapeWalk is escapePoints; without carry, a store into a new object
// is an escape point itself (ownedBy asks where an object is stored).
func escapeWalk(root ssa.Value, v ssa.Value, depth int, carry bool, out []ssa.Instruction) []ssa.Instruction {
	w := &escWalker{root: root, carry: carry, seen: map[ssa.Value]bool{}}
	return w.walk(v, depth, out)
}

func (w *escWalker) walk(v ssa.Value, depth int, out []ssa.Instruction) []ssa.Instruction {
	root, carry := w.root, w.carry
	refs := v.Referrers()
	if refs == nil || depth > maxTraceDepth || w.seen[v] {
		return out
	}
	w.seen[v] = true
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.FieldAddr, *ssa.IndexAddr, *ssa.ChangeType, *ssa.MakeInterface, *ssa.Slice, *ssa.Convert, *ssa.MakeClosure, *ssa.Phi,
			*ssa.TypeAssert, *ssa.Extract:
			// A closure that captures it (a method value bound to it, a
			// callback) carries it: published only where the closure is.
			// A type assertion yields the object itself.
			out = w.walk(r.(ssa.Value), depth+1, out)
		case *ssa.Call:
			if w.handsOff != nil && w.handsOff(r, v) {
				out = append(out, r)
			}
		case *ssa.UnOp, *ssa.DebugRef, *ssa.If, *ssa.BinOp, *ssa.Field, *ssa.Index, *ssa.Lookup:
			// loads, comparisons and ordinary calls do not publish it
		case *ssa.Defer:
			// A deferred call runs when the function returns, after
			// everything it could publish the object before (a
			// constructor's defer closing what it built if it panics).
		case *ssa.MapUpdate:
			if (r.Value == v || r.Key == v) && ownMap(r.Map, root) {
				// Put in a map only root holds (c.nodes[k] = &Node{c: c},
				// c.nodes a map made for c): kept where root already is.
				break
			}
			out = append(out, r)
		case *ssa.Store:
			if r.Val != v {
				break
			}
			if local, ok := r.Addr.(*ssa.Alloc); ok && !local.Heap {
				// Kept in a local variable (a named result): published
				// only where a load of it is.
				for _, lr := range *local.Referrers() {
					if load, ok := lr.(*ssa.UnOp); ok && load.X == local {
						out = w.walk(load, depth+1, out)
					}
				}
				break
			}
			if ownedBy(r.Addr, root, 0) {
				break
			}
			if x := newObjectOf(r.Addr); carry && x != nil && x != root {
				// Stored into a new object (&ctx{db}): published where
				// that object is.
				out = w.carrier(x, depth+1, out)
				break
			}
			out = append(out, r)
		default:
			out = append(out, r)
		}
	}
	return out
}

// mayPrecede reports whether p can execute before instr in one call of
// the function.
func (e *escapes) mayPrecede(p, instr ssa.Instruction) bool {
	pb, ib := p.Block(), instr.Block()
	if pb == ib && e.indexOf(p) < e.indexOf(instr) {
		return true
	}
	r, ok := e.reach[pb]
	if !ok {
		r = branches.Reachable(pb)
		e.reach[pb] = r
	}
	return r[ib.Index]
}

// indexOf returns the index of instr in its block.
func (e *escapes) indexOf(instr ssa.Instruction) int {
	if e.index == nil {
		e.index = map[ssa.Instruction]int{}
		for _, b := range e.fn.Blocks {
			for i, x := range b.Instrs {
				e.index[x] = i
			}
		}
	}
	return e.index[instr]
}

// ownedBy reports whether addr is the address of a field of root, or of
// a field of an object that only root holds: a new object whose only
// escape is being stored into a field of root (the composite literal
// &T{g: &G{}} of a constructor).
func ownedBy(addr ssa.Value, root ssa.Value, depth int) bool {
	if depth > maxTraceDepth {
		return false
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	if fa.X == root || storedOnce(fa.X) == root || storedOnce(fa.X) == storedIn(root) {
		// A field of root, reached directly or through the variable
		// holding it; or root is that variable.
		return true
	}
	if x, ok := fa.X.(*ssa.FieldAddr); ok {
		return ownedBy(x, root, depth+1) // a field of an embedded struct
	}
	load, ok := fa.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	holder, ok := load.X.(*ssa.FieldAddr)
	if !ok || !ownedBy(holder, root, depth+1) {
		return false
	}
	// Every value the function stores into that field is a new object
	// that goes nowhere else.
	stores := fieldStores(fieldAddrs(holder))
	for _, st := range stores {
		obj, ok := st.Val.(*ssa.Alloc)
		if !ok {
			return false
		}
		for _, p := range escapeWalk(obj, obj, depth+1, false, nil) {
			if p != st {
				return false
			}
		}
	}
	return len(stores) > 0
}

// ownMap reports whether m is a map loaded from a field of root that
// holds only maps root's function makes for it: every value the function
// stores into the field is a new map, used for nothing else.
func ownMap(m ssa.Value, root ssa.Value) bool {
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || !ownedBy(fa, root, 0) {
		return false
	}
	addrs := fieldAddrs(fa)
	stores := fieldStores(addrs)
	for _, st := range stores {
		made, ok := st.Val.(*ssa.MakeMap)
		if !ok {
			return false
		}
		for _, mu := range *made.Referrers() {
			switch mu := mu.(type) {
			case *ssa.Store:
				if a, ok := mu.Addr.(*ssa.FieldAddr); !ok || !slices.Contains(addrs, a) {
					return false
				}
			case *ssa.DebugRef:
			default:
				return false
			}
		}
	}
	return len(stores) > 0
}

// fieldStores returns the stores through addrs, the addresses of one
// field that fieldAddrs gives.
func fieldStores(addrs []*ssa.FieldAddr) []*ssa.Store {
	var out []*ssa.Store
	for _, a := range addrs {
		for _, u := range *a.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == a {
				out = append(out, st)
			}
		}
	}
	return out
}

// fieldAddrs returns the addresses of fa's field of fa's object that its
// function takes: of the same value, or of loads of the variable holding
// it.
func fieldAddrs(fa *ssa.FieldAddr) []*ssa.FieldAddr {
	base := storedOnce(fa.X)
	var out []*ssa.FieldAddr
	for _, b := range fa.Parent().Blocks {
		for _, instr := range b.Instrs {
			if o, ok := instr.(*ssa.FieldAddr); ok && o.Field == fa.Field && storedOnce(o.X) == base {
				out = append(out, o)
			}
		}
	}
	return out
}

// newObjectOf returns the object allocated in the function that addr is
// the address of a field (or array element) of, or nil.
func newObjectOf(addr ssa.Value) *ssa.Alloc {
	for i := 0; i <= maxTraceDepth; i++ {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			if _, isArray := derefType(a.X.Type()).Underlying().(*types.Array); !isArray {
				return nil // a slice's backing array may be shared
			}
			addr = a.X
		case *ssa.Alloc:
			if i == 0 {
				return nil // a variable, not an object's field
			}
			return a
		default:
			return nil
		}
	}
	return nil
}

// carrier lists the escape points of root through x, a new object
// holding it: those of x itself, and those of what is loaded back from
// x's fields (go t.work(), with t := &Task{work: closure}).
func (w *escWalker) carrier(x *ssa.Alloc, depth int, out []ssa.Instruction) []ssa.Instruction {
	if depth > maxTraceDepth {
		return out
	}
	out = w.walk(x, depth, out)
	for _, r := range *x.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok {
			continue
		}
		for _, u := range *fa.Referrers() {
			if load, ok := u.(*ssa.UnOp); ok && load.Op == token.MUL {
				out = w.walk(load, depth+1, out)
			}
		}
	}
	return out
}

// freshBase returns the call that addr (a field's address, or a map
// loaded from one) is reached from when that call returns a new object
// (see fresh): clone := newScope(...); clone.services[k] = v.
func (c *checker) freshBase(addr ssa.Value) *ssa.Call {
	for i := 0; i <= maxTraceDepth; i++ {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return nil
			}
			addr = a.X
		case *ssa.Call:
			if c.freshCall(a, 0) {
				return a
			}
			return nil
		case *ssa.TypeAssert:
			addr = a.X // p := NewPacket(kind).(*Publish)
		case *ssa.Extract:
			if ta, ok := a.Tuple.(*ssa.TypeAssert); ok && a.Index == 0 {
				addr = ta.X
				continue
			}
			if call, ok := a.Tuple.(*ssa.Call); ok && a.Index == 0 {
				addr = call // l, err := s.decodeLock(pair)
				continue
			}
			return nil
		default:
			return nil
		}
	}
	return nil
}

// fresh reports whether fn, a function of the package, returns as its
// first result a new object that nothing else holds: on every return an
// object it allocates (&T{...}, or a copy: sl := *l; return &sl), or the
// result of a call of such a function, that has not escaped otherwise.
// So does sync.Pool's Get.
func (c *checker) fresh(fn *ssa.Function, depth int) bool {
	if r, ok := c.freshFuncs[fn]; ok {
		return r
	}
	if isSyncFunc(fn, "Pool", "Get") {
		return true // what it returns, no one else holds until it is put back
	}
	if depth > 3 || fn.Signature.Results().Len() == 0 {
		return false
	}
	if !c.isLocal(fn) {
		f := c.importFact(fn)
		return f != nil && f.Fresh
	}
	switch fn.Signature.Results().At(0).Type().Underlying().(type) {
	case *types.Pointer, *types.Interface:
	default:
		return false
	}
	c.freshFuncs[fn] = false // while it is being decided (recursion)
	ok := false
	for _, b := range fn.Blocks {
		ret, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !isRet {
			continue
		}
		v := ret.Results[0]
		if mi, ok := v.(*ssa.MakeInterface); ok {
			if _, ptr := mi.X.Type().Underlying().(*types.Pointer); !ptr {
				continue // a copy of a value (return errorConn{err})
			}
			v = mi.X // a factory returning an interface: return &T{...}
		}
		if ext, ok := v.(*ssa.Extract); ok && ext.Index == 0 {
			v = ext.Tuple // c, _ := p.GetContext(ctx); return c
		}
		switch v := v.(type) {
		case *ssa.Alloc:
		case *ssa.Call:
			if !c.freshCall(v, depth+1) {
				return false
			}
		case *ssa.TypeAssert: // return p.pool.Get().(*Span)
			call, ok := v.X.(*ssa.Call)
			if !ok || v.CommaOk || !c.freshCall(call, depth+1) {
				return false
			}
		case *ssa.Const:
			if v.IsNil() {
				continue // return nil, err
			}
			return false
		default:
			return false
		}
		for _, p := range escapePoints(v, v, 0, c.handsOff, nil) {
			if _, isRet := p.(*ssa.Return); !isRet {
				return false
			}
		}
		ok = true
	}
	c.freshFuncs[fn] = ok
	return ok
}

// freshCall reports whether call returns a new object (see fresh): its
// callee does, or, at a call of an interface method, every
// implementation the call may reach does (an allocator interface whose
// implementations make a new object or take one from a sync.Pool). The
// implementations are the package's own, so this holds only when no
// other can be there: the interface value does not come from an exported
// function's parameter, no exported function, method or struct field of
// the package takes the interface type, and the list of callees is not
// cut short (maxCallees).
func (c *checker) freshCall(call *ssa.Call, depth int) bool {
	if callee := call.Call.StaticCallee(); callee != nil {
		return c.fresh(callee, depth)
	}
	if !call.Call.IsInvoke() || c.fromAPIParam(call.Call.Value) || c.takenFromOutside(call.Call.Value.Type()) {
		return false
	}
	fns := c.callees(call)
	if len(fns) >= maxCallees {
		return false
	}
	for _, fn := range fns {
		if !c.fresh(fn, depth) {
			return false
		}
	}
	return len(fns) > 0
}

// takenFromOutside reports whether other packages can hand the package a
// value of type t: an exported function or method (outside test files)
// has a parameter of type t, or an exported struct type an exported field
// of that type.
func (c *checker) takenFromOutside(t types.Type) bool {
	key := types.TypeString(t, nil)
	taken, ok := c.outsideTypes[key]
	if !ok {
		taken = c.exportedParamOf(t) || c.exportedFieldOf(t)
		c.outsideTypes[key] = taken
	}
	return taken
}

// exportedParamOf reports whether an exported function or method of the
// package, outside test files, has a parameter of type t.
func (c *checker) exportedParamOf(t types.Type) bool {
	for _, fn := range c.funcs {
		if obj := fn.Object(); obj == nil || !obj.Exported() || c.inTestFile(fn) {
			continue
		}
		params := fn.Signature.Params()
		for i := 0; i < params.Len(); i++ {
			if types.Identical(params.At(i).Type(), t) {
				return true
			}
		}
	}
	return false
}

// exportedFieldOf reports whether an exported struct type of the package
// has an exported field of type t.
func (c *checker) exportedFieldOf(t types.Type) bool {
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || !tn.Exported() {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for i := 0; i < st.NumFields(); i++ {
			if f := st.Field(i); f.Exported() && types.Identical(f.Type(), t) {
				return true
			}
		}
	}
	return false
}

// ownedElement reports whether addr is reached from an element of a map
// that fn made and keeps to itself, holding only new objects: a snapshot
// taken under a lock (m[k] = cfg.Clone()) and worked on after it is
// released. Such elements are fn's alone.
func (c *checker) ownedElement(addr ssa.Value, fn *ssa.Function) bool {
	for i := 0; i <= maxTraceDepth; i++ {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.UnOp:
			if a.Op != token.MUL {
				return false
			}
			addr = a.X
		case *ssa.Lookup:
			return c.ownedMap(a.X, fn)
		case *ssa.Extract:
			switch t := a.Tuple.(type) {
			case *ssa.Next:
				r, ok := t.Iter.(*ssa.Range)
				return ok && a.Index == 2 && c.ownedMap(r.X, fn)
			case *ssa.Lookup:
				return a.Index == 0 && c.ownedMap(t.X, fn)
			}
			return false
		default:
			return false
		}
	}
	return false
}

// freshElement reports whether addr points into an element of a slice
// that a field of an object fn allocated holds, when every store to that
// field in fn is of a slice fn makes and the object has not escaped
// before instr: a constructor filling the shards of the cache it is
// building (s := &c.shards[i]; s.entries = ...) before returning it.
func freshElement(addr ssa.Value, fn *ssa.Function, instr ssa.Instruction, esc *escapes) bool {
	for i := 0; i <= maxTraceDepth; i++ {
		switch a := addr.(type) {
		case *ssa.FieldAddr:
			addr = a.X
		case *ssa.IndexAddr:
			load, ok := a.X.(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				return false
			}
			fa, ok := load.X.(*ssa.FieldAddr)
			if !ok {
				return false
			}
			alloc, ok := fa.X.(*ssa.Alloc)
			return ok && alloc.Parent() == fn && madeSlicesOnly(alloc, fa.Field) && esc.before(alloc, instr)
		default:
			return false
		}
	}
	return false
}

// madeSlicesOnly reports whether every store to field of alloc stores a
// slice made by make.
func madeSlicesOnly(alloc *ssa.Alloc, field int) bool {
	stored := false
	for _, r := range *alloc.Referrers() {
		fa, ok := r.(*ssa.FieldAddr)
		if !ok || fa.Field != field {
			continue
		}
		for _, u := range *fa.Referrers() {
			st, ok := u.(*ssa.Store)
			if !ok || st.Addr != fa {
				continue
			}
			if _, made := st.Val.(*ssa.MakeSlice); !made {
				return false
			}
			stored = true
		}
	}
	return stored
}

// ownedMap reports whether m is a map made in fn that is only filled with
// new objects, read, ranged over, measured and deleted from: it never
// leaves fn.
func (c *checker) ownedMap(m ssa.Value, fn *ssa.Function) bool {
	mm, ok := m.(*ssa.MakeMap)
	if !ok || mm.Parent() != fn {
		return false
	}
	for _, r := range *mm.Referrers() {
		switch r := r.(type) {
		case *ssa.MapUpdate:
			if r.Map != mm || !c.newObject(r.Value) {
				return false
			}
		case *ssa.Lookup, *ssa.Range, *ssa.DebugRef:
		case *ssa.Call:
			if !isBuiltin(r.Common(), "len") && !isBuiltin(r.Common(), "delete") {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// newObject reports whether v is an object just made: allocated, or the
// result of a function that returns a new object.
func (c *checker) newObject(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Alloc:
		return true
	case *ssa.Call:
		callee := v.Call.StaticCallee()
		return callee != nil && c.fresh(callee, 0)
	}
	return false
}

// capturedUnpublished reports whether free variable fv of closure fn is a
// variable of the enclosing function that never escapes it, and fn runs
// only inside the enclosing function's call (a callback filling a local
// result: msg := Message{}; read(func() { msg.Key = ... })): the
// closure's accesses to it are the enclosing call's own.
func (c *checker) capturedUnpublished(fn *ssa.Function, fv *ssa.FreeVar) bool {
	parent := fn.Parent()
	if parent == nil || !c.runsIn(fn, parent, 0) {
		return false
	}
	alloc, ok := c.caps.bound(fv).(*ssa.Alloc)
	return ok && len(escapePoints(alloc, alloc, 0, c.handsOff, nil)) == 0
}

// insideVar reports whether addr is the address of variable v itself or
// of a field of it (msg.Key for a struct variable msg), not of memory a
// pointer in it leads to (p.last.Key for a pointer variable p).
func insideVar(addr ssa.Value, v ssa.Value) bool {
	for i := 0; i <= maxTraceDepth; i++ {
		if addr == v {
			return true
		}
		fa, ok := addr.(*ssa.FieldAddr)
		if !ok {
			return false
		}
		addr = fa.X
	}
	return false
}

// detached reports whether load, a load of a map or pointer from a
// field, is followed in the same critical section by a store of a new
// map or nil into that field (n := s.notify; s.notify = make(...);
// unlock; range n — or head := l.front; l.front = nil; unlock; walk
// head): what was loaded is no longer reachable by others, and what the
// function does with it afterwards is its own business.
func (c *checker) detached(load *ssa.UnOp) bool {
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok || load.Op != token.MUL {
		return false
	}
	for _, st := range c.replacingStores(load.Parent()) {
		if !sameFieldAddr(st.Addr, fa) || !lockset.After(load, st) {
			continue
		}
		if held := c.heldBefore(load); len(held) > 0 && held.protects(c.heldBefore(st)) {
			return true
		}
	}
	return false
}

// replacingStores returns the stores of fn that put a new map or nil
// into a field.
func (c *checker) replacingStores(fn *ssa.Function) []*ssa.Store {
	if sts, ok := c.replacing[fn]; ok {
		return sts
	}
	var sts []*ssa.Store
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if st, ok := instr.(*ssa.Store); ok && replacement(st.Val) {
				if _, ok := st.Addr.(*ssa.FieldAddr); ok {
					sts = append(sts, st)
				}
			}
		}
	}
	c.replacing[fn] = sts
	return sts
}

// replacement reports whether v, stored into a field, leaves nothing of
// the field's old value there: a new map, or nil.
func replacement(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.MakeMap:
		return true
	case *ssa.Const:
		return v.IsNil()
	}
	return false
}

// sameFieldAddr reports whether a and b address the same field path from
// the same value (&x.f.g twice).
func sameFieldAddr(a, b ssa.Value) bool {
	for i := 0; i < maxTraceDepth; i++ {
		if a == b {
			return true
		}
		fa, ok1 := a.(*ssa.FieldAddr)
		fb, ok2 := b.(*ssa.FieldAddr)
		if !ok1 || !ok2 || fa.Field != fb.Field {
			return false
		}
		a, b = fa.X, fb.X
	}
	return false
}

// fromDetached reports whether v is a detached value (see detached) or
// a node reached from one through its fields, as a loop walking a
// detached list reaches it (for pc := head; pc != nil; pc = pc.next).
func (c *checker) fromDetached(v ssa.Value, seen map[*ssa.Phi]bool) bool {
	switch v := v.(type) {
	case *ssa.Phi:
		if seen[v] {
			return true // decided by the phi's other edges
		}
		seen[v] = true
		found := false
		for _, e := range v.Edges {
			if k, ok := e.(*ssa.Const); ok && k.IsNil() {
				continue
			}
			if !c.fromDetached(e, seen) {
				return false
			}
			found = true
		}
		return found
	case *ssa.UnOp:
		fa, ok := v.X.(*ssa.FieldAddr)
		if !ok || v.Op != token.MUL {
			return false
		}
		return c.detached(v) || c.fromDetached(fa.X, seen)
	}
	return false
}
