package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// rtName is the name under which rewritten files import the runtime.
const rtName = "confirmrt"

// unsafeName is the name under which rewritten files import unsafe for the
// Read and Write points.
const unsafeName = "confirmunsafe"

// Replaced names: package path -> name -> replacement in the runtime.
var replacedNames = map[string]map[string]string{
	"sync": set("Mutex", "RWMutex", "WaitGroup", "Once", "Cond", "Locker",
		"NewCond", "OnceFunc", "OnceValue", "OnceValues"),
	"sync/atomic": set("Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Bool", "Value", "Pointer",
		"AddInt32", "AddInt64", "AddUint32", "AddUint64", "AddUintptr",
		"LoadInt32", "LoadInt64", "LoadUint32", "LoadUint64", "LoadUintptr", "LoadPointer",
		"StoreInt32", "StoreInt64", "StoreUint32", "StoreUint64", "StoreUintptr", "StorePointer",
		"SwapInt32", "SwapInt64", "SwapUint32", "SwapUint64", "SwapUintptr", "SwapPointer",
		"CompareAndSwapInt32", "CompareAndSwapInt64", "CompareAndSwapUint32",
		"CompareAndSwapUint64", "CompareAndSwapUintptr", "CompareAndSwapPointer",
		"AndInt32", "AndInt64", "AndUint32", "AndUint64", "AndUintptr",
		"OrInt32", "OrInt64", "OrUint32", "OrUint64", "OrUintptr"),
	"time":    set("Sleep", "Now", "Since", "Until", "After", "Tick", "NewTimer", "NewTicker", "AfterFunc"),
	"context": set("WithCancel", "WithCancelCause", "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause"),
	"math/rand": prefixed("Rand", "ExpFloat64", "Float32", "Float64", "Int", "Int31", "Int31n", "Int63", "Int63n",
		"Intn", "NormFloat64", "Perm", "Read", "Shuffle", "Uint32", "Uint64"),
	"math/rand/v2": prefixed("Rand2", "ExpFloat64", "Float32", "Float64", "Int", "Int32", "Int32N", "Int64", "Int64N",
		"IntN", "N", "NormFloat64", "Perm", "Shuffle", "Uint", "Uint32", "Uint32N", "Uint64", "Uint64N", "UintN"),
	"testing": set("AllocsPerRun"),
	"runtime": set("Gosched"),
	"os":      set("Exit"),
	"log":     set("Fatal", "Fatalf", "Fatalln"),
}

// timeMethods are the methods of the time package's Timer and Ticker that
// are rewritten at their call sites (x.Stop() -> confirmrt.TimerStop(x)):
// a timer made under control is one of the virtual clock.
var timeMethods = map[string]map[string]string{
	"Timer":  {"Stop": "TimerStop", "Reset": "TimerReset"},
	"Ticker": {"Stop": "TickerStop", "Reset": "TickerReset"},
}

// prefixed maps each name to itself with a prefix.
func prefixed(prefix string, names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = prefix + n
	}
	return m
}

func set(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = n
	}
	return m
}

// A fileRewriter collects the edits of one file.
type fileRewriter struct {
	fset     *token.FileSet
	info     *types.Info
	pkg      *types.Package
	file     *ast.File
	filename string // absolute path of the original file
	tf       *token.File
	ed       *editor
	names    *namer
	isTest   bool
	// keepReal holds the sync type references that must stay real (fallback).
	keepReal map[token.Pos]bool

	// outside reports whether a package outside the standard library
	// runs uncontrolled and may synchronize (see loaded.outsideSync).
	outside func(path string) bool
	// stack holds the ancestors of the node being visited.
	stack []ast.Node

	usesRT, usesUnsafe bool
	rewrittenPkgRefs   map[*ast.Ident]bool // package qualifiers whose selector was replaced
	handled            map[ast.Node]bool   // nodes lowered by an enclosing construct
	recv2              map[*ast.UnaryExpr]bool
	accessed           map[ast.Expr]bool // accesses made scheduling points
	sink               *sink
	tests              []testFunc
}

// A testFunc is a top-level test function that was wrapped.
type testFunc struct {
	name string
	pos  token.Position
}

// sink gathers what the rewrite of a package reports.
type sink struct {
	notes []string
	// uncontrolled are the notes of limit (see Result.Uncontrolled).
	uncontrolled []string
	objects      map[string][]string // "file:line" -> descriptions
}

