package race

import (
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// maxUnpublishDepth bounds the calls followed from a call in the
// allocating function to the delete that unpublishes.
const maxUnpublishDepth = 3

// unpublished reports whether the object that escaped at p is private
// again at instr: p only put it into a map held in a field or package
// variable (g.m[key] = obj), and every path from p to instr passes a call
// that deletes key from that same map while holding a lock (g.mu.Lock();
// delete(g.m, key)). Goroutines that write the object find it in the map
// under the lock; once it is gone from there, the goroutine that deleted
// it is the only one left holding it, and the delete's lock orders their
// earlier writes before what follows (the unpublish protocol of x/sync's
// singleflight).
func (e *escapes) unpublished(p, instr ssa.Instruction) bool {
	up, ok := p.(*ssa.MapUpdate)
	if !ok || e.locked == nil {
		return false
	}
	slot, owner := mapSlot(up.Map)
	if slot == nil {
		return false
	}
	top := &frame{fn: e.fn}
	key, owner := top.root(up.Key), top.root(owner)
	if key == nil {
		return false
	}
	deletes := func(x ssa.Instruction) bool {
		call, ok := x.(*ssa.Call)
		return ok && e.deletesIn(call, top, slot, owner, key, 0)
	}
	return !reachesAvoiding(p, e.indexOf(p), instr, deletes)
}

// reachesAvoiding reports whether some path from just after from (at
// index i of its block) reaches to without passing an instruction for
// which stop is true.
func reachesAvoiding(from ssa.Instruction, i int, to ssa.Instruction, stop func(ssa.Instruction) bool) bool {
	return reachesAvoidingEdges(from, i, to, stop, nil)
}

// reachesAvoidingEdges is reachesAvoiding, not taking the edges from b
// to s for which cut, when not nil, is true.
func reachesAvoidingEdges(from ssa.Instruction, i int, to ssa.Instruction, stop func(ssa.Instruction) bool, cut func(b, s *ssa.BasicBlock) bool) bool {
	seen := make([]bool, len(from.Parent().Blocks))
	var walk func(b *ssa.BasicBlock, start int) bool
	walk = func(b *ssa.BasicBlock, start int) bool {
		for _, x := range b.Instrs[start:] {
			if x == to {
				return true
			}
			if stop(x) {
				return false
			}
		}
		for _, s := range b.Succs {
			if seen[s.Index] || cut != nil && cut(b, s) {
				continue
			}
			seen[s.Index] = true
			if walk(s, 0) {
				return true
			}
		}
		return false
	}
	return walk(from.Block(), i+1)
}

// deletesIn reports whether call, made in frame f, runs (itself, or
// through the functions and deferred closures it calls) delete on the map
// in slot of owner with key, while holding a lock. Values are compared
// as the allocating function (the outermost frame) sees them.
func (e *escapes) deletesIn(call ssa.CallInstruction, f *frame, slot types.Object, owner, key ssa.Value, depth int) bool {
	if depth >= maxUnpublishDepth {
		return false
	}
	common := call.Common()
	callee := common.StaticCallee()
	var binds []ssa.Value
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		callee, binds = mc.Fn.(*ssa.Function), mc.Bindings
	}
	if callee == nil || common.IsInvoke() || len(callee.Blocks) == 0 || len(common.Args) != len(callee.Params) {
		return false
	}
	g := &frame{fn: callee, args: common.Args, binds: binds, parent: f}
	for _, b := range callee.Blocks {
		for _, x := range b.Instrs {
			switch x := x.(type) {
			case *ssa.Call:
				if isBuiltin(x.Common(), "delete") {
					m, k := x.Call.Args[0], x.Call.Args[1]
					if s, o := mapSlot(m); s == slot && g.root(o) == owner && g.root(k) == key && e.locked(x) {
						return true
					}
					continue
				}
				if e.deletesIn(x, g, slot, owner, key, depth+1) {
					return true
				}
			case *ssa.Defer:
				// Runs before the callee returns.
				if e.deletesIn(x, g, slot, owner, key, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// mapSlot returns the field or package-level variable a map value was
// loaded from, and for a field the value whose field it is.
func mapSlot(m ssa.Value) (types.Object, ssa.Value) {
	load, ok := m.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, nil
	}
	switch addr := load.X.(type) {
	case *ssa.FieldAddr:
		f := structField(derefType(addr.X.Type()), addr.Field)
		if f == nil {
			return nil, nil
		}
		return f.Origin(), addr.X
	case *ssa.Global:
		return addr.Object(), addr
	}
	return nil, nil
}

// A frame is a function entered from the allocating function through
// calls: the values its parameters and free variables are bound to in
// the frame of its caller.
type frame struct {
	fn     *ssa.Function
	args   []ssa.Value // the call's arguments, one per parameter
	binds  []ssa.Value // the closure's bindings, one per free variable
	parent *frame
}

// root returns the value of the outermost frame that v, a value of f.fn,
// stands for, following parameters, free variables and local variables
// stored once; nil when it is not one.
func (f *frame) root(v ssa.Value) ssa.Value {
	for v != nil {
		v = storedOnce(v)
		if f.parent == nil {
			return v
		}
		switch x := v.(type) {
		case *ssa.Parameter:
			v = bound(f.fn.Params, x, f.args)
		case *ssa.FreeVar:
			v = bound(f.fn.FreeVars, x, f.binds)
		case *ssa.UnOp:
			// A load of a captured variable: the variable's value where
			// the closure was made.
			fv, ok := x.X.(*ssa.FreeVar)
			if x.Op != token.MUL || !ok {
				return nil
			}
			cell := bound(f.fn.FreeVars, fv, f.binds)
			if cell == nil {
				return nil
			}
			v = storedIn(cell)
		default:
			return nil
		}
		f = f.parent
	}
	return nil
}

// bound returns the value bound to p, one of ps, in vals.
func bound[T comparable](ps []T, p T, vals []ssa.Value) ssa.Value {
	for i, q := range ps {
		if q == p && i < len(vals) {
			return vals[i]
		}
	}
	return nil
}

// storedOnce returns, for a load of a local variable that is stored
// exactly once, the value stored; otherwise v.
func storedOnce(v ssa.Value) ssa.Value {
	if load, ok := v.(*ssa.UnOp); ok && load.Op == token.MUL {
		if s := storedIn(load.X); s != nil {
			return s
		}
	}
	return v
}

// storedIn returns the one value stored in a local variable, or nil.
func storedIn(cell ssa.Value) ssa.Value {
	alloc, ok := cell.(*ssa.Alloc)
	if !ok {
		return nil
	}
	var val ssa.Value
	for _, r := range *alloc.Referrers() {
		if s, ok := r.(*ssa.Store); ok && s.Addr == alloc {
			if val != nil {
				return nil
			}
			val = s.Val
		}
	}
	return val
}
