package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/tools/go/ssa"
)

// A Mode says how a lock is held: exclusively (Write) or shared (Read).
type Mode uint8

// The modes of an acquisition.
const (
	Write Mode = iota // Lock, TryLock, or Lock through a sync.Locker
	Read              // RLock, TryRLock, or Lock through RLocker()
)

func (m Mode) String() string {
	if m == Read {
		return "read"
	}
	return "write"
}

// A Ref is a reference to one mutex, as seen from inside one function.
//
// Class is the lock class: the stable, human-readable name of every mutex
// stored in the same place, such as "bank.mu" (a package-level variable),
// "(bank.Account).mu" (a field of a named struct type),
// "(bank.Bank).state.mu" (a field of an anonymous struct inside a named
// type), "(bank.Account).Mutex" (an embedded mutex), "bank.table[].mu"
// (mutexes in the elements of an array, slice or map), "bank.F.mu" (a
// local variable or parameter of bank.F) or "bank.newMu()" (the result of
// a call).
//
// Inst identifies the instance within the function: an access path such
// as "$0.mu" (field mu of parameter 0), "^1" (free variable 1), "g:bank.mu"
// (a global) or "v:t3.mu" (a value local to the function). Two Refs with the
// same non-empty Inst denote the same mutex as far as the function can
// tell; an empty Inst means the instance is unknown (for example an element
// of a slice at a non-constant index).
type Ref struct {
	Class string
	Inst  string
	// Read is set when the reference denotes the read side of a
	// sync.RWMutex, as returned by RLocker: locking it takes a read lock.
	Read bool
	// Value is the SSA value of the mutex (usually a *sync.Mutex or
	// *sync.RWMutex, or a sync.Locker) when the reference was made inside
	// the function; nil when it comes from a callee's summary.
	Value ssa.Value
	// Param is 1+i when the class is named after parameter i of the
	// function (a mutex passed in as a pointer), 0 otherwise; Suffix is
	// the part of Class after the parameter's own name. A caller renames
	// such a class after its argument.
	Param  int
	Suffix string
	// Kind is what the lock is built from: a mutex of package sync (or
	// a sync.Locker), a channel used as a mutex, or an atomic flag taken
	// by compare-and-swap.
	Kind Kind
}

// A Kind says what a lock is built from.
type Kind uint8

// The kinds of locks.
const (
	// KindMutex is a sync.Mutex, a sync.RWMutex or a sync.Locker.
	KindMutex Kind = iota
	// KindChan is a channel of capacity 1 used as a mutex: a send
	// acquires it, a receive releases it (see chanLocks).
	KindChan
	// KindFlag is an integer or boolean field taken by
	// atomic.CompareAndSwap from its free value, and released by storing
	// that value back (see flagLocks). It is a try-lock: the
	// compare-and-swap never blocks.
	KindFlag
)

func (k Kind) String() string {
	switch k {
	case KindChan:
		return "chan"
	case KindFlag:
		return "flag"
	}
	return "mutex"
}

// Valid reports whether r names a lock class.
func (r Ref) Valid() bool { return r.Class != "" }

// Classifier names the mutexes of one SSA package. Its methods are safe for
// use by one goroutine at a time.
type Classifier struct {
	funcs    []*ssa.Function
	closures map[*ssa.Function][]*ssa.MakeClosure // anonymous function -> its MakeClosures
	stores   map[string][]*ssa.Store              // location class -> stores of lockers and conds there
	chans    map[string]bool                      // classes of the channels used as mutexes (see chanLocks)
	flags    map[string]constant.Value            // classes of the atomic flags used as try-locks, with their free value (see flagLocks)
	lockers  sync.Map                             // lockerKey -> bool; see implementsLocker
	structs  sync.Map                             // *types.Named -> string; see structName
}

// NewClassifier returns a Classifier for the source functions funcs of one
// package (buildssa's SrcFuncs). It indexes the stores of lockers and
// conds of funcs once; afterwards its methods only read, and may be called
// from several goroutines.
func NewClassifier(funcs []*ssa.Function) *Classifier {
	c := &Classifier{funcs: funcs, closures: map[*ssa.Function][]*ssa.MakeClosure{}}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if mc, ok := instr.(*ssa.MakeClosure); ok {
					if f, ok := mc.Fn.(*ssa.Function); ok {
						c.closures[f] = append(c.closures[f], mc)
					}
				}
			}
		}
	}
	c.indexStores()
	return c
}

