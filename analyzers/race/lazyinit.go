package race

import (
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Lazy initialization orders a field set once with the reads made after
// the call that sets it. The analyzer uses it for the shape of a value
// whose zero value is ready to use, and whose methods first initialize
// it:
//
//	func (t *Tomb) init() {
//		t.m.Lock()
//		if t.dead == nil {
//			t.dead = make(chan struct{})
//			t.dying = make(chan struct{})
//		}
//		t.m.Unlock()
//	}
//
//	func (t *Tomb) Dying() <-chan struct{} {
//		t.init()
//		return t.dying
//	}
//
// dead is a gate: it starts zero, and every store makes it non-zero, so
// once set it stays set. dying is set only in the gate's init: where a
// check of the gate, under a lock, found it zero, with the lock held
// until the gate is set. So dying is written at most once per value, and
// a read made only where the gate was seen set (under that lock, or by an
// atomic load, which acquires the gate's store made after the write), or
// after a call that returns only so, meets no write. The double-checked
// form (if atomic.LoadUint32(&f.state) != 0 { return }, then the same
// check under the lock) is the same gate.

// lazyFacts is what the package's code tells about fields set once under
// a gate.
type lazyFacts struct {
	// gates marks the unexported fields that every store makes non-zero
	// (or that are only ever set in a value being built).
	gates map[string]bool
	// inits maps an unexported field to the gate whose init sets it, when
	// every write of the field is such an init write.
	inits map[string]string
	// locks holds, per gate, the lock classes every init write holds:
	// a plain load of the gate sees it set only under one of them.
	locks map[string][]string
	// ensures memoizes ensuresGate.
	ensures map[ensureKey]bool
}

type ensureKey struct {
	fn   *ssa.Function
	gate string
}

// lazyFacts returns the package's lazyFacts, computing them on first use.
func (c *checker) lazyFacts() *lazyFacts {
	if c.lazy != nil {
		return c.lazy
	}
	f := &lazyFacts{gates: map[string]bool{}, inits: map[string]string{}, locks: map[string][]string{}, ensures: map[ensureKey]bool{}}
	c.lazy = f
	notGate := map[string]bool{}
	var addrs []*ssa.FieldAddr
	var keys []string // of addrs
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				fa, ok := instr.(*ssa.FieldAddr)
				if !ok {
					continue
				}
				key, ok := c.ownField(fa)
				if !ok {
					continue
				}
				addrs, keys = append(addrs, fa), append(keys, key)
				f.gates[key] = true
				if !gateUses(fa) {
					notGate[key] = true
				}
			}
		}
	}
	for key := range notGate {
		delete(f.gates, key)
	}
	notInit := map[string]bool{}
	for i, fa := range addrs {
		key := keys[i]
		if notInit[key] {
			continue
		}
		for _, r := range *fa.Referrers() {
			switch r := r.(type) {
			case *ssa.Store:
				if r.Addr != fa {
					notInit[key] = true
					continue
				}
				if _, fresh := fa.X.(*ssa.Alloc); fresh {
					continue // a value being built
				}
				gate, locks, ok := c.initWrite(r, fa)
				switch prev, seen := f.inits[key]; {
				case !ok || seen && prev != gate:
					notInit[key] = true
				case seen:
					f.locks[gate] = intersectStrings(f.locks[gate], locks)
				default:
					f.inits[key] = gate
					f.locks[gate] = locks
				}
			case *ssa.UnOp:
				if r.Op != token.MUL {
					notInit[key] = true
				}
			case *ssa.DebugRef:
			default:
				notInit[key] = true // its address is taken elsewhere
			}
		}
	}
	for key := range notInit {
		delete(f.inits, key)
	}
	return f
}

// ownField returns the key of the field fa selects when it is an
// unexported field of a struct type the package declares: only the
// package's own code writes it.
func (c *checker) ownField(fa *ssa.FieldAddr) (string, bool) {
	st := derefType(fa.X.Type())
	n, ok := types.Unalias(st).(*types.Named)
	if !ok || n.Obj().Pkg() != c.pass.Pkg {
		return "", false
	}
	f := structField(st, fa.Field)
	if f == nil || f.Exported() {
		return "", false
	}
	return fieldKey(fa)
}