// note adds a note that limits nothing the scheduler controls.
func (s *sink) note(format string, args ...any) {
	s.notes = append(s.notes, fmt.Sprintf(format, args...))
}

// limit adds a note on a construct whose operations are not scheduling
// points (see Result.Uncontrolled).
func (s *sink) limit(format string, args ...any) {
	n := fmt.Sprintf(format, args...)
	s.notes = append(s.notes, n)
	s.uncontrolled = append(s.uncontrolled, n)
}

func (s *sink) object(pos token.Position, what string) {
	if what == "" {
		return
	}
	key := fmt.Sprintf("%s:%d", pos.Filename, pos.Line)
	for _, w := range s.objects[key] {
		if w == what {
			return
		}
	}
	s.objects[key] = append(s.objects[key], what)
}

// namer hands out identifiers that cannot clash with the user's.
type namer struct {
	prefix string
	n      int
	idents map[string]bool // every identifier of the package's files
}

// taken reports whether the package uses the identifier name.
func (n *namer) taken(name string) bool { return n.idents[name] }

func (n *namer) next(kind string) string {
	n.n++
	return fmt.Sprintf("%s%s%d", n.prefix, kind, n.n)
}

func itoa(i int) string { return strconv.Itoa(i) }

func (r *fileRewriter) off(p token.Pos) int { return r.tf.Offset(p) }

func (r *fileRewriter) text(n ast.Node) string {
	return string(r.ed.src[r.off(n.Pos()):r.off(n.End())])
}

func (r *fileRewriter) position(p token.Pos) token.Position { return r.fset.Position(p) }

// depth converts a stack depth to an edit depth; statement prefixes use the
// odd depth just above their statement.
func depth(stack int) int { return 2 * stack }

// rewrite walks the file and records every edit.
func (r *fileRewriter) rewrite() {
	var stack []ast.Node
	ast.Inspect(r.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		d := depth(len(stack))
		var parent ast.Node
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		stack = append(stack, n)
		r.stack = stack
		r.visit(n, parent, d)
		return true
	})
}

func (r *fileRewriter) visit(n, parent ast.Node, d int) {
	switch n := n.(type) {
	case *ast.FuncDecl:
		r.wrapTest(n)
	case *ast.AssignStmt:
		if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
			if u, ok := ast.Unparen(n.Rhs[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				r.recv2[u] = true
			}
		}
	case *ast.ValueSpec:
		if len(n.Names) == 2 && len(n.Values) == 1 {
			if u, ok := ast.Unparen(n.Values[0]).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
				r.recv2[u] = true
			}
		}
	case *ast.SendStmt:
		if !r.handled[n] {
			r.send(n, parent, d)
		}
	case *ast.UnaryExpr:
		if n.Op == token.ARROW && !r.handled[n] {
			r.recv(n, d)
		}
	case *ast.CallExpr:
		r.call(n, d)
	case *ast.SelectorExpr:
		r.selector(n)
	case *ast.Ident:
		if sel, ok := parent.(*ast.SelectorExpr); !ok || sel.Sel != n {
			r.dotImported(n)
		}
	case *ast.GoStmt:
		r.goStmt(n, d)
	case *ast.RangeStmt:
		r.rangeChan(n, d)
	case *ast.SelectStmt:
		r.selectStmt(n, d)
	}
}

// chanType returns the channel type of expression e, or nil when e is not
// a channel the rewrite can handle (type parameters are left alone).
func (r *fileRewriter) chanType(e ast.Expr) *types.Chan {
	t := r.info.TypeOf(e)
	if t == nil {
		return nil
	}
	if _, ok := types.Unalias(t).(*types.TypeParam); ok {
		return nil
	}
	c, _ := t.Underlying().(*types.Chan)
	return c
}

// skipped notes an access left without its point: the race oracle does
// not see it, but the scheduler controls as much as without it.
func (r *fileRewriter) skipped(n ast.Node, what string) {
	r.sink.note("%s: %s not instrumented", r.position(n.Pos()), what)
}

// unscheduled notes a synchronizing operation left as it is: it is not a
// scheduling point.
func (r *fileRewriter) unscheduled(n ast.Node, what string) {
	r.sink.limit("%s: %s not instrumented", r.position(n.Pos()), what)
}