// Ref returns the reference to the mutex that v points to (v is usually a
// *sync.Mutex, a *sync.RWMutex or a sync.Locker), and false when v cannot
// be named.
func (c *Classifier) Ref(v ssa.Value) (Ref, bool) {
	return c.ref(v, 0)
}

const maxDepth = 12

func (c *Classifier) ref(v ssa.Value, depth int) (Ref, bool) {
	if depth > maxDepth || v == nil {
		return Ref{}, false
	}
	if isInterface(v.Type()) {
		return c.locker(v, depth+1)
	}
	p, ok := c.path(v, depth+1)
	if !ok {
		return Ref{}, false
	}
	p.Value = v
	return p, true
}

// path names the location v points to (or, for a value of struct type, the
// value itself).
func (c *Classifier) path(v ssa.Value, depth int) (Ref, bool) {
	if depth > maxDepth {
		return Ref{}, false
	}
	switch v := v.(type) {
	case *ssa.Global:
		name := v.Name()
		if v.Pkg != nil {
			name = v.Pkg.Pkg.Name() + "." + name
		}
		return Ref{Class: name, Inst: "g:" + v.RelString(nil)}, true
	case *ssa.Alloc:
		name := v.Comment
		if name == "" {
			name = v.Name()
		}
		return Ref{Class: FuncName(v.Parent()) + "." + name, Inst: "v:" + v.Name()}, true
	case *ssa.Parameter:
		idx := paramIndex(v)
		return Ref{Class: FuncName(v.Parent()) + "." + v.Name(), Inst: "$" + strconv.Itoa(idx), Param: idx + 1}, true
	case *ssa.FreeVar:
		if b := c.Binding(v); b != nil {
			if r, ok := c.path(b, depth+1); ok {
				r.Inst = "^" + strconv.Itoa(freeVarIndex(v))
				r.Param, r.Suffix = 0, ""
				return r, true
			}
		}
		return Ref{Class: FuncName(v.Parent()) + "." + v.Name(), Inst: "^" + strconv.Itoa(freeVarIndex(v))}, true
	case *ssa.FieldAddr:
		return c.field(v.X, deref(v.X.Type()), v.Field, depth)
	case *ssa.Field:
		return c.field(v.X, v.X.Type(), v.Field, depth)
	case *ssa.IndexAddr:
		return c.index(v.X, v.Index, depth)
	case *ssa.Index:
		return c.index(v.X, v.Index, depth)
	case *ssa.Lookup:
		r, ok := c.path(v.X, depth+1)
		if !ok {
			return Ref{}, false
		}
		r.Class += "[]"
		r.Suffix += "[]"
		r.Inst = ""
		return r, true
	case *ssa.UnOp:
		if v.Op.String() != "*" {
			return Ref{}, false
		}
		if a, ok := v.X.(*ssa.Alloc); ok {
			if val := CellValue(a); val != nil {
				// A captured variable that only ever holds
				// its initial value (a parameter closures
				// capture): the load is that value.
				return c.path(val, depth+1)
			}
		}
		if fv, ok := v.X.(*ssa.FreeVar); ok {
			// The same variable loaded in the closure: named
			// like that value, as an instance of the free
			// variable.
			if a, ok := c.Binding(fv).(*ssa.Alloc); ok {
				if val := CellValue(a); val != nil {
					r, ok := c.path(val, depth+1)
					if !ok {
						return Ref{}, false
					}
					r.Inst = "^" + strconv.Itoa(freeVarIndex(fv)) + "*"
					r.Param, r.Suffix = 0, ""
					return r, true
				}
			}
		}
		r, ok := c.path(v.X, depth+1)
		if !ok {
			return Ref{}, false
		}
		if r.Inst != "" {
			r.Inst += "*"
		}
		return r, true
	case *ssa.ChangeType:
		return c.path(v.X, depth+1)
	case *ssa.Convert:
		return c.path(v.X, depth+1)
	case *ssa.MakeInterface:
		return c.path(v.X, depth+1)
	case *ssa.TypeAssert:
		return c.path(v.X, depth+1)
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Call:
			return c.callResult(t)
		case *ssa.Lookup, *ssa.TypeAssert:
			// The value of a comma-ok map lookup or type assertion
			// (m, ok := locks[k]).
			if v.Index == 0 {
				return c.path(t, depth+1)
			}
		}
	case *ssa.Call:
		return c.callResult(v)
	case *ssa.Phi:
		var first Ref
		for i, e := range v.Edges {
			if e == v {
				continue
			}
			r, ok := c.path(e, depth+1)
			if !ok {
				return Ref{}, false
			}
			if i == 0 || first.Class == "" {
				first = r
				continue
			}
			if r.Class != first.Class {
				return Ref{}, false
			}
			if r.Inst != first.Inst {
				first.Inst = ""
			}
		}
		if first.Class == "" {
			return Ref{}, false
		}
		return first, true
	}
	return Ref{}, false
}