// gateUses reports whether every use of fa, the address of a field,
// loads it, or stores a non-zero value into it (anything into a value
// being built), plainly or atomically.
func gateUses(fa *ssa.FieldAddr) bool {
	_, fresh := fa.X.(*ssa.Alloc)
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.Store:
			if r.Addr != fa || !fresh && !nonZeroValue(r.Val) {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.MUL {
				return false
			}
		case ssa.CallInstruction:
			if _, ok := gateLoadCall(r.Common()); ok {
				continue
			}
			if v, ok := gateStoreCall(r.Common()); !ok || !fresh && !nonZeroValue(v) {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// gateLoadCall returns the address an atomic load reads:
// atomic.LoadUint32(&f.state), or f.ready.Load() on a sync/atomic type.
func gateLoadCall(common *ssa.CallCommon) (ssa.Value, bool) {
	return atomicCall(common, "Load")
}

// gateStoreCall returns the value an atomic store writes (see
// gateLoadCall).
func gateStoreCall(common *ssa.CallCommon) (ssa.Value, bool) {
	if _, ok := atomicCall(common, "Store"); !ok || len(common.Args) != 2 {
		return nil, false
	}
	return common.Args[1], true
}

// atomicCall reports whether common calls a function of package
// sync/atomic whose name begins with op (LoadUint32, StorePointer), or
// method op of one of its types, and returns the address it operates on.
func atomicCall(common *ssa.CallCommon, op string) (ssa.Value, bool) {
	fn := common.StaticCallee()
	if fn == nil || fn.Pkg == nil || fn.Pkg.Pkg.Path() != "sync/atomic" || len(common.Args) == 0 {
		return nil, false
	}
	if fn.Signature.Recv() != nil {
		if fn.Name() != op {
			return nil, false
		}
	} else if !strings.HasPrefix(fn.Name(), op) {
		return nil, false
	}
	return common.Args[0], true
}

// nonZeroValue reports whether v is certainly not the zero value of its
// type: a non-zero constant, or something just made.
func nonZeroValue(v ssa.Value) bool {
	switch v := v.(type) {
	case *ssa.Const:
		return nonZeroConst(v)
	case *ssa.MakeChan, *ssa.MakeMap, *ssa.MakeSlice, *ssa.MakeClosure, *ssa.Alloc, *ssa.Function, *ssa.MakeInterface:
		return true
	}
	return false
}

// gateLoad returns the gate v loads, the value holding it and the
// instruction reading it: a plain load of the field, or an atomic one.
func (c *checker) gateLoad(v ssa.Value) (gate string, base ssa.Value, load ssa.Instruction, atomic bool) {
	var addr ssa.Value
	switch v := v.(type) {
	case *ssa.UnOp:
		if v.Op != token.MUL {
			return "", nil, nil, false
		}
		addr, load = v.X, v
	case *ssa.Call:
		a, ok := gateLoadCall(v.Common())
		if !ok {
			return "", nil, nil, false
		}
		addr, load, atomic = a, v, true
	default:
		return "", nil, nil, false
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return "", nil, nil, false
	}
	key, ok := c.ownField(fa)
	if !ok || !c.lazy.gates[key] {
		return "", nil, nil, false
	}
	return key, fa.X, load, atomic
}

// gateCheck recognizes cond, an if's condition, as a check of a gate:
// a load of it compared with zero (t.dead == nil, state != 0), or a
// boolean gate itself. zeroWhen is the value of cond that means the
// gate is zero.
func (c *checker) gateCheck(cond ssa.Value) (gate string, base ssa.Value, load ssa.Instruction, atomic, zeroWhen bool, ok bool) {
	if bin, isBin := cond.(*ssa.BinOp); isBin && (bin.Op == token.EQL || bin.Op == token.NEQ) {
		x, y := bin.X, bin.Y
		if !zeroConst(y) {
			x, y = y, x
		}
		if !zeroConst(y) {
			return "", nil, nil, false, false, false
		}
		gate, base, load, atomic = c.gateLoad(x)
		return gate, base, load, atomic, bin.Op == token.EQL, gate != ""
	}
	if b, isBasic := cond.Type().Underlying().(*types.Basic); isBasic && b.Kind() == types.Bool {
		gate, base, load, atomic = c.gateLoad(cond)
		return gate, base, load, atomic, false, gate != ""
	}
	return "", nil, nil, false, false, false
}

// zeroConst reports whether v is a zero constant: nil, 0, false or "".
func zeroConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok {
		return false
	}
	if k.Value == nil {
		return true
	}
	switch k.Value.Kind() {
	case constant.Bool:
		return !constant.BoolVal(k.Value)
	case constant.Int, constant.Float:
		return constant.Sign(k.Value) == 0
	case constant.String:
		return constant.StringVal(k.Value) == ""
	}
	return false
}

// initWrite reports whether store, a write of the field fa selects, is
// an init write: made only where the innermost check of a gate of the
// same value found it zero, under a lock held from the check, on a side
// of the check whose every path to a return stores the gate under that
// lock. It returns the gate and the locks held.
func (c *checker) initWrite(store *ssa.Store, fa *ssa.FieldAddr) (gate string, locks []string, ok bool) {
	var load ssa.Instruction
	var side *ssa.BasicBlock // the block entered where the check found the gate zero
	for d := store.Block(); d != nil && side == nil; d = d.Idom() {
		if len(d.Preds) != 1 {
			continue
		}
		p := d.Preds[0]
		ifi, isIf := p.Instrs[len(p.Instrs)-1].(*ssa.If)
		if !isIf || p.Succs[0] == p.Succs[1] {
			continue
		}
		g, base, l, _, zeroWhen, isCheck := c.gateCheck(ifi.Cond)
		if !isCheck || base != fa.X {
			continue
		}
		if (d == p.Succs[0]) != zeroWhen {
			return "", nil, false // written where the gate was seen set
		}
		gate, load, side = g, l, d
	}
	if side == nil {
		return "", nil, false
	}
	held := c.heldBefore(store)
	for _, l := range c.heldBefore(load) {
		if !l.Assumed && held.has(l.Class) {
			locks = append(locks, l.Class)
		}
	}
	if len(locks) == 0 || !c.gateSetAfter(side.Instrs[0], fa.X, gate, locks) {
		return "", nil, false
	}
	return gate, locks, true
}

// gateSetAfter reports whether every path from instr (included) to a
// return stores a non-zero value into gate of base (or defers the
// store), holding one of locks there.
func (c *checker) gateSetAfter(instr ssa.Instruction, base ssa.Value, gate string, locks []string) bool {
	sets := func(x ssa.Instruction) bool {
		if !c.storesGate(x, base, gate) {
			return false
		}
		held := c.heldBefore(x)
		for _, l := range locks {
			if held.has(l) {
				return true
			}
		}
		return false
	}
	i := slices.Index(instr.Block().Instrs, instr) // instr itself may be the gate's store
	for _, b := range instr.Parent().Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && reachesAvoiding(instr, i, ret, sets) {
			return false
		}
	}
	return true
}

// storesGate reports whether x stores a non-zero value into gate of
// base, plainly or atomically, or defers such an atomic store.
func (c *checker) storesGate(x ssa.Instruction, base ssa.Value, gate string) bool {
	var addr, val ssa.Value
	switch x := x.(type) {
	case *ssa.Store:
		addr, val = x.Addr, x.Val
	case ssa.CallInstruction:
		if _, isGo := x.(*ssa.Go); isGo {
			return false
		}
		v, ok := gateStoreCall(x.Common())
		if !ok {
			return false
		}
		addr, val = x.Common().Args[0], v
	default:
		return false
	}
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok || fa.X != base || !nonZeroValue(val) {
		return false
	}
	key, ok := fieldKey(fa)
	return ok && key == gate
}

// lazyAcquires returns the key a read of the field addr selects
// acquires: the field is set only by its gate's init, and the read is
// made only where the gate of the same value is set.
func (c *checker) lazyAcquires(instr ssa.Instruction, addr ssa.Value) string {
	fa, key, gate := c.initField(addr)
	if gate == "" || !c.gateSetAt(instr, fa.X, gate) {
		return ""
	}
	return "init:" + key
}

// lazyPublishes returns the key a write of the field addr selects
// publishes: the field is set only by its gate's init.
func (c *checker) lazyPublishes(addr ssa.Value) string {
	if _, key, gate := c.initField(addr); gate != "" {
		return "init:" + key
	}
	return ""
}

// initField returns the field addr selects, its key and its gate when it
// is set only by the gate's init; gate is "" otherwise.
func (c *checker) initField(addr ssa.Value) (fa *ssa.FieldAddr, key, gate string) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil, "", ""
	}
	if key, ok = c.ownField(fa); !ok {
		return nil, "", ""
	}
	return fa, key, c.lazyFacts().inits[key]
}

