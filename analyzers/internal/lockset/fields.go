package lockset

import (
	"strconv"

	"golang.org/x/tools/go/ssa"
)

// fieldKey names field i of the struct type a FieldAddr or Field
// selects from: the same for every value of the type.
func fieldKey(x ssa.Value, field int) string {
	t := x.Type()
	if _, ok := x.(*ssa.Field); !ok {
		t = deref(t)
	}
	if n := namedOf(t); n != nil {
		return typeName(n) + "." + strconv.Itoa(field)
	}
	return t.String() + "." + strconv.Itoa(field)
}

// indexFieldFuncs records the function values the package stores into
// fields of struct types (c.process = f, &Config{Process: func() {...}}),
// by field.
func (e *engine) indexFieldFuncs(funcs []*ssa.Function) {
	e.fieldFuncs = map[string][]ssa.Value{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok {
					continue
				}
				fa, ok := st.Addr.(*ssa.FieldAddr)
				if !ok || !isFunc(st.Val) {
					continue
				}
				k := fieldKey(fa.X, fa.Field)
				e.fieldFuncs[k] = append(e.fieldFuncs[k], st.Val)
			}
		}
	}
}

func isFunc(v ssa.Value) bool {
	_, ok := v.Type().Underlying().(interface{ Variadic() bool })
	return ok
}

// storedFuncs returns the functions the function value v, loaded from a
// field (c.process, a copy of cfg.Process), may be: the functions and
// closures the package stores into that field, followed through copies
// from other fields; not the method values stored there. Closures come
// without their bindings (they are bound elsewhere). It returns nil when v is not such a load or when a
// stored value is not known.
func (e *engine) storedFuncs(v ssa.Value, depth int) []*ssa.Function {
	if depth > 4 {
		return nil
	}
	for {
		ct, ok := v.(*ssa.ChangeType)
		if !ok {
			break
		}
		v = ct.X
	}
	var key string
	switch v := v.(type) {
	case *ssa.UnOp:
		fa, ok := v.X.(*ssa.FieldAddr)
		if !ok || v.Op.String() != "*" {
			return nil
		}
		key = fieldKey(fa.X, fa.Field)
	case *ssa.Field:
		key = fieldKey(v.X, v.Field)
	default:
		return nil
	}
	var out []*ssa.Function
	for _, s := range e.fieldFuncs[key] {
		for {
			ct, ok := s.(*ssa.ChangeType)
			if !ok {
				break
			}
			s = ct.X
		}
		switch s := s.(type) {
		case *ssa.Function:
			out = append(out, s)
		case *ssa.MakeClosure:
			fn, ok := s.Fn.(*ssa.Function)
			if !ok {
				return nil
			}
			if fn.Parent() == nil {
				// A method value (c.cmdable = c.Process: a
				// client dispatching through itself), whose
				// calls go back into the package's dispatch:
				// not followed.
				continue
			}
			out = append(out, fn)
		default:
			fns := e.storedFuncs(s, depth+1)
			if fns == nil {
				return nil // a value from elsewhere: not all are known
			}
			out = append(out, fns...)
		}
	}
	return out
}