// recv lowers <-ch to confirmrt.Recv(ch) or, in a comma-ok assignment,
// confirmrt.Recv2(ch).
func (r *fileRewriter) recv(u *ast.UnaryExpr, d int) {
	if r.chanType(u.X) == nil {
		r.unscheduled(u, "receive on a channel of type parameter type")
		return
	}
	fn := "Recv"
	if r.recv2[u] {
		fn = "Recv2"
	}
	r.usesRT = true
	r.ed.replace(r.off(u.OpPos), r.off(u.OpPos)+2, d, rtName+"."+fn+"(")
	r.ed.close(r.off(u.X.End()), d, ")")
	r.sink.object(r.position(u.Pos()), r.describeChan(u.X))
}

// sameType reports whether v can be passed where the element type of c is
// inferred from the channel: v is untyped or has exactly that type.
func (r *fileRewriter) sameType(c *types.Chan, v ast.Expr) bool {
	tv := r.info.Types[v]
	if tv.IsNil() || tv.Value != nil {
		return true
	}
	return tv.Type != nil && types.Identical(tv.Type, c.Elem())
}

// send lowers ch <- v.
func (r *fileRewriter) send(s *ast.SendStmt, parent ast.Node, d int) {
	c := r.chanType(s.Chan)
	if c == nil {
		r.unscheduled(s, "send on a channel of type parameter type")
		return
	}
	r.usesRT = true
	r.sink.object(r.position(s.Pos()), r.describeChan(s.Chan))
	chEnd, vPos, vEnd := r.off(s.Chan.End()), r.off(s.Value.Pos()), r.off(s.Value.End())
	switch {
	case r.sameType(c, s.Value):
		r.ed.open(r.off(s.Pos()), d, rtName+".Send(")
		r.ed.replace(chEnd, vPos, d, ", ")
		r.ed.close(vEnd, d, ")")
	case inList(parent, s):
		// Assign the value to a variable of the element type first, so
		// that it is converted as the send would convert it.
		ch, v := r.names.next("ch"), r.names.next("v")
		r.ed.open(r.off(s.Pos()), d, "{ "+ch+" := ")
		r.ed.replace(chEnd, vPos, d, "; "+v+" := "+rtName+".Zero("+ch+"); "+v+" = ")
		r.ed.close(vEnd, d, "; "+rtName+".Send("+ch+", "+v+") }")
	case r.pure(s.Chan):
		// Send(ch, Conv(ch)(v)): ch has no side effects, so it may be
		// evaluated twice.
		ch, err := flatten(r.text(s.Chan))
		if err != nil {
			r.ed.fail(err)
			return
		}
		r.ed.open(r.off(s.Pos()), d, rtName+".Send(")
		r.ed.replace(chEnd, vPos, d, ", "+rtName+".Conv("+ch+")(")
		r.ed.close(vEnd, d, "))")
	default:
		r.unscheduled(s, "send of a converted value in a simple statement")
	}
}

// pure reports whether e is a variable or field path without calls.
func (r *fileRewriter) pure(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.Ident:
		return true
	case *ast.ParenExpr:
		return r.pure(x.X)
	case *ast.SelectorExpr:
		return r.pure(x.X)
	case *ast.StarExpr:
		return r.pure(x.X)
	}
	return false
}

// inList reports whether statement s is an element of a statement list of
// parent (so a block may replace it).
func inList(parent ast.Node, s ast.Stmt) bool {
	var list []ast.Stmt
	switch p := parent.(type) {
	case *ast.BlockStmt:
		list = p.List
	case *ast.CaseClause:
		list = p.Body
	case *ast.CommClause:
		list = p.Body
	case *ast.LabeledStmt:
		return true
	}
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// builtin returns the name of the builtin that call calls, or "".
func (r *fileRewriter) builtin(call *ast.CallExpr) string {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return ""
	}
	if b, ok := r.info.Uses[id].(*types.Builtin); ok {
		return b.Name()
	}
	return ""
}