// gateSetAt reports whether gate of base is set wherever instr runs:
// on every path to it, the last word on the gate was a check that found
// it set (under one of its init locks, or atomically), a store of it, or
// a call of a function of the package that returns only with it set.
func (c *checker) gateSetAt(instr ssa.Instruction, base ssa.Value, gate string) bool {
	in := c.gateFlow(instr.Parent(), base, gate)
	return c.gateOut(instr.Block(), in[instr.Block().Index], base, gate, instr)
}

// ensuresGate reports whether fn returns only with gate of its first
// parameter set.
func (c *checker) ensuresGate(fn *ssa.Function, gate string) bool {
	k := ensureKey{fn, gate}
	if r, ok := c.lazy.ensures[k]; ok {
		return r
	}
	c.lazy.ensures[k] = false // while it is decided (recursion)
	if len(fn.Params) == 0 || len(fn.Blocks) == 0 {
		return false
	}
	base := fn.Params[0]
	in := c.gateFlow(fn, base, gate)
	ok := false
	for _, b := range fn.Blocks {
		if _, isRet := b.Instrs[len(b.Instrs)-1].(*ssa.Return); !isRet || b == fn.Recover {
			continue // (a deferred call's recover() returns from a panic)
		}
		if !c.gateOut(b, in[b.Index], base, gate, nil) {
			return false
		}
		ok = true
	}
	c.lazy.ensures[k] = ok
	return ok
}

