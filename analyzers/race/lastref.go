package race

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// A lastRef is the code a function runs only once it dropped the last
// reference to an object it counts references to (if
// atomic.AddInt32(&s.refs, -1) == 0 { s.reset() }): the holders of the
// other references released them first, each after its own accesses, and
// the atomic decrements order those accesses before this code. What it
// does to the object (a reset before the object goes back to a pool) is
// not shared with them.
type lastRef struct {
	entry *ssa.BasicBlock // dominates the code
	root  ssa.Value       // the object counted
}

// ownings holds what a function owns alone, and where (see ownedRoots).
type ownings struct {
	lastRefs []lastRef
	// puts lists, per block, the calls of (*sync.Pool).Put on an object
	// of the function, with the object's root.
	puts map[*ssa.BasicBlock][]poolPut
}

// A poolPut is a call putting the object at root back in a sync.Pool.
type poolPut struct {
	call *ssa.Call
	root ssa.Value
}

// ownedRoots returns the roots of the objects that the function of instr
// owns alone at instr: it dropped their last reference before instr (see
// lastRef), or puts them back in a sync.Pool after instr, in its block
// (s.reset(); pool.Put(s)), which the pool's next user may take at once.
func (c *checker) ownedRoots(instr ssa.Instruction) []ssa.Value {
	fn, b := instr.Parent(), instr.Block()
	if fn == nil || b == nil {
		return nil
	}
	o, ok := c.owned[fn]
	if !ok {
		o = c.findOwnings(fn)
		if c.owned == nil {
			c.owned = map[*ssa.Function]*ownings{}
		}
		c.owned[fn] = o
	}
	var out []ssa.Value
	for _, r := range o.lastRefs {
		if r.entry.Dominates(b) {
			out = append(out, r.root)
		}
	}
	if puts := o.puts[b]; len(puts) > 0 {
		at := slices.Index(b.Instrs, instr)
		for _, p := range puts {
			if slices.Index(b.Instrs, ssa.Instruction(p.call)) > at {
				out = append(out, p.root)
			}
		}
	}
	return out
}

// findOwnings finds the code of fn that runs after its last reference
// to an object was dropped, and its calls putting objects back in a
// sync.Pool.
func (c *checker) findOwnings(fn *ssa.Function) *ownings {
	o := &ownings{lastRefs: c.findLastRefs(fn)}
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(*ssa.Call)
			if !ok || !isSyncMethod(&call.Call, "Pool", "Put") || len(call.Call.Args) != 2 {
				continue
			}
			v := call.Call.Args[1]
			if mi, ok := v.(*ssa.MakeInterface); ok {
				v = mi.X
			}
			if root, path, ok := c.trace(v, 0); ok && path == "" {
				if o.puts == nil {
					o.puts = map[*ssa.BasicBlock][]poolPut{}
				}
				o.puts[b] = append(o.puts[b], poolPut{call: call, root: root})
			}
		}
	}
	return o
}

// findLastRefs returns the code of fn that runs after a decrement of a
// reference count found the count at its end.
func (c *checker) findLastRefs(fn *ssa.Function) []lastRef {
	var out []lastRef
	for _, b := range fn.Blocks {
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		x, op, _, ok := againstConst(ifi.Cond)
		if !ok {
			continue
		}
		call, ok := x.(*ssa.Call)
		if !ok {
			continue
		}
		addr, ok := decrement(&call.Call)
		if !ok {
			continue
		}
		var entry *ssa.BasicBlock
		switch op {
		case token.EQL, token.LEQ, token.LSS:
			entry = b.Succs[0] // if n == 0 { last }
		case token.NEQ, token.GTR, token.GEQ:
			entry = b.Succs[1] // if n != 0 { return }; last
		default:
			continue
		}
		if len(entry.Preds) != 1 {
			continue
		}
		if root := c.counted(addr); root != nil {
			out = append(out, lastRef{entry: entry, root: root})
		}
	}
	return out
}

// counted returns the root of the object whose counter is at addr, a
// field of it (&s.refs), or nil.
func (c *checker) counted(addr ssa.Value) ssa.Value {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	root, path, ok := c.trace(fa.X, 0)
	if !ok || path != "" {
		return nil // a count kept apart from the object (s.refs of an s.inner)
	}
	return root
}

// mirror returns the comparison op with its operands swapped (0 < n is n
// > 0).
func mirror(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

// decrement returns the address of the counter that call decrements
// atomically, returning the new count: atomic.AddInt32(&s.refs, -1),
// atomic.AddUint32(&q.refs, ^uint32(0)), s.refs.Add(-1) on an
// atomic.Int64.
func decrement(call *ssa.CallCommon) (ssa.Value, bool) {
	fn, ok := call.Value.(*ssa.Function)
	if !ok || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || !strings.HasPrefix(fn.Name(), "Add") || len(call.Args) != 2 {
		return nil, false
	}
	delta, ok := call.Args[1].(*ssa.Const)
	if !ok || delta.Value == nil || delta.Value.Kind() != constant.Int {
		return nil, false
	}
	if constant.Sign(delta.Value) < 0 {
		return call.Args[0], true
	}
	// An unsigned counter is decremented by adding its maximum, or one
	// close to it (^uint32(n-1) subtracts n).
	basic, ok := delta.Type().Underlying().(*types.Basic)
	if !ok || basic.Info()&types.IsUnsigned == 0 {
		return nil, false
	}
	bits := uint(64)
	if basic.Kind() == types.Uint32 {
		bits = 32
	}
	half := constant.Shift(constant.MakeUint64(1), token.SHL, bits-1)
	return call.Args[0], constant.Compare(delta.Value, token.GEQ, half)
}

// owned reports whether a is an access to the memory of one of
// the objects of roots itself (s.tags, s.ctx.id of a struct it holds by
// value; not s.tracer.spans: the objects it points to may have other
// holders).
func owned(roots []ssa.Value, a *access) bool {
	if a.global != "" || strings.ContainsAny(a.path, "[{") {
		return false
	}
	if n := strings.Count(a.path, "."); n > 1 && n != len(a.owners) {
		return false
	}
	for _, r := range roots {
		if a.root == r {
			return true
		}
	}
	return false
}

// ownedReceiver reports whether the receiver of call (or its first
// argument) is an object its caller owns alone there (see ownedRoots):
// a method called only so (a reset before the object goes back to its
// pool) runs on memory nothing else reaches.
func (c *checker) ownedReceiver(call *ssa.Call) bool {
	recv := receiverOf(&call.Call)
	if recv == nil {
		return false
	}
	roots := c.ownedRoots(call)
	if len(roots) == 0 {
		return false
	}
	root, path, ok := c.trace(recv, 0)
	return ok && path == "" && slices.Contains(roots, root)
}
