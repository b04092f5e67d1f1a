package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
)

// An access is a read or write of a variable or field the rewrite can take
// the address of.
type access struct {
	expr  ast.Expr
	write bool
	stmt  ast.Stmt // the statement of a statement list the access is in
	depth int      // stack depth of stmt
	// edepth is the stack depth of expr; assign is, for a write, the
	// assignment, inc/dec or range statement that writes it; parent is
	// the node expr is an operand of.
	edepth int
	assign ast.Stmt
	parent ast.Node
	// constant is set when the access is an operand of unsafe.Sizeof,
	// Alignof or Offsetof: a constant expression, which a call cannot
	// stand in.
	constant bool
}

// accesses returns the accesses of the file in source order. With all set,
// it returns every field and package-level variable access (the automatic
// mode); otherwise every access to any variable (to match requested
// locations).
func (r *fileRewriter) accesses(all bool) []access {
	var out []access
	var stack []ast.Node
	ast.Inspect(r.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		e, ok := n.(ast.Expr)
		if !ok || len(stack) < 2 {
			return true
		}
		parent := stack[len(stack)-2]
		if !r.isAccess(e, parent, all) {
			return true
		}
		stmt, sd := listStmt(stack)
		if stmt == nil {
			return true
		}
		a := access{expr: e, write: r.isWrite(e, stack), stmt: stmt, depth: sd, edepth: len(stack) - 1, parent: parent}
		for i := len(stack) - 2; i >= 0; i-- {
			switch n := stack[i].(type) {
			case *ast.AssignStmt, *ast.IncDecStmt, *ast.RangeStmt:
				if a.write && a.assign == nil {
					a.assign = n.(ast.Stmt)
				}
			case *ast.CallExpr:
				if r.unsafeBuiltin(n) {
					a.constant = true
				}
			}
		}
		out = append(out, a)
		// The accessed path is one access; do not descend into it (and
		// Inspect will not call back with nil for it).
		stack = stack[:len(stack)-1]
		return false
	})
	return out
}

// isFieldRead reports whether e selects a field (s.ch).
func (r *fileRewriter) isFieldRead(e ast.Expr) bool {
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	s := r.info.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal
}

// isAccess reports whether e is the outermost expression of an access to a
// variable or field, not an operand of a channel or sync operation and not
// having its address taken.
func (r *fileRewriter) isAccess(e ast.Expr, parent ast.Node, all bool) bool {
	switch x := e.(type) {
	case *ast.Ident:
		v, ok := r.info.Uses[x].(*types.Var)
		if !ok || v.IsField() || x.Name == "_" {
			return false
		}
		if all && (v.Pkg() != r.pkg || v.Parent() != r.pkg.Scope()) {
			return false
		}
		if sel, ok := parent.(*ast.SelectorExpr); ok && sel.Sel == x {
			return false
		}
	case *ast.SelectorExpr:
		if s := r.info.Selections[x]; s == nil || s.Kind() != types.FieldVal {
			if v, ok := r.info.Uses[x.Sel].(*types.Var); !ok || v.Pkg() != r.pkg || all {
				return false
			}
		}
	default:
		return false
	}
	if syncType(r.info.TypeOf(e)) {
		return false
	}
	switch p := parent.(type) {
	case *ast.UnaryExpr:
		// The channel operand of a receive is an access only where a
		// warning asks for it (not all), and only a field's: the read
		// of s.ch the race detector reports against s.ch = make(...).
		if p.Op == token.AND || p.Op == token.ARROW && (all || !r.isFieldRead(e)) {
			return false
		}
	case *ast.SelectorExpr:
		// e.M() or e.f: the outer expression decides.
		if s := r.info.Selections[p]; s != nil {
			if s.Kind() == types.FieldVal {
				return false
			}
			if _, ptr := s.Obj().Type().(*types.Signature).Recv().Type().(*types.Pointer); ptr {
				return false
			}
		}
	case *ast.SendStmt:
		if p.Chan == e && (all || !r.isFieldRead(e)) {
			return false
		}
	case *ast.RangeStmt:
		if p.X == e && r.chanType(e) != nil {
			return false
		}
	case *ast.CallExpr:
		switch r.builtin(p) {
		case "close":
			return false
		case "len", "cap":
			// len of a slice, map or string field reads it (the race
			// detector reports it against a write); of a channel it is
			// a channel operation, and of an array a constant.
			return !lenIsConstOrChan(r.info.TypeOf(e))
		}
	}
	return true
}

