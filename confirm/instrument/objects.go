package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
)

// describe names the variable or field expression e denotes in reviewer
// words: "(*bank.Account).mu" for a field, "bank.total" for a package-level
// variable, "done" for a local one, and the expression text otherwise.
func (r *fileRewriter) describe(e ast.Expr) string {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.Ident:
		if v, ok := r.info.Uses[x].(*types.Var); ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope() {
			return v.Pkg().Name() + "." + v.Name()
		}
		return x.Name
	case *ast.SelectorExpr:
		s := r.info.Selections[x]
		if s == nil {
			if v, ok := r.info.Uses[x.Sel].(*types.Var); ok && v.Pkg() != nil {
				return v.Pkg().Name() + "." + v.Name()
			}
			break
		}
		if s.Kind() == types.FieldVal {
			return "(" + types.TypeString(s.Recv(), r.qualifier) + ")." + x.Sel.Name
		}
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return r.describe(x.X)
		}
	case *ast.StarExpr:
		return r.describe(x.X)
	}
	t, err := flatten(r.text(e))
	if err != nil || len(t) > 60 {
		return types.ExprString(e)
	}
	return t
}

// describeChan names a channel operand.
func (r *fileRewriter) describeChan(e ast.Expr) string { return "chan " + r.describe(e) }

// describeFunc names the function a go statement starts.
func (r *fileRewriter) describeFunc(fun ast.Expr) string {
	if _, ok := fun.(*ast.FuncLit); ok {
		return "func literal"
	}
	return types.ExprString(fun)
}

// syncPackage reports whether path is sync or sync/atomic.
func syncPackage(path string) bool { return path == "sync" || path == "sync/atomic" }

// syncCall records the object of a method call on a sync type (directly,
// through an embedded field or through sync.Locker) or of a sync/atomic
// function call.
func (r *fileRewriter) syncCall(call *ast.CallExpr) {
	var fun *ast.SelectorExpr
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		fun = f
	case *ast.Ident:
		if fn, ok := r.info.Uses[f].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && len(call.Args) > 0 {
			r.sink.object(r.position(call.Pos()), r.describe(call.Args[0]))
		}
		return
	default:
		return
	}
	s := r.info.Selections[fun]
	if s == nil {
		// atomic.AddInt64(&x, 1)
		if fn, ok := r.info.Uses[fun.Sel].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "sync/atomic" && len(call.Args) > 0 {
			r.sink.object(r.position(call.Pos()), r.describe(call.Args[0]))
		}
		return
	}
	if s.Kind() != types.MethodVal || s.Obj().Pkg() == nil || !syncPackage(s.Obj().Pkg().Path()) {
		return
	}
	what := r.describe(fun.X)
	if path := s.Index(); len(path) > 1 {
		// Promoted through embedded fields: name the embedded field.
		t := s.Recv()
		name := ""
		for _, i := range path[:len(path)-1] {
			st, ok := derefStruct(t)
			if !ok {
				break
			}
			f := st.Field(i)
			name = f.Name()
			what = "(" + types.TypeString(t, r.qualifier) + ")." + name
			t = f.Type()
		}
	}
	r.sink.object(r.position(call.Pos()), what)
}

func derefStruct(t types.Type) (*types.Struct, bool) {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	s, ok := t.Underlying().(*types.Struct)
	return s, ok
}