// field names field i of the struct type st reached through x.
func (c *Classifier) field(x ssa.Value, st types.Type, i int, depth int) (Ref, bool) {
	s := structOf(st)
	if s == nil || i < 0 || i >= s.NumFields() {
		return Ref{}, false
	}
	f := s.Field(i).Name()
	base, baseOK := c.path(x, depth+1)
	var r Ref
	if n := namedOf(st); n != nil && !isSyncType(n) {
		r.Class = "(" + c.structName(n) + ")." + f
	} else if baseOK {
		r.Class = base.Class + "." + f
		r.Param, r.Suffix = base.Param, base.Suffix+"."+f
	} else {
		return Ref{}, false
	}
	if baseOK && base.Inst != "" {
		r.Inst = base.Inst + "." + f
	}
	return r, true
}

// index names an element of the array, slice or pointer to array x.
func (c *Classifier) index(x, idx ssa.Value, depth int) (Ref, bool) {
	r, ok := c.path(x, depth+1)
	if !ok {
		return Ref{}, false
	}
	r.Class += "[]"
	r.Suffix += "[]"
	if k, isConst := idx.(*ssa.Const); isConst && r.Inst != "" && k.Value != nil && k.Value.Kind() == constant.Int {
		r.Inst += "[" + k.Value.ExactString() + "]"
	} else {
		r.Inst = ""
	}
	return r, true
}

// callResult names a mutex returned by a call: after the callee when it is
// static, like "bank.newMu()".
func (c *Classifier) callResult(call *ssa.Call) (Ref, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil {
		return Ref{}, false
	}
	return Ref{Class: FuncName(fn) + "()"}, true
}

// Binding returns the value bound to the free variable v by the
// MakeClosures of its function, when they all bind the same value, or nil.
func (c *Classifier) Binding(v *ssa.FreeVar) ssa.Value {
	idx := freeVarIndex(v)
	var found ssa.Value
	for _, mc := range c.closures[v.Parent()] {
		if idx >= len(mc.Bindings) || (found != nil && found != mc.Bindings[idx]) {
			return nil
		}
		found = mc.Bindings[idx]
	}
	return found
}

// locker resolves a sync.Locker (or other interface) value to the mutex it
// holds: &mu converted to an interface, rw.RLocker(), cond.L, or a value
// loaded from a variable or field to which the package only ever stores
// lockers of one class.
func (c *Classifier) locker(v ssa.Value, depth int) (Ref, bool) {
	if depth > maxDepth {
		return Ref{}, false
	}
	switch v := v.(type) {
	case *ssa.MakeInterface:
		if isInterface(v.X.Type()) {
			return c.locker(v.X, depth+1)
		}
		if !isMutexPtr(v.X.Type()) {
			// A *T whose Lock is its embedded mutex's: that mutex.
			if i, ok := embeddedMutex(v.X.Type()); ok {
				return c.field(v.X, deref(v.X.Type()), i, depth+1)
			}
			return Ref{}, false
		}
		r, ok := c.path(v.X, depth+1)
		if ok {
			r.Value = v.X
		}
		return r, ok
	case *ssa.ChangeInterface:
		return c.locker(v.X, depth+1)
	case *ssa.Call:
		if fn := v.Call.StaticCallee(); fn != nil && isSyncMethod(fn, "RWMutex", "RLocker") && len(v.Call.Args) == 1 {
			r, ok := c.path(v.Call.Args[0], depth+1)
			if ok {
				r.Read = true
				r.Value = v.Call.Args[0]
			}
			return r, ok
		}
	case *ssa.UnOp:
		if v.Op.String() != "*" {
			return Ref{}, false
		}
		if fa, ok := v.X.(*ssa.FieldAddr); ok && isSyncNamed(deref(fa.X.Type()), "Cond") {
			return c.condLocker(fa.X, depth+1)
		}
		if r, ok := c.stored(v.X, depth+1, c.locker); ok {
			return r, true
		}
		// A Locker whose dynamic value is not known here (made by a
		// function of another package, a spin lock over atomics): the
		// lock is whatever the variable or field holding it refers to,
		// named after that variable or field.
		r, ok := c.path(v.X, depth+1)
		if ok {
			r.Class += "(Locker)"
			if r.Inst != "" {
				r.Inst += "*"
			}
			r.Value = v
		}
		return r, ok
	case *ssa.Phi:
		var first Ref
		for _, e := range v.Edges {
			if e == v {
				continue
			}
			r, ok := c.locker(e, depth+1)
			if !ok || (first.Class != "" && (r.Class != first.Class || r.Read != first.Read)) {
				return Ref{}, false
			}
			if first.Class != "" && first.Inst != r.Inst {
				r.Inst = ""
			}
			first = r
		}
		return first, first.Class != ""
	}
	return Ref{}, false
}