// lenIsConstOrChan reports whether len of a value of type t is a
// constant (an array, a pointer to one) or a channel's.
func lenIsConstOrChan(t types.Type) bool {
	if t == nil {
		return true
	}
	switch u := t.Underlying().(type) {
	case *types.Chan, *types.Array:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	case *types.Interface, *types.TypeParam:
		return true // a type parameter's core type may be any of these
	}
	return false
}

// syncType reports whether t is a type of package sync or sync/atomic.
func syncType(t types.Type) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && syncPackage(n.Obj().Pkg().Path())
}

// isWrite reports whether the access at the top of stack is written:
// assigned to, incremented, or indexed as an array on the left side.
func (r *fileRewriter) isWrite(e ast.Expr, stack []ast.Node) bool {
	cur := ast.Node(e)
	for i := len(stack) - 2; i >= 0; i-- {
		switch p := stack[i].(type) {
		case *ast.ParenExpr:
			cur = p
			continue
		case *ast.IndexExpr:
			// Writing an element of an array writes the array; of a slice
			// or map, it only reads the field holding it.
			if _, array := r.info.TypeOf(p.X).Underlying().(*types.Array); array && p.X == cur {
				cur = p
				continue
			}
			return false
		case *ast.AssignStmt:
			if p.Tok == token.DEFINE {
				return false
			}
			for _, l := range p.Lhs {
				if l == cur {
					return true
				}
			}
			return false
		case *ast.IncDecStmt:
			return p.X == cur
		case *ast.RangeStmt:
			return p.Tok == token.ASSIGN && (p.Key == cur || p.Value == cur)
		}
		return false
	}
	return false
}

// listStmt returns the innermost statement on the stack that is an element
// of a statement list, and its stack depth; nil outside function bodies.
func listStmt(stack []ast.Node) (ast.Stmt, int) {
	for i := len(stack) - 1; i > 0; i-- {
		s, ok := stack[i].(ast.Stmt)
		switch s.(type) {
		case *ast.CaseClause, *ast.CommClause:
			// Clauses are statements in the switch's block, but nothing
			// can be put before them.
			continue
		}
		if !ok {
			continue
		}
		if cc, ok := stack[i-1].(*ast.CommClause); ok && cc.Comm == s {
			continue // the communication of a select case
		}
		switch stack[i-1].(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			if _, isBlock := s.(*ast.BlockStmt); isBlock {
				if _, fn := stack[i-1].(*ast.BlockStmt); !fn {
					continue
				}
			}
			return s, i
		}
	}
	return nil, 0
}

// guard returns the conditions under which &e does not panic, and false if
// the address of e cannot be taken without side effects.
func (r *fileRewriter) guard(e ast.Expr) ([]string, bool) {
	switch x := e.(type) {
	case *ast.Ident:
		return nil, true
	case *ast.ParenExpr:
		return r.guard(x.X)
	case *ast.StarExpr:
		g, ok := r.guard(x.X)
		t, err := flatten(r.text(x.X))
		if !ok || err != nil {
			return nil, false
		}
		return append(g, t+" != nil"), true
	case *ast.IndexExpr:
		g, ok := r.guard(x.X)
		if !ok || !r.pureIndex(x.Index) {
			return nil, false
		}
		t, err := flatten(r.text(x.X))
		if err != nil {
			return nil, false
		}
		i, err := flatten(r.text(x.Index))
		if err != nil {
			return nil, false
		}
		switch u := r.info.TypeOf(x.X).Underlying().(type) {
		case *types.Slice:
			return append(g, "int("+i+") >= 0 && int("+i+") < len("+t+")"), true
		case *types.Array:
			if r.info.Types[x.Index].Value != nil {
				return g, true
			}
			return append(g, "int("+i+") >= 0 && int("+i+") < len("+t+")"), true
		case *types.Pointer:
			if _, ok := u.Elem().Underlying().(*types.Array); ok {
				return append(g, t+" != nil", "int("+i+") >= 0 && int("+i+") < len("+t+")"), true
			}
		}
		return nil, false
	case *ast.SelectorExpr:
		s := r.info.Selections[x]
		if s == nil {
			return nil, true // a package-qualified variable
		}
		g, ok := r.guard(x.X)
		cur, err := flatten(r.text(x.X))
		if !ok || err != nil {
			return nil, false
		}
		t := s.Recv()
		for _, i := range s.Index() {
			if _, ptr := t.Underlying().(*types.Pointer); ptr {
				g = append(g, cur+" != nil")
			}
			st, ok := derefStruct(t)
			if !ok {
				return nil, false
			}
			f := st.Field(i)
			cur += "." + f.Name()
			t = f.Type()
		}
		return g, true
	}
	return nil, false
}