// call lowers close(ch), make(chan T, n), t.Parallel(), t.Run and
// t.Cleanup.
func (r *fileRewriter) call(call *ast.CallExpr, d int) {
	switch r.builtin(call) {
	case "close":
		if len(call.Args) != 1 {
			return
		}
		if r.chanType(call.Args[0]) == nil {
			r.unscheduled(call, "close of a channel of type parameter type")
			return
		}
		fun := ast.Unparen(call.Fun)
		r.usesRT = true
		r.ed.replace(r.off(fun.Pos()), r.off(fun.End()), d, rtName+".Close")
		r.sink.object(r.position(call.Pos()), r.describeChan(call.Args[0]))
		return
	case "make":
		r.makeChan(call, d)
		return
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if s := r.info.Selections[sel]; s != nil && s.Obj().Pkg() != nil && s.Obj().Pkg().Path() == "log" && strings.HasPrefix(s.Obj().Name(), "Fatal") {
			r.sink.note("%s: (*log.Logger).%s exits the process for real, not only the execution", r.position(call.Pos()), s.Obj().Name())
		}
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		switch r.testingTMethod(sel) {
		case "Parallel":
			// t.Parallel() -> confirmrt.Parallel(t)
			r.usesRT = true
			r.ed.open(r.off(call.Pos()), d, rtName+".Parallel(")
			r.ed.replace(r.off(sel.X.End()), r.off(call.End()), d, ")")
		case "Run":
			// t.Run(name, f) -> confirmrt.Run(t, name, f)
			if len(call.Args) == 2 && !call.Ellipsis.IsValid() {
				r.usesRT = true
				r.ed.open(r.off(call.Pos()), d, rtName+".Run(")
				r.ed.replace(r.off(sel.X.End()), r.off(call.Lparen)+1, d, ", ")
			}
		case "Cleanup":
			// t.Cleanup(f) -> confirmrt.Cleanup(t, f): f runs under
			// control at the end of the test's function.
			if len(call.Args) == 1 && !call.Ellipsis.IsValid() {
				r.usesRT = true
				r.ed.open(r.off(call.Pos()), d, rtName+".Cleanup(")
				r.ed.replace(r.off(sel.X.End()), r.off(call.Lparen)+1, d, ", ")
			}
		case "Context":
			// t.Context() -> confirmrt.TestContext(t): cancelled under
			// control before the cleanups run.
			r.usesRT = true
			r.ed.open(r.off(call.Pos()), d, rtName+".TestContext(")
			r.ed.replace(r.off(sel.X.End()), r.off(call.End()), d, ")")
		}
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		if fn := r.timeMethod(sel); fn != "" {
			// t.Stop() -> confirmrt.TimerStop(t); t.Reset(d) ->
			// confirmrt.TimerReset(t, d)
			r.usesRT = true
			r.ed.open(r.off(call.Pos()), d, rtName+"."+fn+"(")
			if len(call.Args) == 0 {
				r.ed.replace(r.off(sel.X.End()), r.off(call.Rparen), d, "")
			} else {
				r.ed.replace(r.off(sel.X.End()), r.off(call.Lparen)+1, d, ", ")
			}
		}
	}
	r.syncCall(call)
	if r.outsideCall(call) {
		r.extCall(call, d)
	}
}

// timeMethod returns the runtime function replacing the call of a Stop or
// Reset method of a *time.Timer or *time.Ticker, or "".
func (r *fileRewriter) timeMethod(sel *ast.SelectorExpr) string {
	s := r.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || s.Obj().Pkg() == nil || s.Obj().Pkg().Path() != "time" {
		return ""
	}
	named, ok := derefNamed(s.Recv())
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "time" || len(s.Index()) != 1 {
		return ""
	}
	return timeMethods[named.Obj().Name()][s.Obj().Name()]
}

// testingTMethod returns the name of the method of *testing.T that sel
// calls (for Cleanup and Context, also of B, F and TB), or "".
func (r *fileRewriter) testingTMethod(sel *ast.SelectorExpr) string {
	s := r.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || s.Obj().Pkg() == nil || s.Obj().Pkg().Path() != "testing" {
		return ""
	}
	named, ok := derefNamed(s.Recv())
	if !ok {
		return ""
	}
	switch name := s.Obj().Name(); {
	case name == "Cleanup" || name == "Context":
		// Of T, B, F (from the testing package's common, embedded part)
		// and TB: the function may be given any of them.
		switch named.Obj().Name() {
		case "T", "B", "F", "TB":
			return name
		}
	case named.Obj().Name() == "T" && len(s.Index()) == 1:
		return name // T's own methods
	}
	return ""
}

func derefNamed(t types.Type) (*types.Named, bool) {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return n, ok
}