// CondLocker resolves the locker L of the *sync.Cond value cond.
func (c *Classifier) CondLocker(cond ssa.Value) (Ref, bool) {
	return c.condLocker(cond, 0)
}

func (c *Classifier) condLocker(cond ssa.Value, depth int) (Ref, bool) {
	if depth > maxDepth {
		return Ref{}, false
	}
	switch cv := cond.(type) {
	case *ssa.Call:
		if fn := cv.Call.StaticCallee(); fn != nil && fn.Pkg != nil && fn.Pkg.Pkg.Path() == "sync" && fn.Name() == "NewCond" && len(cv.Call.Args) == 1 {
			return c.locker(cv.Call.Args[0], depth+1)
		}
		return Ref{}, false
	case *ssa.UnOp:
		if cv.Op.String() == "*" {
			return c.stored(cv.X, depth+1, c.condLocker)
		}
		return Ref{}, false
	}
	// A Cond variable or field: find the stores to its L field.
	p, ok := c.path(cond, depth+1)
	if !ok {
		return Ref{}, false
	}
	key := p.Class + ".L"
	if p.Inst == "" {
		// Not a tracked location: look for stores to a Cond
		// composite literal in place.
		key = ""
	}
	var found Ref
	for _, val := range c.storesTo(key, cond) {
		r, ok := c.locker(val, depth+1)
		if !ok || (found.Class != "" && (found.Class != r.Class || found.Read != r.Read)) {
			return Ref{}, false
		}
		found = r
	}
	if found.Class == "" {
		return Ref{}, false
	}
	found.Inst = ""
	return found, true
}

// stored resolves the value loaded from addr by looking at every store to
// the same location in the package; it succeeds when they all resolve to
// one class. The instance is known when every store puts there a lock
// found at the same place relative to the stored-into object (q.cond =
// sync.NewCond(q.mu.RLocker()) makes the load of p.cond lock p.mu).
func (c *Classifier) stored(addr ssa.Value, depth int, resolve func(ssa.Value, int) (Ref, bool)) (Ref, bool) {
	p, ok := c.path(addr, depth+1)
	if !ok {
		return Ref{}, false
	}
	var found Ref
	rel, relOK := "", true
	resolved := 0
	for _, st := range c.stores[p.Class] {
		if k, ok := st.Val.(*ssa.Const); ok && k.IsNil() {
			continue // a reset (r.cond = nil) holds no lock
		}
		r, ok := resolve(st.Val, depth+1)
		if !ok || (found.Class != "" && (found.Class != r.Class || found.Read != r.Read)) {
			return Ref{}, false
		}
		found = r
		sp, _ := c.path(st.Addr, depth+1)
		base := parentPath(sp.Inst)
		var here string
		switch {
		case base != "" && strings.HasPrefix(r.Inst, base):
			here = r.Inst[len(base):]
		default:
			// The stored-into object has no instance name (a call's
			// result: e, s := newExecutor()); the lock is still at a
			// known place relative to it when both hang off the same
			// value (e.cond = sync.NewCond(e.mu.RLocker())).
			here = relativeTo(st.Addr, r.Value)
		}
		resolved++
		if here == "" || (resolved > 1 && rel != here) {
			relOK = false
			continue
		}
		rel = here
	}
	if found.Class == "" {
		return Ref{}, false
	}
	found.Inst = ""
	if base := parentPath(p.Inst); relOK && base != "" && rel != "" {
		found.Inst = base + rel
	}
	found.Value = nil
	return found, true
}

