package race

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// captures maps the free variables of function literals to the values
// their enclosing functions bind them to.
type captures struct {
	binding map[*ssa.FreeVar]ssa.Value
	made    map[*ssa.Function][]*ssa.MakeClosure // where each literal's closures are made
}

// newCaptures indexes the MakeClosure instructions of funcs.
func newCaptures(funcs []*ssa.Function) *captures {
	c := &captures{binding: map[*ssa.FreeVar]ssa.Value{}, made: map[*ssa.Function][]*ssa.MakeClosure{}}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				mc, ok := instr.(*ssa.MakeClosure)
				if !ok {
					continue
				}
				lit, ok := mc.Fn.(*ssa.Function)
				if !ok {
					continue
				}
				c.made[lit] = append(c.made[lit], mc)
				for i, fv := range lit.FreeVars {
					if i < len(mc.Bindings) {
						c.binding[fv] = mc.Bindings[i]
					}
				}
			}
		}
	}
	return c
}

// bound returns the value that every closure made of fv's function binds
// to fv, or nil when they bind different values or there is none.
func (c *captures) bound(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	i := indexOfFreeVar(fn, fv)
	var v ssa.Value
	for _, mc := range c.made[fn] {
		if i < 0 || i >= len(mc.Bindings) || v != nil && v != mc.Bindings[i] {
			return nil
		}
		v = mc.Bindings[i]
	}
	return v
}

// allocOf returns the variable, allocated in an enclosing function, that
// free variable fv refers to, or nil.
func (c *captures) allocOf(fv *ssa.FreeVar) *ssa.Alloc {
	for i := 0; i < 64; i++ { // nesting depth bound
		v, ok := c.binding[fv]
		if !ok {
			return nil
		}
		switch v := v.(type) {
		case *ssa.Alloc:
			return v
		case *ssa.FreeVar:
			fv = v
		default:
			return nil
		}
	}
	return nil
}

// isCaptured reports whether a is bound to the free variable of some
// function literal.
func isCaptured(a *ssa.Alloc) bool {
	for _, r := range *a.Referrers() {
		if _, ok := r.(*ssa.MakeClosure); ok {
			return true
		}
	}
	return false
}

// derefType returns the element type of pointer type t, or t.
func derefType(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	if tp, ok := types.Unalias(t).(*types.TypeParam); ok {
		// A type parameter constrained to pointers: use its core type.
		if st, ok := tp.Constraint().Underlying().(*types.Interface); ok && st.NumEmbeddeds() == 1 {
			if p, ok := st.EmbeddedType(0).Underlying().(*types.Pointer); ok {
				return p.Elem()
			}
		}
	}
	return t
}

// structField returns field i of struct type t, or nil.
func structField(t types.Type, i int) *types.Var {
	st, ok := t.Underlying().(*types.Struct)
	if !ok || i < 0 || i >= st.NumFields() {
		return nil
	}
	return st.Field(i)
}