// makeChan lowers make(chan T[, n]) to confirmrt.MakeChan[T](n).
func (r *fileRewriter) makeChan(call *ast.CallExpr, d int) {
	if len(call.Args) == 0 || len(call.Args) > 2 {
		return
	}
	targ := call.Args[0]
	t := r.info.TypeOf(targ)
	if t == nil {
		return
	}
	if _, ok := t.Underlying().(*types.Chan); !ok {
		return
	}
	start, tPos, tEnd := r.off(call.Pos()), r.off(targ.Pos()), r.off(targ.End())
	// The rest: ", n)" or ")".
	var rest func(text string)
	if len(call.Args) == 2 {
		size := call.Args[1]
		tv := r.info.Types[size]
		conv := tv.Value == nil && !types.Identical(tv.Type, types.Typ[types.Int])
		rest = func(text string) {
			if conv {
				// MakeChan takes an int; make takes any integer type.
				text += "int("
				r.ed.close(r.off(size.End()), d, ")")
			}
			r.ed.replace(tEnd, r.off(size.Pos()), d, text)
		}
	} else {
		rest = func(text string) {
			r.ed.replace(tEnd, r.off(call.Rparen), d, text+"0")
		}
	}
	ct, isLit := ast.Unparen(targ).(*ast.ChanType)
	_, isParam := types.Unalias(t).(*types.TypeParam)
	switch {
	case isParam:
		r.unscheduled(call, "make of a channel of type parameter type")
		return
	case isLit && ct.Dir == ast.SEND|ast.RECV:
		// make(chan T, n) -> confirmrt.MakeChan[T](n)
		r.ed.replace(start, tPos, d, rtName+".MakeChan[")
		r.ed.replace(tPos, r.off(ct.Value.Pos()), d, "")
		rest("](")
	case isLit:
		// make(<-chan T) -> (<-chan T)(confirmrt.MakeChan[T](n)): keep the
		// type's text for the conversion and write the element type again.
		r.ed.replace(start, tPos, d, "(")
		rest(")(" + rtName + ".MakeChan[" + r.text(ct.Value) + "](")
		r.ed.close(r.off(call.End()), d, ")")
	default:
		// make(C, n) with C a named channel type -> confirmrt.MakeChanOf[C](n)
		r.ed.replace(start, tPos, d, rtName+".MakeChanOf[")
		rest("](")
	}
	r.usesRT = true
	r.sink.object(r.position(call.Pos()), "make "+types.TypeString(t, r.qualifier))
}

// qualifier writes package-level names as reviewers read them: the package
// name alone.
func (r *fileRewriter) qualifier(p *types.Package) string { return p.Name() }

// replacement returns the runtime name that replaces a use of obj, or "".
func (r *fileRewriter) replacement(id *ast.Ident) string {
	obj := r.info.Uses[id]
	if obj == nil || obj.Pkg() == nil {
		return ""
	}
	switch obj.(type) {
	case *types.TypeName, *types.Func:
	default:
		return ""
	}
	if fn, ok := obj.(*types.Func); ok && fn.Signature().Recv() != nil {
		return ""
	}
	if obj.Parent() != obj.Pkg().Scope() {
		return ""
	}
	return replacedNames[obj.Pkg().Path()][obj.Name()]
}

// selector replaces sync.X, atomic.X, time.Sleep, runtime.Gosched, os.Exit
// and log.Fatal* by their runtime versions.
func (r *fileRewriter) selector(sel *ast.SelectorExpr) {
	x, ok := sel.X.(*ast.Ident)
	if !ok {
		return
	}
	if _, ok := r.info.Uses[x].(*types.PkgName); !ok {
		return
	}
	name := r.replacement(sel.Sel)
	if name == "" || r.keepReal[sel.Pos()] {
		r.uncontrolled(sel)
		return
	}
	r.usesRT = true
	r.rewrittenPkgRefs[x] = true
	r.ed.replace(r.off(sel.Pos()), r.off(sel.End()), 0, rtName+"."+name)
}

// uncontrolledNames are the functions whose goroutines, timers or exits the
// runtime does not model: their channels are external to the scheduler.
var uncontrolledNames = map[string]map[string]string{
	"context": {"AfterFunc": "a real goroutine"},
	"runtime": {"Goexit": "a real goroutine exit"},
}

// uncontrolled notes a use of a function the runtime does not model.
func (r *fileRewriter) uncontrolled(sel *ast.SelectorExpr) {
	obj := r.info.Uses[sel.Sel]
	if obj == nil || obj.Pkg() == nil {
		return
	}
	if what := uncontrolledNames[obj.Pkg().Path()][obj.Name()]; what != "" {
		r.sink.limit("%s: %s.%s uses %s, which runs outside the controlled scheduler (its channels are external)",
			r.position(sel.Pos()), obj.Pkg().Name(), obj.Name(), what)
	}
}