// pureIndex reports whether evaluating the index expression e twice has
// no effect: constants, variables, fields and arithmetic and len of those.
func (r *fileRewriter) pureIndex(e ast.Expr) bool {
	if r.info.Types[e].Value != nil {
		return true
	}
	switch x := e.(type) {
	case *ast.Ident:
		_, ok := r.info.Uses[x].(*types.Var)
		return ok
	case *ast.ParenExpr:
		return r.pureIndex(x.X)
	case *ast.SelectorExpr:
		s := r.info.Selections[x]
		return s != nil && s.Kind() == types.FieldVal && !s.Indirect() && r.pureIndex(x.X)
	case *ast.BinaryExpr:
		switch x.Op {
		case token.ADD, token.SUB, token.MUL, token.AND, token.OR, token.XOR, token.SHL, token.SHR:
			return r.pureIndex(x.X) && r.pureIndex(x.Y)
		}
	case *ast.CallExpr:
		b := r.builtin(x)
		if b != "len" && b != "cap" || len(x.Args) != 1 {
			return false
		}
		_, isConst := r.info.TypeOf(x.Args[0]).Underlying().(*types.Basic) // a string is fine
		_, isSlice := r.info.TypeOf(x.Args[0]).Underlying().(*types.Slice)
		return (isConst || isSlice) && r.pureIndex(x.Args[0])
	}
	return false
}

// inScope reports whether every variable e names is declared before stmt.
func (r *fileRewriter) inScope(e ast.Expr, stmt ast.Stmt) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		id, isID := n.(*ast.Ident)
		if !isID {
			return true
		}
		if v, isVar := r.info.Uses[id].(*types.Var); isVar && !v.IsField() {
			if v.Parent() != r.pkg.Scope() && v.Pos() >= stmt.Pos() && v.Pos() < stmt.End() {
				ok = false
			}
		}
		return true
	})
	return ok
}

// unsafeBuiltin reports whether call calls unsafe.Sizeof, Alignof or
// Offsetof, whose operands are not evaluated.
func (r *fileRewriter) unsafeBuiltin(call *ast.CallExpr) bool {
	var id *ast.Ident
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		id = f
	case *ast.SelectorExpr:
		id = f.Sel
	default:
		return false
	}
	b, ok := r.info.Uses[id].(*types.Builtin)
	return ok && (b.Name() == "Sizeof" || b.Name() == "Alignof" || b.Name() == "Offsetof")
}

