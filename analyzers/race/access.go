package race

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An object is a memory location as the analyzer tracks it: a struct
// field (all instances of the struct type together), a package-level
// variable, or a local variable shared by address or by a closure.
type object struct {
	key   string        // identity, unique across packages
	name  string        // reviewer words: "(counter.Counter).n", "pkg.total"
	owner *ssa.Function // the function declaring a local variable, or nil
	// test is set for a field of a struct type, or a package-level
	// variable, declared in a _test.go file: memory of the test's own
	// program rather than of the package under test.
	test bool
	// whole is set for a field of a struct copied or assigned whole: the
	// struct-typed field the access was made through (a pointer, as few
	// objects have one and every bound access copies its object).
	whole *wholeField
}

// A wholeField is the key and name of the struct-typed field that a
// field of a struct copied or assigned whole was accessed through: one
// finding is reported per position and whole field, and the finding
// names both (the copy reads the whole field; the other side may touch
// the one field).
type wholeField struct {
	key, name string
}

// An access is one read or write of an object, as a function makes it
// or as a caller sees it through its calls.
//
// Summaries keep many of them, each call site binding a callee's copy
// (see bind), so what a binding leaves as it is (the object, where the
// access is made, its kind) is kept once, in an accessSite its copies
// share, and what each copy has of its own is kept inline: 208 bytes
// against 320 with all of it inline, on a large package (nats-server's
// server) a third of the analyzer's memory.
type access struct {
	*accessSite

	held heldSet // locks held at the access
	// waited lists the channel and WaitGroup fields the access's
	// function, or a caller on the way to it, waits on before it (see
	// waitedBefore).
	waited []string
	// root and path locate the accessed memory from a value of the
	// function being analysed: root is a *ssa.Parameter, *ssa.FreeVar,
	// *ssa.Alloc or *ssa.Global, or nil when the base is unknown; path
	// lists the fields selected from it (".cfg.timeout"). global is the
	// key of the root when it is a package-level variable, so that
	// accesses summarized in other packages match.
	root   ssa.Value
	global string
	path   string

	chain *callChain // calls from the analysed function down to the access
	// goroutine names the function that a go statement in a callee
	// started, for an access of a goroutine that outlives the call that
	// started it (summary.background).
	goroutine string
	via       ssa.Instruction // the call that reaches it, in the function it is bound into
	inner     ssa.Instruction // the via of the access it was bound from: the call in the callee

	// dyn is the concrete receiver type the access depends on when it was
	// reached through an interface method call on memory the function was
	// handed (the callee was chosen among the implementations): bound at
	// a call that passes a value of another concrete type, it is dropped.
	dyn string

	// conds are the values of boolean parameters of fn the access needs
	// (it runs only where if mut { ... } took that branch); bound at a
	// call passing a constant that contradicts one, it is dropped.
	conds []paramCond

	preEscape bool // the object was allocated in fn and has not escaped yet
	// goEscape: the object was allocated in fn and has escaped only to
	// goroutines fn started with it, whose accesses checkGoroutines
	// pairs with this one.
	goEscape bool
	// goTest: the goroutine the access is made in (see goroutine) was
	// started by a go statement of a _test.go file.
	goTest bool
}

// An accessSite is what an access and its bound copies share: the object,
// where and how the access is made. It is set where the access is made
// (addAccessOf, record, bindFact) and never changed after.
type accessSite struct {
	obj   object
	pos   token.Pos       // start of the access expression, or of the call reaching it
	fn    *ssa.Function   // function containing pos
	instr ssa.Instruction // the load or store, when in this package

	// notes, when not nil, holds what is set only where the access is
	// made, and only for a few.
	notes *accessNotes

	// owners names the struct types that hold the accessed field, the
	// field's own first, then those holding that struct by value
	// (p.counts.Success: Counts, peerStats), as lock classes name them;
	// nil for other memory, and for an access another package made.
	owners []string

	write bool
	// atomic marks an operation of package sync/atomic on the memory
	// (atomic.AddInt64(&s.n, 1)): it races with plain accesses, never
	// with other atomic ones, and says nothing of which lock guards it.
	atomic bool
	// ownBase: the struct whose field is accessed is its own storage (a
	// variable, a value made with new or a composite literal, an element
	// of a slice or array of such structs), not a value some other
	// struct holds in a field; owners then has one type only.
	ownBase bool
}