// dotImported replaces names of a dot-imported sync, time, ... package
// (id is not the Sel of a selector).
func (r *fileRewriter) dotImported(id *ast.Ident) {
	obj := r.info.Uses[id]
	if obj == nil || obj.Pkg() == nil || obj.Pkg() == r.pkg {
		return
	}
	name := r.replacement(id)
	if name == "" || r.keepReal[id.Pos()] {
		return
	}
	r.usesRT = true
	r.rewrittenPkgRefs[id] = true
	r.ed.replace(r.off(id.Pos()), r.off(id.End()), 0, rtName+"."+name)
}

// goStmt lowers go f(a, b) to
//
//	{ f1 := f; a1 := a; b1 := b; confirmrt.Go(func() { f1(a1, b1) }) }
//
// keeping static functions, function literals and constants in place.
func (r *fileRewriter) goStmt(g *ast.GoStmt, d int) {
	call := g.Call
	r.usesRT = true
	r.sink.object(r.position(g.Pos()), "go "+r.describeFunc(ast.Unparen(call.Fun)))
	if r.plainFunc(call) {
		// go f() with f a func(): confirmrt.Go(f), so the goroutine runs
		// the user's function itself.
		r.ed.replace(r.off(g.Go), r.off(call.Fun.Pos()), d, rtName+".Go(")
		r.ed.replace(r.off(call.Fun.End()), r.off(call.End()), d, ")")
		return
	}
	start := r.off(call.Pos())
	r.ed.replace(r.off(g.Go), r.off(g.Go)+2, d, "{")
	fun := ast.Unparen(call.Fun)
	if !r.static(fun) {
		t := r.names.next("f")
		r.ed.open(start, d, t+" := ")
		r.ed.pasteOpen(start, d, r.ed.cut(r.off(call.Fun.Pos()), r.off(call.Fun.End()), d, t), "", "")
		r.ed.open(start, d, "; ")
	}
	for _, a := range call.Args {
		if r.inert(a) {
			continue
		}
		n := 1
		if tup, ok := r.info.TypeOf(a).(*types.Tuple); ok {
			n = tup.Len()
		}
		var ts []string
		for range n {
			ts = append(ts, r.names.next("a"))
		}
		lhs := strings.Join(ts, ", ")
		r.ed.open(start, d, lhs+" := ")
		r.ed.pasteOpen(start, d, r.ed.cut(r.off(a.Pos()), r.off(a.End()), d, lhs),
			r.lineDirective(a.Pos()), r.lineDirective(g.Pos()))
		r.ed.open(start, d, "; ")
	}
	r.ed.open(start, d, rtName+".Go(func() { ")
	r.ed.close(r.off(call.End()), d, " }) }")
}

// plainFunc reports whether call calls a value of type func() without
// arguments that can be passed as it is: not a builtin, not a generic
// function instantiated implicitly.
func (r *fileRewriter) plainFunc(call *ast.CallExpr) bool {
	if len(call.Args) > 0 || r.builtin(call) != "" {
		return false
	}
	sig, ok := r.info.TypeOf(call.Fun).(*types.Signature)
	if !ok || sig.Params().Len() > 0 || sig.Results().Len() > 0 || sig.TypeParams() != nil {
		return false
	}
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		_, generic := r.info.Instances[f]
		return !generic
	case *ast.SelectorExpr:
		_, generic := r.info.Instances[f.Sel]
		return !generic
	}
	return true
}

// lineDirective returns a /*line*/ comment that gives the text after it
// the position of p, or "" when p is on the line the text is put on.
func (r *fileRewriter) lineDirective(p token.Pos) string {
	pos := r.position(p)
	return fmt.Sprintf("/*line %s:%d:%d*/", r.filename, pos.Line, pos.Column)
}