// relativeTo returns the field path (".mu", ".state.mu") that leads from
// the object whose field addr is (&x.f) to the mutex pointer v (&x.mu),
// or "" when v is not a field reached from that same object.
func relativeTo(addr, v ssa.Value) string {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok || v == nil {
		return ""
	}
	rel := ""
	for range maxDepth {
		va, ok := v.(*ssa.FieldAddr)
		if !ok {
			return ""
		}
		s := structOf(deref(va.X.Type()))
		if s == nil {
			return ""
		}
		rel = "." + s.Field(va.Field).Name() + rel
		if va.X == fa.X {
			return rel
		}
		v = va.X
	}
	return ""
}

// parentPath strips the last field selection of an instance path:
// "$0.cond" is "$0"; "" when inst does not end in a field.
func parentPath(inst string) string {
	i := strings.LastIndexByte(inst, '.')
	if i <= 0 || strings.ContainsAny(inst[i:], "*[") {
		return ""
	}
	return inst[:i]
}

// storesTo returns the values the package stores to locations of class
// key, and, when base is not nil, to its L field directly.
func (c *Classifier) storesTo(key string, base ssa.Value) []ssa.Value {
	var out []ssa.Value
	if base != nil {
		if refs := base.Referrers(); refs != nil {
			for _, r := range *refs {
				fa, ok := r.(*ssa.FieldAddr)
				if !ok || fa.X != base {
					continue
				}
				for _, rr := range *fa.Referrers() {
					if st, ok := rr.(*ssa.Store); ok && st.Addr == fa {
						out = append(out, st.Val)
					}
				}
			}
		}
	}
	if key == "" {
		return out
	}
	for _, st := range c.stores[key] {
		out = append(out, st.Val)
	}
	return out
}

func (c *Classifier) indexStores() {
	c.stores = map[string][]*ssa.Store{}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !mayHoldLocker(st.Val.Type()) {
					continue
				}
				if p, ok := c.path(st.Addr, 0); ok {
					c.stores[p.Class] = append(c.stores[p.Class], st)
				}
			}
		}
	}
}

func mayHoldLocker(t types.Type) bool {
	if isInterface(t) {
		return true
	}
	if pt, ok := types.Unalias(t).(*types.Pointer); ok {
		return isSyncNamed(pt.Elem(), "Cond")
	}
	return false
}

// FuncName returns the name of fn as a reviewer reads it:
// "bank.Transfer", "(*bank.Account).Deposit", "bank.Transfer$1" for a
// closure; the body of a range-over-func loop has its function's name.
func FuncName(fn *ssa.Function) string {
	if fn == nil {
		return "?"
	}
	if p := fn.Parent(); p != nil {
		if IsLoopBody(fn) {
			// The body of a range-over-func loop is its
			// function's own code.
			return FuncName(p)
		}
		return FuncName(p) + strings.TrimPrefix(fn.Name(), p.Name())
	}
	qual := func(p *types.Package) string { return p.Name() }
	if m, ok := fn.Object().(*types.Func); ok && strings.HasSuffix(fn.Name(), "$bound") {
		// The wrapper of a method value x.m.
		if recv := m.Signature().Recv(); recv != nil {
			return "method value (" + types.TypeString(recv.Type(), qual) + ")." + m.Name()
		}
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), qual) + ")." + fn.Name()
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Name() + "." + fn.Name()
	}
	if obj := fn.Object(); obj != nil && obj.Pkg() != nil {
		return obj.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// structName returns the name the lock classes of the fields of the
// named type n give it: the name of the type whose declaration declares
// the struct, for a type defined from another (type ackHandler Stream:
// (*Stream)(h) converts between them, and h.mu is the stream's mutex).
func (c *Classifier) structName(n *types.Named) string {
	if v, ok := c.structs.Load(n); ok {
		return v.(string)
	}
	name := typeName(n)
	if o := declaringType(n); o != nil {
		name = typeName(o)
	}
	c.structs.Store(n, name)
	return name
}

// declaringType returns the package-level type whose declaration
// declares the struct type underlying n (n itself, or the type n was
// defined from): of the types of n's package with that very struct
// underlying, the last declared before its first field. It returns nil
// when there is none (a generic type, a type local to a function, an
// empty struct).
func declaringType(n *types.Named) *types.Named {
	n = n.Origin()
	st, ok := n.Underlying().(*types.Struct)
	pkg := n.Obj().Pkg()
	if !ok || st.NumFields() == 0 || pkg == nil || n.TypeParams().Len() > 0 {
		return nil
	}
	first := st.Field(0).Pos()
	var best *types.Named
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || tn.Pos() > first {
			continue
		}
		m, ok := tn.Type().(*types.Named)
		if !ok || m.Underlying() != types.Type(st) {
			continue
		}
		if best == nil || tn.Pos() > best.Obj().Pos() {
			best = m
		}
	}
	return best
}