// accessNotes are the fields of an access that few accesses set, and
// only where the access is made (record, bindFact).
type accessNotes struct {
	// publishes and acquires name what orders the access with others: an
	// atomic flag (a field of type sync/atomic.Bool, Int32, ...) that a
	// write is followed in its block by flag.Store(true) (publishes) and
	// that a read is made only after flag.Load() returned true
	// (acquires); a channel field that is closed after a set-once write
	// (publishes) and that a read has received from (acquires). See
	// publishOrdered.
	publishes, acquires []string
	ext                 string // function of another package performing the access, if any
}

// ext returns the function of another package performing the access, if
// any.
func (a *access) ext() string {
	if a.notes == nil {
		return ""
	}
	return a.notes.ext
}

// publishes returns the flags and channels a write publishes (see
// accessNotes).
func (a *access) publishes() []string {
	if a.notes == nil {
		return nil
	}
	return a.notes.publishes
}

// acquires returns the flags and channels a read acquires (see
// accessNotes).
func (a *access) acquires() []string {
	if a.notes == nil {
		return nil
	}
	return a.notes.acquires
}

// A paramCond is a condition on a parameter (index in Params) and the
// value it must have: the boolean parameter itself, or, when op is not
// zero, the comparison param op val with a constant (if interval > 0).
type paramCond struct {
	param int
	want  bool
	op    token.Token
	val   constant.Value
}

// holds reports whether constant x, passed for the parameter, meets the
// condition; ok is false when the constant settles nothing.
func (pc paramCond) holds(x constant.Value) (holds, ok bool) {
	if x == nil {
		return false, false
	}
	if pc.op == token.ILLEGAL {
		if x.Kind() != constant.Bool {
			return false, false
		}
		return constant.BoolVal(x) == pc.want, true
	}
	if pc.val == nil || x.Kind() != pc.val.Kind() && (!isNumeric(x) || !isNumeric(pc.val)) {
		return false, false
	}
	return constant.Compare(x, pc.op, pc.val) == pc.want, true
}

func isNumeric(x constant.Value) bool {
	switch x.Kind() {
	case constant.Int, constant.Float:
		return true
	}
	return false
}

// loc is the key under which accesses to the same memory match: the
// same path from the same root, to the same object (a field of one struct
// type: fields of different types reached through one interface-typed
// field, h.s.count of two samplers, are different memory).
type loc struct {
	root   ssa.Value
	global string
	path   string
	obj    string
}

func (a *access) loc() loc {
	if a.global != "" {
		return loc{global: a.global, path: a.path, obj: a.obj.key}
	}
	return loc{root: a.root, path: a.path, obj: a.obj.key}
}

// verb returns "reads" or "writes", "atomically" first for an operation
// of package sync/atomic.
func (a *access) verb() string {
	v := "reads"
	if a.write {
		v = "writes"
	}
	if a.atomic {
		v = "atomically " + v
	}
	return v
}

// participle returns "read" or "written", "atomically" first for an
// operation of package sync/atomic.
func (a *access) participle() string {
	p := "read"
	if a.write {
		p = "written"
	}
	if a.atomic {
		p = "atomically " + p
	}
	return p
}

// classifyAddr finds the object that a load or store through addr
// touches. It reports false for memory the analyzer does not track:
// slice, array and map elements, and synchronization values.
func (c *checker) classifyAddr(addr ssa.Value) (object, ssa.Value, string, bool) {
	switch addr := addr.(type) {
	case *ssa.FieldAddr:
		st := derefType(addr.X.Type())
		f := structField(st, addr.Field)
		if f == nil || isSyncType(f.Type()) {
			return object{}, nil, "", false
		}
		root, path, ok := c.trace(addr.X, 0)
		if !ok {
			root, path = nil, ""
		}
		return c.fieldObject(st, f), root, path + "." + f.Name(), true
	case *ssa.Global:
		obj, ok := addr.Object().(*types.Var)
		if !ok || isSyncType(obj.Type()) {
			return object{}, nil, "", false
		}
		return object{key: "global:" + globalKey(obj), name: globalName(obj), test: c.declaredInTest(obj)}, addr, "", true
	case *ssa.Alloc:
		if !addr.Heap || isSyncType(addr.Type()) {
			return object{}, nil, "", false
		}
		return c.localObject(addr), addr, "", true
	case *ssa.FreeVar:
		a := c.caps.allocOf(addr)
		if a == nil || isSyncType(a.Type()) {
			return object{}, nil, "", false
		}
		return c.localObject(a), addr, "", true
	case *ssa.Parameter:
		// *p: the variable a pointer parameter points to; callers bind
		// it to their own variables.
		if isSyncType(addr.Type()) {
			return object{}, nil, "", false
		}
		return object{key: "deref:" + c.pass.Fset.Position(addr.Pos()).String(), name: "*" + addr.Name() + " in " + funcName(addr.Parent())}, addr, "", true
	}
	return object{}, nil, "", false
}