// static reports whether evaluating the function expression fun has no
// effect: a declared function, a method expression or a builtin, possibly
// instantiated, or a function literal.
func (r *fileRewriter) static(fun ast.Expr) bool {
	switch f := fun.(type) {
	case *ast.FuncLit:
		return true
	case *ast.IndexExpr:
		return r.static(ast.Unparen(f.X))
	case *ast.IndexListExpr:
		return r.static(ast.Unparen(f.X))
	case *ast.Ident:
		switch r.info.Uses[f].(type) {
		case *types.Func, *types.Builtin:
			return true
		}
	case *ast.SelectorExpr:
		if s := r.info.Selections[f]; s != nil {
			return s.Kind() == types.MethodExpr
		}
		switch r.info.Uses[f.Sel].(type) {
		case *types.Func, *types.Builtin:
			return true
		}
	}
	return false
}

// inert reports whether an argument can be evaluated in the new goroutine
// without a difference: constants, nil and function literals.
func (r *fileRewriter) inert(a ast.Expr) bool {
	tv := r.info.Types[a]
	if tv.Value != nil || tv.IsNil() {
		return true
	}
	switch x := ast.Unparen(a).(type) {
	case *ast.FuncLit:
		return true
	case *ast.BinaryExpr:
		// Untyped comparisons take the type of the parameter; a temporary
		// would make them bool.
		switch x.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			if b, ok := tv.Type.(*types.Basic); !ok || b.Kind() != types.Bool {
				r.sink.note("%s: go statement argument evaluated in the new goroutine", r.position(a.Pos()))
				return true
			}
		}
	}
	return false
}

// rangeChan lowers for x := range ch { B } to
//
//	for c := ch; ; { x, ok := confirmrt.Recv2(c); if !ok { break }; { B } }
func (r *fileRewriter) rangeChan(rs *ast.RangeStmt, d int) {
	if rs.X == nil {
		return
	}
	t := r.info.TypeOf(rs.X)
	if t == nil {
		return
	}
	if _, ok := t.Underlying().(*types.Chan); !ok {
		return
	}
	if r.chanType(rs.X) == nil {
		r.unscheduled(rs, "range over a channel of type parameter type")
		return
	}
	r.usesRT = true
	c, ok := r.names.next("c"), r.names.next("ok")
	var recv string
	switch {
	case rs.Key == nil || isBlank(rs.Key):
		recv = "_, " + ok + " := " + rtName + ".Recv2(" + c + "); if !" + ok + " { break }; "
	case rs.Tok == token.DEFINE:
		recv = r.text(rs.Key) + ", " + ok + " := " + rtName + ".Recv2(" + c + "); if !" + ok + " { break }; "
	default:
		v := r.names.next("v")
		key, err := flatten(r.text(rs.Key))
		if err != nil {
			r.unscheduled(rs, "range with this key expression")
			return
		}
		recv = v + ", " + ok + " := " + rtName + ".Recv2(" + c + "); if !" + ok + " { break }; " + key + " = " + v + "; "
	}
	r.ed.replace(r.off(rs.For), r.off(rs.X.Pos()), d, "for "+c+" := ")
	r.ed.replace(r.off(rs.X.End()), r.off(rs.Body.Lbrace)+1, d, "; ; { "+recv+"{")
	r.ed.open(r.off(rs.Body.Rbrace), d, "}")
	r.sink.object(r.position(rs.Pos()), r.describeChan(rs.X))
}

func isBlank(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "_"
}