func typeName(n *types.Named) string {
	obj := n.Origin().Obj()
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Name() + "." + obj.Name()
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		if p, ok := coreType(tp).(*types.Pointer); ok {
			return p.Elem()
		}
	}
	return t
}

func namedOf(t types.Type) *types.Named {
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// structOf returns the struct type underlying t, looking through type
// parameters whose constraint has a struct core type.
func structOf(t types.Type) *types.Struct {
	t = types.Unalias(t)
	if tp, ok := t.(*types.TypeParam); ok {
		t = coreType(tp)
		if t == nil {
			return nil
		}
	}
	s, _ := t.Underlying().(*types.Struct)
	return s
}

// coreType returns the single underlying type of the terms of tp's
// constraint, or nil.
func coreType(tp *types.TypeParam) types.Type {
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var core types.Type
	for i := 0; i < iface.NumEmbeddeds(); i++ {
		switch e := iface.EmbeddedType(i).(type) {
		case *types.Union:
			for j := 0; j < e.Len(); j++ {
				u := e.Term(j).Type().Underlying()
				if core != nil && !types.Identical(core, u) {
					return nil
				}
				core = u
			}
		default:
			u := e.Underlying()
			if _, isIface := u.(*types.Interface); isIface {
				continue
			}
			if core != nil && !types.Identical(core, u) {
				return nil
			}
			core = u
		}
	}
	return core
}

func isInterface(t types.Type) bool {
	_, ok := types.Unalias(t).Underlying().(*types.Interface)
	if _, isTP := types.Unalias(t).(*types.TypeParam); isTP {
		return false
	}
	return ok
}

// isMutexPtr reports whether t is *sync.Mutex or *sync.RWMutex.
func isMutexPtr(t types.Type) bool {
	p, ok := types.Unalias(t).(*types.Pointer)
	return ok && (isSyncNamed(p.Elem(), "Mutex") || isSyncNamed(p.Elem(), "RWMutex"))
}

// embeddedMutex returns the index of the sync.Mutex or sync.RWMutex
// field embedded in the struct that pointer type t points to, when that
// mutex's Lock is the one *T has (T does not declare its own).
func embeddedMutex(t types.Type) (int, bool) {
	p, ok := types.Unalias(t).(*types.Pointer)
	if !ok {
		return 0, false
	}
	s := structOf(p.Elem())
	if s == nil {
		return 0, false
	}
	if n := namedOf(p.Elem()); n != nil {
		for i := 0; i < n.NumMethods(); i++ {
			if name := n.Method(i).Name(); name == "Lock" || name == "Unlock" {
				return 0, false
			}
		}
	}
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		if f.Embedded() && (isSyncNamed(f.Type(), "Mutex") || isSyncNamed(f.Type(), "RWMutex")) {
			return i, true
		}
	}
	return 0, false
}

func isSyncType(n *types.Named) bool {
	obj := n.Obj()
	return obj.Pkg() != nil && obj.Pkg().Path() == "sync"
}

func isSyncNamed(t types.Type, name string) bool {
	n := namedOf(t)
	return n != nil && isSyncType(n) && n.Obj().Name() == name
}