// instrumentAccess makes access a a scheduling point at the moment it
// happens and returns false (with a note) when it cannot:
//
//   - a read is wrapped in place, x becoming confirmrt.Rd(&x, loc), whose
//     point comes where Go's order of evaluation loads the value: after the
//     calls and receives to its left in the statement, before those to its
//     right (a read of an array is confirmrt.RdP(&x, loc) dereferenced, so
//     that it stays addressable and is not copied);
//   - a write whose statement has no call and no receive gets its point
//     before the statement, which then performs it at once;
//   - a write whose statement calls or receives gets its point after the
//     statement, when it is the element of a statement list: nothing
//     happens between the store and the point, and a point there orders
//     the write after the statement's receive or call, as the write is;
//   - a write in an init or post statement (for i := ...; ...; s.n++) is
//     wrapped: x op= confirmrt.W(&x, loc).V(rhs), whose point comes after
//     the right-hand side, on every execution of the statement;
//   - the write of a range key or value into a variable is a point at the
//     start of each iteration's body.
func (r *fileRewriter) instrumentAccess(a access, kind string, loc int) bool {
	if r.accessed[a.expr] {
		// Requested twice (a read and a write at one position, or a
		// requested location and the automatic access): one point is
		// the access, the other a key location before its statement.
		r.usesRT = true
		r.ed.open(r.off(a.stmt.Pos()), depth(a.depth)-1, rtName+".Observe("+itoa(loc)+"); ")
		return true
	}
	r.accessed[a.expr] = true
	if kind != "write" && !a.write {
		return r.instrumentRead(a, loc)
	}
	if kind != "write" {
		// The read of an operand that is also written (x++, x += y,
		// or a requested read at an assigned position): it cannot be
		// wrapped in place, so its point goes where its write's would.
		if a.assign == a.stmt && r.syncs(a.stmt) {
			return r.pointAt(a, kind, loc, r.off(a.stmt.End()), depth(a.depth)-1, "; ", true)
		}
		return r.pointAt(a, kind, loc, r.off(a.stmt.Pos()), depth(a.depth)-1, "", false)
	}
	switch s := a.assign.(type) {
	case *ast.RangeStmt:
		return r.pointAt(a, kind, loc, r.off(s.Body.Lbrace)+1, depth(a.depth+1), " ", true)
	case nil:
		// A write the rewrite does not recognise (an array element
		// incremented through a pointer, say): before its statement.
		return r.pointAt(a, kind, loc, r.off(a.stmt.Pos()), depth(a.depth)-1, "", false)
	}
	if a.assign == a.stmt {
		if !r.syncs(a.stmt) {
			return r.pointAt(a, kind, loc, r.off(a.stmt.Pos()), depth(a.depth)-1, "", false)
		}
		return r.pointAt(a, kind, loc, r.off(a.stmt.End()), depth(a.depth)-1, "; ", true)
	}
	return r.wrapWrite(a, loc)
}

// syncs reports whether evaluating statement s (not the function literals
// in it) may synchronise: it calls a function (not a builtin or a
// conversion) or receives.
func (r *fileRewriter) syncs(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			found = found || x.Op == token.ARROW
		case *ast.CallExpr:
			if r.builtin(x) == "" && !r.info.Types[x.Fun].IsType() {
				found = true
			}
		}
		return !found
	})
	return found
}

// instrumentRead wraps the read a in place.
func (r *fileRewriter) instrumentRead(a access, loc int) bool {
	switch {
	case a.constant:
		r.skipped(a.expr, "read of "+types.ExprString(a.expr)+" (an operand of unsafe.Sizeof, Alignof or Offsetof)")
		return false
	case !r.info.Types[a.expr].Addressable():
		r.skipped(a.expr, "read of "+types.ExprString(a.expr)+" (its address cannot be taken)")
		return false
	}
	r.usesRT = true
	open, close := rtName+".Rd(&", ", "+itoa(loc)+")"
	if _, array := r.info.TypeOf(a.expr).Underlying().(*types.Array); array {
		open, close = "(*"+rtName+".RdP(&", ", "+itoa(loc)+"))"
	}
	d := depth(a.edepth)
	r.ed.open(r.off(a.expr.Pos()), d, open)
	r.ed.close(r.off(a.expr.End()), d, close)
	r.sink.object(r.position(a.expr.Pos()), r.describe(a.expr))
	return true
}

// wrapWrite wraps the right-hand side of a single assignment or the
// increment of an inc/dec statement: x op= confirmrt.W(&x, loc).V(rhs).
func (r *fileRewriter) wrapWrite(a access, loc int) bool {
	text, err := flatten(r.text(a.expr))
	g, ok := r.guard(a.expr)
	if err != nil || !ok || len(g) > 0 && !r.info.Types[a.expr].Addressable() {
		r.skipped(a.expr, "write of "+types.ExprString(a.expr)+" (its address cannot be taken without side effects)")
		return false
	}
	w := rtName + ".W(&" + text + ", " + itoa(loc) + ").V("
	d := depth(a.edepth)
	switch s := a.assign.(type) {
	case *ast.AssignStmt:
		if len(s.Lhs) != 1 || len(s.Rhs) != 1 {
			r.skipped(a.expr, "write of "+types.ExprString(a.expr)+" (in a multiple assignment that is not a statement of its own)")
			return false
		}
		r.ed.open(r.off(s.Rhs[0].Pos()), d, w)
		r.ed.close(r.off(s.Rhs[0].End()), d, ")")
	case *ast.IncDecStmt:
		op := " += "
		if s.Tok == token.DEC {
			op = " -= "
		}
		r.ed.replace(r.off(s.TokPos), r.off(s.TokPos)+2, d, op+w+"1)")
	default:
		return false
	}
	r.usesRT = true
	r.sink.object(r.position(a.expr.Pos()), r.describe(a.expr))
	return true
}

