package instrument

import (
	"go/ast"
	"go/types"
	"strconv"
)

// outsideTypes are the standard library's types whose methods synchronize
// goroutines and that the rewrite does not replace: a call of one of
// their methods is a call into uncontrolled code that may synchronize.
var outsideTypes = map[string]bool{
	"sync.Map": true, "sync.Pool": true, "io.PipeReader": true, "io.PipeWriter": true,
}

// outsideCall reports whether call calls code the runtime does not
// control and that may synchronize goroutines: a function or method of a
// package outside the standard library that is not rewritten and may
// synchronize, a method of one of outsideTypes, or a method of a
// sync.Locker whose dynamic type is not known.
func (r *fileRewriter) outsideCall(call *ast.CallExpr) bool {
	fun := ast.Unparen(call.Fun)
	switch f := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(f.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(f.X)
	}
	var obj types.Object
	switch f := fun.(type) {
	case *ast.Ident:
		obj = r.info.Uses[f]
	case *ast.SelectorExpr:
		s := r.info.Selections[f]
		if s == nil {
			obj = r.info.Uses[f.Sel]
			break
		}
		if s.Kind() != types.MethodVal {
			return false
		}
		obj = s.Obj()
		if types.IsInterface(s.Recv()) {
			if n, ok := types.Unalias(s.Recv()).(*types.Named); ok && typeName(n) == "sync.Locker" {
				return true
			}
		} else if n, ok := derefNamed(s.Recv()); ok && outsideTypes[typeName(n)] {
			return true
		}
	}
	fn, ok := obj.(*types.Func)
	if !ok || fn.Pkg() == nil || r.outside == nil {
		return false
	}
	return r.outside(fn.Pkg().Path())
}

// typeName is "pkgpath.Name" of a named type.
func typeName(n *types.Named) string {
	if n.Obj().Pkg() == nil {
		return n.Obj().Name()
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

// extCall puts the scheduling point that follows a call into uncontrolled
// code that may synchronize (see rt's Ext): f(x) becomes
// confirmrt.ExtN(f(x)) for a call with N results, a call statement is
// followed by confirmrt.ExtDone(), and a deferred call is preceded by
// defer confirmrt.ExtDone(), which runs just after it.
func (r *fileRewriter) extCall(call *ast.CallExpr, d int) {
	sig, ok := r.info.TypeOf(call.Fun).Underlying().(*types.Signature)
	if !ok {
		return
	}
	n := sig.Results().Len()
	i := len(r.stack) - 2 // the call's parent, through parentheses
	for i > 0 {
		if _, paren := r.stack[i].(*ast.ParenExpr); !paren {
			break
		}
		i--
	}
	var parent, grand ast.Node
	if i >= 0 {
		parent = r.stack[i]
	}
	if i >= 1 {
		grand = r.stack[i-1]
	}
	what := "call of " + types.ExprString(call.Fun)
	switch p := parent.(type) {
	case *ast.GoStmt:
		return // the new goroutine's only step: nothing of its own to order
	case *ast.DeferStmt:
		if !inList(grand, p) {
			r.unscheduled(call, what+" deferred in a statement that is not in a list (uncontrolled synchronization)")
			return
		}
		r.usesRT = true
		r.ed.open(r.off(p.Pos()), depth(i)-1, "defer "+rtName+".ExtDone(); ")
		return
	case *ast.ExprStmt:
		if n > 0 {
			break
		}
		r.usesRT = true
		if inList(grand, p) {
			r.ed.close(r.off(p.End()), depth(i)-1, "; "+rtName+".ExtDone()")
			return
		}
		r.ed.open(r.off(p.Pos()), depth(i)-1, "func() { ")
		r.ed.close(r.off(p.End()), depth(i)-1, "; "+rtName+".ExtDone() }()")
		return
	}
	if n < 1 || n > 4 {
		r.unscheduled(call, what+" with "+strconv.Itoa(n)+" results (uncontrolled synchronization)")
		return
	}
	r.usesRT = true
	r.ed.open(r.off(call.Pos()), d, rtName+".Ext"+strconv.Itoa(n)+"(")
	r.ed.close(r.off(call.End()), d, ")")
}