// isSyncMethod reports whether fn is the method name of sync.recv (or of
// *sync.recv).
func isSyncMethod(fn *ssa.Function, recv, name string) bool {
	if fn.Name() != name || fn.Signature.Recv() == nil {
		return false
	}
	return isSyncNamed(deref(fn.Signature.Recv().Type()), recv)
}

func paramIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i
		}
	}
	return -1
}

func freeVarIndex(v *ssa.FreeVar) int {
	for i, q := range v.Parent().FreeVars {
		if q == v {
			return i
		}
	}
	return -1
}

// fieldClosureBindings returns, for the call common of a function loaded
// from a field (x.f()) that may be the closure fn, the values of fn's free
// variables in the caller that are known: a closure stored into the
// field of the very value it captures (x.f = func() { x.mu.Lock() })
// binds that free variable to x. Other entries are nil; the result is nil
// when nothing is known.
func (c *Classifier) fieldClosureBindings(common *ssa.CallCommon, fn *ssa.Function) []ssa.Value {
	load, ok := common.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || len(fn.FreeVars) == 0 {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	var out []ssa.Value
	for _, mc := range c.closures[fn] {
		for _, ref := range *mc.Referrers() {
			st, ok := ref.(*ssa.Store)
			if !ok || st.Val != mc {
				continue
			}
			sfa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || sfa.Field != fa.Field || !types.Identical(sfa.X.Type(), fa.X.Type()) {
				continue
			}
			binds := make([]ssa.Value, len(mc.Bindings))
			for k, b := range mc.Bindings {
				switch {
				case b == sfa.X:
					binds[k] = fa.X
				case isLoadOf(sfa.X, b):
					// x captured by reference: the variable holds
					// what the caller loaded the field from.
					binds[k] = pointee{fa.X}
				}
			}
			if out != nil && !sameBindings(out, binds) {
				return nil // stores that disagree
			}
			out = binds
		}
	}
	return out
}

// CellValue returns the value the variable a, captured by closures,
// always holds (a parameter a function literal captures): the one value
// stored into it, when nothing else stores into it (no closure capturing
// it assigns it) and its address is only loaded or captured. It returns
// nil otherwise.
func CellValue(a *ssa.Alloc) ssa.Value {
	if !a.Heap {
		return nil
	}
	var val ssa.Value
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != a || r.Val == a || val != nil {
				return nil
			}
			val = r.Val
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return nil
			}
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return nil
			}
			for i, b := range r.Bindings {
				if b == a && (i >= len(fn.FreeVars) || !onlyLoaded(fn.FreeVars[i])) {
					return nil
				}
			}
		case *ssa.DebugRef:
		default:
			return nil
		}
	}
	return val
}

// onlyLoaded reports whether the free variable fv, a captured variable's
// address, is only loaded in its closure.
func onlyLoaded(fv *ssa.FreeVar) bool {
	for _, r := range *fv.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// A pointee stands, among a closure's bindings, for the content of a
// variable the closure captured by reference, when only that content is
// known: paths through the free variable start with a dereference.
type pointee struct{ ssa.Value }

// isLoadOf reports whether v is a load of the variable addr.
func isLoadOf(v, addr ssa.Value) bool {
	u, ok := v.(*ssa.UnOp)
	return ok && u.Op == token.MUL && u.X == addr
}

func sameBindings(a, b []ssa.Value) bool {
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

// selfReceiver returns, for the interface method call common on a value
// loaded from a field (x.f.M()), the receiver the method gets when every
// store to that field in the package stores the very value the field
// belongs to (x.f = x: a delegate set to itself): x. It returns nil
// otherwise.
func (c *Classifier) selfReceiver(common *ssa.CallCommon) ssa.Value {
	if !common.IsInvoke() {
		return nil
	}
	load, ok := common.Value.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	p, ok := c.path(fa, 0)
	if !ok || len(c.stores[p.Class]) == 0 {
		return nil
	}
	for _, st := range c.stores[p.Class] {
		mi, ok := st.Val.(*ssa.MakeInterface)
		sfa, isField := st.Addr.(*ssa.FieldAddr)
		if !ok || !isField || !sameVar(mi.X, sfa.X) {
			return nil
		}
	}
	return fa.X
}

// sameVar reports whether a and b are the same value, or loads of the
// same variable.
func sameVar(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	la, ok := a.(*ssa.UnOp)
	return ok && la.Op == token.MUL && isLoadOf(b, la.X)
}
