package race

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// qualifier writes package-level names with the package name only, the
// way a reviewer reads them: "counter.Counter", not the import path.
func qualifier(p *types.Package) string { return p.Name() }

// name returns funcName(fn), computed once per function.
func (c *checker) name(fn *ssa.Function) string {
	n, ok := c.names[fn]
	if !ok {
		n = funcName(fn)
		c.names[fn] = n
	}
	return n
}

// funcName names fn in reviewer words: "pkg.F", "(*pkg.T).M", and for a
// function literal its enclosing function plus the SSA suffix, "pkg.F$1";
// the body of a range-over-func loop has its function's name.
func funcName(fn *ssa.Function) string {
	if fn == nil {
		return ""
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	if p := fn.Parent(); p != nil {
		if lockset.IsLoopBody(fn) {
			// The body of a range-over-func loop is its
			// function's own code.
			return funcName(p)
		}
		suffix := fn.Name()
		if strings.HasPrefix(suffix, p.Name()) {
			suffix = suffix[len(p.Name()):]
		}
		return funcName(p) + suffix
	}
	if obj, ok := fn.Object().(*types.Func); ok {
		return funcObjName(obj)
	}
	if fn.Pkg != nil {
		return fn.Pkg.Pkg.Name() + "." + fn.Name()
	}
	return fn.Name()
}

// funcObjName names a declared function or method like funcName.
func funcObjName(obj *types.Func) string {
	sig, _ := obj.Type().(*types.Signature)
	if sig != nil && sig.Recv() != nil {
		return "(" + types.TypeString(sig.Recv().Type(), qualifier) + ")." + obj.Name()
	}
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Name() + "." + obj.Name()
}

// fieldName names field f of the struct that ptr points to, e.g.
// "(counter.Counter).n".
func fieldName(structType types.Type, f *types.Var) string {
	return "(" + typeName(structType) + ")." + f.Name()
}

// typeName names a struct type: a named type by its package and name
// without type arguments (all instances of a generic type share their
// fields, as they share lock classes), any other type as written.
func typeName(t types.Type) string {
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		return n.Obj().Pkg().Name() + "." + n.Obj().Name()
	}
	return types.TypeString(t, qualifier)
}

// globalName names a package-level variable, e.g. "counter.total".
func globalName(g *types.Var) string {
	if g.Pkg() == nil {
		return g.Name()
	}
	return g.Pkg().Name() + "." + g.Name()
}

// isSyncType reports whether t is, or points to, a type declared in
// package sync or sync/atomic: such values are synchronization, not data.
func isSyncType(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	switch n.Obj().Pkg().Path() {
	case "sync", "sync/atomic":
		return true
	}
	return false
}
