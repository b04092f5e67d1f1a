package race

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A function value stored into a field of function type runs where the
// field is called:
//
//	p := &policy{evict: c.evictNode} // or newPolicy(c.evictNode)
//	...
//	func (p *policy) evictOne(n *node) { p.evict(n) } // under c.mu
//
// evictNode is entered at the calls p.evict(n), under the locks held
// there, not where the method value was made. callbackFields records, for
// the unexported fields of function type of the package, what is stored
// there and where the field is called. A field whose value is used
// otherwise than called (passed on, started as a goroutine) runs its
// functions where the package cannot see.
type callbackFields struct {
	stored map[string][]*ssa.Function // field key -> functions stored there
	calls  map[string][]*ssa.Call     // field key -> calls of the field
	open   map[string]bool            // field key -> value used otherwise than called
	// params maps a parameter of a function of the package that is only
	// stored into such a field (newPolicy(evict) storing it into
	// p.evict) to the field.
	params map[*ssa.Parameter]string
}

func newCallbackFields(funcs []*ssa.Function) *callbackFields {
	cb := &callbackFields{stored: map[string][]*ssa.Function{}, calls: map[string][]*ssa.Call{},
		open: map[string]bool{}, params: map[*ssa.Parameter]string{}}
	for _, fn := range funcs {
		for _, p := range fn.Params {
			if key, ok := onlyStoredInField(p); ok {
				cb.params[p] = key
			}
		}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				load, ok := instr.(*ssa.UnOp)
				if !ok || load.Op != token.MUL {
					continue
				}
				key, ok := callbackField(load.X)
				if !ok {
					continue
				}
				for _, r := range *load.Referrers() {
					switch r := r.(type) {
					case *ssa.Call:
						if r.Call.Value == load {
							cb.calls[key] = append(cb.calls[key], r)
							continue
						}
						cb.open[key] = true
					case *ssa.BinOp, *ssa.DebugRef:
						// p.evict == nil
					default:
						cb.open[key] = true
					}
				}
			}
		}
	}
	return cb
}

// storedField returns the field that instr stores function value v into,
// directly (x.f = v) or through a parameter of a function of the package
// that only stores it there (newPolicy(v)).
func (cb *callbackFields) storedField(instr ssa.Instruction, v ssa.Value) (string, bool) {
	switch instr := instr.(type) {
	case *ssa.Store:
		if instr.Val == v {
			return callbackField(instr.Addr)
		}
	case *ssa.Call:
		callee := instr.Call.StaticCallee()
		if callee == nil || instr.Call.Value == v {
			return "", false
		}
		if callee.Origin() != nil {
			callee = callee.Origin()
		}
		for i, arg := range instr.Call.Args {
			if arg == v && i < len(callee.Params) {
				key, ok := cb.params[callee.Params[i]]
				return key, ok
			}
		}
	}
	return "", false
}

// add records fn as stored into field key.
func (cb *callbackFields) add(key string, fn *ssa.Function) {
	cb.stored[key] = append(cb.stored[key], fn)
}

// onlyStoredInField reports whether every use of parameter p stores it
// into an unexported field of function type, the same one.
func onlyStoredInField(p *ssa.Parameter) (string, bool) {
	var key string
	for _, r := range *p.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			k, ok := callbackField(r.Addr)
			if !ok || r.Val != p || key != "" && k != key {
				return "", false
			}
			key = k
		case *ssa.DebugRef:
		default:
			return "", false
		}
	}
	return key, key != ""
}

// callbackField returns the key of the field addr selects when it is an
// unexported field of function type, which only the package calls.
func callbackField(addr ssa.Value) (string, bool) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	f := structField(derefType(fa.X.Type()), fa.Field)
	if f == nil || f.Exported() {
		return "", false
	}
	if _, ok := f.Type().Underlying().(*types.Signature); !ok {
		return "", false
	}
	return fieldKey(fa)
}