// selectStmt lowers a select statement; see API.md.
func (r *fileRewriter) selectStmt(s *ast.SelectStmt, d int) {
	clauses := s.Body.List
	if len(clauses) == 0 {
		r.usesRT = true
		r.ed.replace(r.off(s.Pos()), r.off(s.End()), d, "for { "+rtName+".Select(false) }")
		return
	}
	// Check every operand first.
	hasDefault := false
	var comms []*ast.CommClause
	for _, c := range clauses {
		cc := c.(*ast.CommClause)
		if cc.Comm == nil {
			hasDefault = true
			continue
		}
		comms = append(comms, cc)
	}
	for _, cc := range comms {
		if ch := commChan(cc.Comm); ch == nil || r.chanType(ch) == nil {
			r.unscheduled(s, "select (a channel of type parameter type)")
			// Leave the communications of the select as they are.
			for _, cc := range comms {
				r.handled[cc.Comm] = true
				if u := recvOf(cc.Comm); u != nil {
					r.handled[u] = true
				}
			}
			return
		}
	}
	r.usesRT = true
	kw := r.off(s.Select)
	r.ed.replace(kw, kw+len("select"), d, "switch ")
	var vars, args []string
	for _, cc := range comms {
		k := r.names.next("k")
		vars = append(vars, k)
		switch comm := cc.Comm.(type) {
		case *ast.SendStmt:
			args = append(args, k)
			r.handled[comm] = true
		default:
			args = append(args, k+".Case()")
			r.handled[recvOf(comm)] = true
		}
	}
	if len(vars) > 0 {
		r.ed.open(kw+len("select"), d, strings.Join(vars, ", ")+" := ")
	}
	restore := fmt.Sprintf("/*line %s:%d:%d*/", r.filename, r.position(s.Select).Line, r.position(s.Select).Column+6)
	for i, cc := range comms {
		if i > 0 {
			r.ed.open(kw+len("select"), d, ", ")
		}
		label := fmt.Sprintf("case %d", i)
		if i == len(comms)-1 && !hasDefault {
			// A select without default never falls through; a default
			// keeps the switch a terminating statement like the select.
			label = "default"
		}
		r.selectCase(s, cc, label, vars[i], d, restore)
	}
	if len(vars) > 0 {
		r.ed.open(kw+len("select"), d, "; ")
	}
	r.ed.open(kw+len("select"), d, fmt.Sprintf("%s.Select(%v", rtName, hasDefault))
	for _, a := range args {
		r.ed.open(kw+len("select"), d, ", "+a)
	}
	r.ed.open(kw+len("select"), d, ")")
}

// commChan returns the channel operand of a select case.
func commChan(comm ast.Stmt) ast.Expr {
	if s, ok := comm.(*ast.SendStmt); ok {
		return s.Chan
	}
	if u := recvOf(comm); u != nil {
		return u.X
	}
	return nil
}

// recvOf returns the receive operation of a receive case.
func recvOf(comm ast.Stmt) *ast.UnaryExpr {
	var e ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		e = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			e = c.Rhs[0]
		}
	}
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return u
}

// selectCase writes case i's slot into the switch header (at the select
// keyword) and turns its clause into "case i:" with the receive assignment.
func (r *fileRewriter) selectCase(s *ast.SelectStmt, cc *ast.CommClause, label, slot string, d int, restore string) {
	at := r.off(s.Select) + len("select")
	colon := r.off(cc.Colon) + 1
	paste := func(e ast.Expr) {
		r.ed.pasteOpen(at, d, r.ed.cut(r.off(e.Pos()), r.off(e.End()), d, ""), r.lineDirective(e.Pos()), restore)
	}
	switch comm := cc.Comm.(type) {
	case *ast.SendStmt:
		c := r.chanType(comm.Chan)
		r.sink.object(r.position(cc.Pos()), "select send "+r.describeChan(comm.Chan))
		if r.sameType(c, comm.Value) {
			r.ed.open(at, d, rtName+".SendCase(")
			paste(comm.Chan)
			r.ed.open(at, d, ", ")
			paste(comm.Value)
			r.ed.open(at, d, ")")
		} else {
			r.ed.open(at, d, rtName+".SendSlot(")
			paste(comm.Chan)
			r.ed.open(at, d, ")(")
			paste(comm.Value)
			r.ed.open(at, d, ")")
		}
		// "case i:" first, so the newlines of the cut operands follow it.
		r.ed.replace(r.off(cc.Case), r.off(comm.Chan.Pos()), d, label+":")
		r.ed.replace(r.off(comm.Chan.End()), r.off(comm.Value.Pos()), d, "")
		r.ed.replace(r.off(comm.Value.End()), colon, d, "")
	default:
		u := recvOf(comm)
		r.sink.object(r.position(cc.Pos()), "select recv "+r.describeChan(u.X))
		r.ed.open(at, d, rtName+".NewRecvSlot(")
		paste(u.X)
		r.ed.open(at, d, ")")
		assign := ""
		if a, ok := comm.(*ast.AssignStmt); ok {
			var lhs []string
			for _, l := range a.Lhs {
				t, err := flatten(r.text(l))
				if err != nil {
					r.ed.fail(err)
					return
				}
				lhs = append(lhs, t)
			}
			vals := []string{slot + ".V", slot + ".Ok"}[:len(lhs)]
			assign = " " + strings.Join(lhs, ", ") + " " + a.Tok.String() + " " + strings.Join(vals, ", ") + ";"
		}
		r.ed.replace(r.off(cc.Case), r.off(u.X.Pos()), d, label+":"+assign)
		r.ed.replace(r.off(u.X.End()), colon, d, "")
	}
}