// fieldObject names field f of struct type st: all instances of st
// together, memory of the test program when a test file declares st.
func (c *checker) fieldObject(st types.Type, f *types.Var) object {
	obj := object{key: "field:" + typeKey(st) + "." + f.Name(), name: fieldName(st, f)}
	if n, ok := types.Unalias(st).(*types.Named); ok {
		obj.test = c.declaredInTest(n.Obj())
	}
	return obj
}

// localObject names a local variable shared by reference.
func (c *checker) localObject(a *ssa.Alloc) object {
	kind := "variable "
	if isCaptured(a) {
		kind = "captured variable "
	}
	name := kind + a.Comment + " in " + funcName(a.Parent())
	return object{key: "local:" + c.pass.Fset.Position(a.Pos()).String() + ":" + a.Comment, name: name, owner: a.Parent()}
}

func globalKey(v *types.Var) string {
	if v.Pkg() == nil {
		return v.Name()
	}
	return v.Pkg().Path() + "." + v.Name()
}

// maxTraceDepth bounds the walk from an address to its root.
const maxTraceDepth = 12

// trace follows pointer value v back to the variable or parameter it was
// derived from, returning that root and the field path selected from it.
func (c *checker) trace(v ssa.Value, depth int) (ssa.Value, string, bool) {
	if depth > maxTraceDepth {
		return nil, "", false
	}
	switch v := v.(type) {
	case *ssa.Parameter, *ssa.FreeVar, *ssa.Global, *ssa.Alloc:
		return v, "", true
	case *ssa.Call:
		// A value a call returns: what the callee returns from its
		// parameter (u.get(k) returning u.m[k]), else the object its
		// callee made or found (see resultIndex for the goroutines it
		// left running on it).
		if _, isTuple := v.Type().(*types.Tuple); !isTuple {
			if ret, ok := c.returnedPath(v.Call.StaticCallee()); ok {
				if root, path, ok := c.trace(argument(&v.Call, ret.param), depth+1); ok {
					return root, path + ret.path, true
				}
			}
			return v, "", true
		}
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.Call:
			return v, "", true
		case *ssa.Lookup: // e, ok := m[k]
			if v.Index == 0 && isMap(t.X.Type()) {
				return c.mapElement(t.X, depth)
			}
		case *ssa.Next: // for _, e := range m
			if r, ok := t.Iter.(*ssa.Range); ok && v.Index == 2 && isMap(r.X.Type()) {
				return c.mapElement(r.X, depth)
			}
		}
	case *ssa.Lookup: // m[k]
		if isMap(v.X.Type()) {
			return c.mapElement(v.X, depth)
		}
	case *ssa.IndexAddr: // for _, e := range s: every element in turn
		if rangedIndex(v.Index) {
			root, path, ok := c.trace(v.X, depth+1)
			return root, path + "[]", ok
		}
	case *ssa.Index:
		if rangedIndex(v.Index) {
			root, path, ok := c.trace(v.X, depth+1)
			return root, path + "[]", ok
		}
	case *ssa.FieldAddr:
		f := structField(derefType(v.X.Type()), v.Field)
		if f == nil {
			return nil, "", false
		}
		root, path, ok := c.trace(v.X, depth+1)
		return root, path + "." + f.Name(), ok
	case *ssa.Field:
		f := structField(v.X.Type(), v.Field)
		if f == nil {
			return nil, "", false
		}
		root, path, ok := c.trace(v.X, depth+1)
		return root, path + "." + f.Name(), ok
	case *ssa.UnOp:
		if v.Op == token.MUL {
			return c.trace(v.X, depth+1)
		}
	case *ssa.ChangeType:
		return c.trace(v.X, depth+1)
	case *ssa.MakeInterface:
		return c.trace(v.X, depth+1)
	case *ssa.TypeAssert:
		if !v.CommaOk {
			return c.trace(v.X, depth+1)
		}
	case *ssa.Phi:
		var root ssa.Value
		var path string
		for i, e := range v.Edges {
			if e == v {
				continue
			}
			r, p, ok := c.trace(e, depth+1)
			if !ok || (i > 0 && root != nil && (r != root || p != path)) {
				return nil, "", false
			}
			root, path = r, p
		}
		return root, path, root != nil
	}
	return nil, "", false
}