// pointAt inserts a Read or Write point for a at offset at (before a
// statement, after it with sep "; ", or at the start of a block), under
// the guard that keeps &x from panicking.
func (r *fileRewriter) pointAt(a access, kind string, loc, at, d int, sep string, after bool) bool {
	g, ok := r.guard(a.expr)
	text, err := flatten(r.text(a.expr))
	if !ok || err != nil {
		r.skipped(a.expr, kind+" of "+types.ExprString(a.expr)+" (its address cannot be taken without side effects)")
		return false
	}
	if !after && !r.inScope(a.expr, a.stmt) {
		r.skipped(a.expr, kind+" of "+text+" (declared by its own statement)")
		return false
	}
	fn := "Read"
	if kind == "write" {
		fn = "Write"
	}
	r.usesRT, r.usesUnsafe = true, true
	call := rtName + "." + fn + "(" + unsafeName + ".Pointer(&" + text + "), " + itoa(loc) + ")"
	if len(g) > 0 {
		call = "if " + strings.Join(g, " && ") + " { " + call + " }"
	}
	if after {
		r.ed.close(at, d, sep+call+";")
	} else {
		r.ed.open(at, d, call+"; ")
	}
	r.sink.object(r.position(a.expr.Pos()), r.describe(a.expr))
	return true
}

// observe inserts an Observe point before the innermost statement that
// starts at line (and contains col, if given). Without one, it goes first
// in the body of a case clause at line, else before the innermost
// statement that spans the line.
func (r *fileRewriter) observe(line, col, loc int) bool {
	var best, spanning ast.Stmt
	var clause ast.Node
	bestDepth, spanDepth := 0, 0
	var stack []ast.Node
	ast.Inspect(r.file, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		start, end := r.position(n.Pos()), r.position(n.End())
		if start.Line > line || end.Line < line {
			return false
		}
		stack = append(stack, n)
		switch n.(type) {
		case *ast.CaseClause, *ast.CommClause:
			if start.Line == line {
				clause = n
			}
		}
		s, ok := n.(ast.Stmt)
		if !ok || len(stack) < 2 {
			return true
		}
		ls, d := listStmt(stack)
		if ls != s {
			return true
		}
		if d > spanDepth {
			spanning, spanDepth = s, d
		}
		inCol := col == 0 || start.Column <= col && (end.Line > line || col <= end.Column)
		if start.Line == line && inCol && d > bestDepth {
			best, bestDepth = s, d
		}
		return true
	})
	var at, d int
	switch c := clause.(type) {
	case nil:
		if best == nil && spanning == nil {
			return false
		}
	case *ast.CaseClause:
		at, d = r.off(c.Colon)+1, 0
	case *ast.CommClause:
		at, d = r.off(c.Colon)+1, 0
	}
	switch {
	case best != nil:
		at, d = r.off(best.Pos()), depth(bestDepth)-1
	case clause == nil:
		at, d = r.off(spanning.Pos()), depth(spanDepth)-1
	}
	r.usesRT = true
	text := rtName + ".Observe(" + itoa(loc) + "); "
	if best == nil && clause != nil {
		text = " " + text
	}
	r.ed.open(at, d, text)
	return true
}

// label describes an access for Location.Label.
func (r *fileRewriter) label(a access) string {
	if a.write {
		return "writes " + r.describe(a.expr)
	}
	return "reads " + r.describe(a.expr)
}

// location returns the Location of an automatic access.
func (r *fileRewriter) location(a access) rt.Location {
	p := r.position(a.expr.Pos())
	kind := "read"
	if a.write {
		kind = "write"
	}
	return rt.Location{File: r.filename, Line: p.Line, Col: p.Column, Kind: kind, Label: r.label(a)}
}