// gateFlow returns, per block of fn, whether gate of base is set on
// entry (see gateSetAt): a must-analysis, from an optimistic start.
func (c *checker) gateFlow(fn *ssa.Function, base ssa.Value, gate string) []bool {
	in := make([]bool, len(fn.Blocks))
	for i := 1; i < len(in); i++ {
		in[i] = true
	}
	for changed := true; changed; {
		changed = false
		for _, b := range fn.Blocks[1:] {
			v := len(b.Preds) > 0
			for _, p := range b.Preds {
				if v && !c.gateEdge(p, b, in[p.Index], base, gate) {
					v = false
				}
			}
			if v != in[b.Index] {
				in[b.Index], changed = v, true
			}
		}
	}
	return in
}

// gateEdge reports whether the gate is set on the edge from p to s.
func (c *checker) gateEdge(p, s *ssa.BasicBlock, in bool, base ssa.Value, gate string) bool {
	if ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If); ok && p.Succs[0] != p.Succs[1] {
		if g, b, load, atomic, zeroWhen, isCheck := c.gateCheck(ifi.Cond); isCheck && g == gate && b == base {
			if (s == p.Succs[0]) == zeroWhen {
				return false // seen zero
			}
			if atomic || c.underInitLock(load, gate) {
				return true
			}
		}
	}
	return c.gateOut(p, in, base, gate, nil)
}

// underInitLock reports whether load holds a lock that every init write
// of gate holds.
func (c *checker) underInitLock(load ssa.Instruction, gate string) bool {
	held := c.heldBefore(load)
	for _, l := range c.lazy.locks[gate] {
		if takenIn(held, l) {
			return true
		}
	}
	return false
}

// gateOut returns whether the gate is set after b's instructions (before
// stop, if it is one of them), given whether it is on entry.
func (c *checker) gateOut(b *ssa.BasicBlock, set bool, base ssa.Value, gate string, stop ssa.Instruction) bool {
	for _, x := range b.Instrs {
		if x == stop {
			break
		}
		if c.storesGate(x, base, gate) {
			set = true
			continue
		}
		if call, ok := x.(*ssa.Call); ok && len(call.Call.Args) > 0 && call.Call.Args[0] == base {
			if callee := call.Call.StaticCallee(); callee != nil && c.isLocal(callee) && c.ensuresGate(callee, gate) {
				set = true
			}
		}
	}
	return set
}