// A paramPath is a value reached from a parameter through fields and map
// elements.
type paramPath struct {
	param int
	path  string
}

// returnedPath reports whether fn, a function of the package with one
// result, returns on every return the same path from one of its
// parameters (return u.m[k], return s.cfg).
func (c *checker) returnedPath(fn *ssa.Function) (paramPath, bool) {
	if fn == nil || fn.Pkg != c.pkg || fn.Signature.Results().Len() != 1 || len(fn.Blocks) == 0 {
		return paramPath{}, false
	}
	if r, ok := c.retPaths[fn]; ok {
		return r, r.param >= 0
	}
	c.retPaths[fn] = paramPath{param: -1} // while computing it
	out := paramPath{param: -1}
	for _, b := range fn.Blocks {
		ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return)
		if !ok || b == fn.Recover {
			continue
		}
		root, path, ok := c.trace(ret.Results[0], 0)
		p, isParam := root.(*ssa.Parameter)
		if !ok || !isParam || p.Parent() != fn || path == "" {
			out = paramPath{param: -1}
			break
		}
		r := paramPath{param: indexOfParam(fn, p), path: path}
		if out.param >= 0 && out != r { // another return, another path
			out = paramPath{param: -1}
			break
		}
		out = r
	}
	c.retPaths[fn] = out
	return out, out.param >= 0
}

// rangedIndex reports whether i is the index of a range loop over a
// slice or array, as go/ssa lowers it (index := -1; loop: index++): the
// loop visits every element, so goroutines running it meet on the same
// elements, where an element picked by a computed index (a work queue's
// head) is usually one goroutine's own. Other loops over indexes (for i
// := range len(s), or by hand) are not recognized.
func rangedIndex(i ssa.Value) bool {
	add, ok := i.(*ssa.BinOp)
	if !ok || add.Op != token.ADD || !isIntConst(add.Y, 1) {
		return false
	}
	phi, ok := add.X.(*ssa.Phi)
	if !ok || len(phi.Edges) != 2 {
		return false
	}
	start, back := phi.Edges[0], phi.Edges[1]
	return isIntConst(start, -1) && back == ssa.Value(add) || isIntConst(back, -1) && start == ssa.Value(add)
}

// isIntConst reports whether v is the integer constant n.
func isIntConst(v ssa.Value, n int64) bool {
	got, ok := intConst(v)
	return ok && got == n
}

// intConst returns the value of v, an integer constant that fits an
// int64; false for any other value.
func intConst(v ssa.Value) (int64, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return 0, false
	}
	return constant.Int64Val(k.Value)
}

// mapElement traces an element of map m, a pointer the map holds
// (q.m[k].Timestamp): rooted where the map is, inside its contents.
func (c *checker) mapElement(m ssa.Value, depth int) (ssa.Value, string, bool) {
	root, path, ok := c.trace(m, depth+1)
	return root, path + "{}", ok
}

// accessPos returns the start of the expression that instr reads or
// writes through addr.
func (c *checker) accessPos(instr ssa.Instruction, addr ssa.Value) token.Pos {
	pos := instr.Pos()
	if fa, ok := addr.(*ssa.FieldAddr); ok && fa.Pos().IsValid() {
		pos = fa.Pos()
	}
	if !pos.IsValid() {
		pos = addr.Pos()
	}
	return c.exprStart(pos)
}

// typeKey identifies a struct type across packages: a named type by its
// import path and name (generic instances together), any other type as
// written in full.
func typeKey(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Path() + "." + n.Obj().Name()
	}
	return types.TypeString(t, nil)
}
