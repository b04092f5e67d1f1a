package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Locks that are not sync's: a channel of capacity 1 used as a mutex,
// and an atomic flag taken by compare-and-swap. Both are recognized by
// location (a field, a package-level variable or a captured variable),
// from how the whole package uses that location.

// indexChanLocks finds the channels used as mutexes (Kind KindChan): the
// locations (fields, package-level or captured variables) to which the
// package only ever stores channels made with capacity 1 (make(chan T,
// 1)), whose channel is only ever sent on, received from without comma-ok
// (never ranged over), selected on, or measured (len, cap): never closed,
// never passed on, stored elsewhere or compared; and that some function
// both sends on and receives from. A coalescing notify (select { case
// c.notify <- struct{}{}: default: } in producers, <-c.notify in a
// worker) passes these tests; the engine drops a class unless some
// function acquires the lock and later releases it itself (see
// engine.verifyChans): a signal's sender never receives. A location a
// method of a sync.Locker type operates on is that Locker's (its Lock
// and Unlock are the lock operations, see LockerOp).
func (c *Classifier) indexChanLocks(funcs []*ssa.Function) {
	made := map[string]bool{}
	bad := map[string]bool{}
	sends, recvs := map[string]bool{}, map[string]bool{}
	use := func(class string, ch ssa.Value, refs *[]ssa.Instruction) {
		if refs == nil {
			return
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.Send:
				if r.Chan != ch || r.X == ch {
					bad[class] = true
				}
				sends[class] = true
			case *ssa.UnOp:
				if r.Op != token.ARROW || r.CommaOk {
					bad[class] = true
				}
				recvs[class] = true
			case *ssa.Select:
				for _, st := range r.States {
					if st.Send == ch {
						bad[class] = true
					}
					if st.Chan != ch {
						continue
					}
					if st.Dir == types.SendOnly {
						sends[class] = true
					} else {
						recvs[class] = true
					}
				}
			case *ssa.Call:
				b, ok := r.Call.Value.(*ssa.Builtin)
				if !ok || (b.Name() != "len" && b.Name() != "cap") {
					bad[class] = true
				}
			case *ssa.DebugRef:
			default:
				bad[class] = true
			}
		}
	}
	for _, fn := range funcs {
		locker := c.isLockerMethodOf(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					if !isChan(instr.Val.Type()) {
						continue
					}
					p, ok := c.chanLocation(instr.Addr)
					if !ok {
						continue
					}
					if mc, isMake := instr.Val.(*ssa.MakeChan); isMake && isConstOne(mc.Size) {
						made[p.Class] = true
					} else {
						bad[p.Class] = true
					}
				case *ssa.UnOp:
					if instr.Op != token.MUL || !isChan(instr.Type()) {
						continue
					}
					p, ok := c.chanLocation(instr.X)
					if !ok {
						continue
					}
					if locker {
						bad[p.Class] = true
					}
					use(p.Class, instr, instr.Referrers())
				case *ssa.Field:
					if !isChan(instr.Type()) {
						continue
					}
					p, ok := c.path(instr, 0)
					if !ok {
						continue
					}
					if locker {
						bad[p.Class] = true
					}
					use(p.Class, instr, instr.Referrers())
				}
			}
		}
	}
	for class := range made {
		if !bad[class] && sends[class] && recvs[class] {
			if c.chans == nil {
				c.chans = map[string]bool{}
			}
			c.chans[class] = true
		}
	}
}

// chanLocation names the location addr points to when it may hold a
// channel used as a mutex: a field, a package-level variable, or a
// variable closures capture.
func (c *Classifier) chanLocation(addr ssa.Value) (Ref, bool) {
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Global, *ssa.Alloc, *ssa.FreeVar:
		return c.path(addr, 0)
	}
	return Ref{}, false
}

// chanLock returns the lock of the channel ch when it is one used as a
// mutex: loaded from such a location.
func (c *Classifier) chanLock(ch ssa.Value) (Ref, bool) {
	if len(c.chans) == 0 {
		return Ref{}, false
	}
	var p Ref
	ok := false
	switch v := ch.(type) {
	case *ssa.UnOp:
		if v.Op == token.MUL {
			p, ok = c.chanLocation(v.X)
		}
	case *ssa.Field:
		p, ok = c.path(v, 0)
	}
	if !ok || !c.chans[p.Class] {
		return Ref{}, false
	}
	p.Kind = KindChan
	p.Value = ch
	return p, true
}

// isChan reports whether t is a channel type.
func isChan(t types.Type) bool {
	_, ok := types.Unalias(t).Underlying().(*types.Chan)
	return ok
}

// isConstOne reports whether v is the constant 1.
func isConstOne(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return false
	}
	n, exact := constant.Int64Val(k.Value)
	return exact && n == 1
}

// isLockerMethodOf reports whether fn is a method of a type (other than
// package sync's) that is a sync.Locker: what it does to a channel or a
// flag of its receiver is the Locker's own lock, which LockerOp models.
func (c *Classifier) isLockerMethodOf(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	n := namedOf(deref(recv.Type()))
	if n == nil || isSyncType(n) {
		return false
	}
	return c.implementsLocker(recv.Type())
}

// An atomicCall is a call of package sync/atomic on the value at Addr:
// Name is the operation (CompareAndSwap, Store, Swap, Add, And, Or,
// Load), Args the operands after the address.
type atomicCall struct {
	Name string
	Addr ssa.Value
	Args []ssa.Value
}

// parseAtomic recognizes a call of a function of sync/atomic
// (atomic.CompareAndSwapInt32(&f, 0, 1)) or a method of one of its
// integer or boolean types (f.CompareAndSwap(0, 1), f.Store(false)).
func parseAtomic(common *ssa.CallCommon) (atomicCall, bool) {
	fn := common.StaticCallee()
	if fn == nil || common.IsInvoke() || len(common.Args) == 0 {
		return atomicCall{}, false
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return atomicCall{}, false
	}
	name := fn.Name()
	if recv := fn.Signature.Recv(); recv != nil {
		n := namedOf(deref(recv.Type()))
		if n == nil {
			return atomicCall{}, false
		}
		switch n.Obj().Name() {
		case "Int32", "Int64", "Uint32", "Uint64", "Uintptr", "Bool":
		default:
			return atomicCall{}, false
		}
	} else {
		for _, op := range []string{"CompareAndSwap", "Store", "Swap", "Add", "And", "Or", "Load"} {
			if rest, found := strings.CutPrefix(name, op); found {
				switch rest {
				case "Int32", "Int64", "Uint32", "Uint64", "Uintptr":
					name = op
				default:
					return atomicCall{}, false
				}
				break
			}
		}
	}
	switch name {
	case "CompareAndSwap", "Store", "Swap", "Add", "And", "Or", "Load":
	default:
		return atomicCall{}, false
	}
	return atomicCall{Name: name, Addr: common.Args[0], Args: common.Args[1:]}, true
}

// flagLocation names the flag at addr: a field or a package-level
// variable.
func (c *Classifier) flagLocation(addr ssa.Value) (Ref, bool) {
	switch addr.(type) {
	case *ssa.FieldAddr, *ssa.Global:
		return c.path(addr, 0)
	}
	return Ref{}, false
}

// indexFlagLocks finds the atomic flags used as try-locks (Kind
// KindFlag): fields and package-level variables on which the package
// tests compare-and-swaps from one constant free value to another
// constant (if atomic.CompareAndSwapUint64(&t.running, 0, 1) { ... },
// for !f.CompareAndSwap(false, true) { ... }, or one a function returns
// as its bool result), and that it releases by storing the free value
// back (atomic.StoreUint64(&t.running, 0)) or by a compare-and-swap to it
// whose result it ignores. Any other operation of sync/atomic on the
// location but a load (a swap, an add, a store of another value, a
// compare-and-swap from another value that is tested, or with operands
// that are not constants) makes it something else: a state machine, a
// counter. So does an operation in a method of a sync.Locker type (a spin
// lock, which LockerOp models).
func (c *Classifier) indexFlagLocks(funcs []*ssa.Function) {
	type info struct {
		free     constant.Value
		releases []constant.Value // stored back, or swapped to by an untested CAS
		bad      bool
	}
	flags := map[string]*info{}
	for _, fn := range funcs {
		locker := c.isLockerMethodOf(fn)
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				ac, ok := parseAtomic(call.Common())
				if !ok || ac.Name == "Load" {
					continue
				}
				p, ok := c.flagLocation(ac.Addr)
				if !ok {
					continue
				}
				in := flags[p.Class]
				if in == nil {
					in = &info{}
					flags[p.Class] = in
				}
				if locker {
					in.bad = true
					continue
				}
				switch ac.Name {
				case "CompareAndSwap":
					old, okOld := constOf(ac.Args[0])
					nw, okNew := constOf(ac.Args[1])
					if !okOld || !okNew || sameConst(old, nw) {
						in.bad = true
						continue
					}
					if c, isCall := call.(*ssa.Call); isCall && tested(c) {
						if in.free != nil && !sameConst(in.free, old) {
							in.bad = true
						}
						in.free = old
						continue
					}
					in.releases = append(in.releases, nw)
				case "Store":
					v, ok := constOf(ac.Args[0])
					if !ok {
						in.bad = true
						continue
					}
					in.releases = append(in.releases, v)
				default:
					in.bad = true
				}
			}
		}
	}
	for class, in := range flags {
		if in.bad || in.free == nil || len(in.releases) == 0 {
			continue
		}
		ok := true
		for _, r := range in.releases {
			if !sameConst(r, in.free) {
				ok = false
			}
		}
		if ok {
			if c.flags == nil {
				c.flags = map[string]constant.Value{}
			}
			c.flags[class] = in.free
		}
	}
}

// flagOp recognizes an operation of sync/atomic on a flag used as a
// try-lock: a compare-and-swap from its free value tries to acquire it,
// a store of the free value, or a compare-and-swap to it, releases it.
func (c *Classifier) flagOp(common *ssa.CallCommon) (Op, bool) {
	if len(c.flags) == 0 {
		return Op{}, false
	}
	ac, ok := parseAtomic(common)
	if !ok {
		return Op{}, false
	}
	p, ok := c.flagLocation(ac.Addr)
	if !ok {
		return Op{}, false
	}
	free, ok := c.flags[p.Class]
	if !ok {
		return Op{}, false
	}
	p.Kind = KindFlag
	p.Value = ac.Addr
	is := func(v ssa.Value) bool {
		k, ok := constOf(v)
		return ok && sameConst(k, free)
	}
	switch {
	case ac.Name == "CompareAndSwap" && is(ac.Args[0]):
		return Op{Kind: OpTryAcquire, Mode: Write, Ref: p, Method: ac.Name}, true
	case ac.Name == "CompareAndSwap" && is(ac.Args[1]), ac.Name == "Store" && is(ac.Args[0]):
		return Op{Kind: OpRelease, Mode: Write, Ref: p, Method: ac.Name}, true
	}
	return Op{}, false
}

// constOf returns the value of the integer or boolean constant v.
func constOf(v ssa.Value) (constant.Value, bool) {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil {
		return nil, false
	}
	switch k.Value.Kind() {
	case constant.Int, constant.Bool:
		return k.Value, true
	}
	return nil, false
}

// sameConst reports whether the constants a and b are equal.
func sameConst(a, b constant.Value) bool {
	return a.Kind() == b.Kind() && constant.Compare(a, token.EQL, b)
}

// tested reports whether the result of call decides a branch (an If on
// it, or on its negation) or is returned: a try-lock's result.
func tested(call *ssa.Call) bool {
	for _, r := range *call.Referrers() {
		switch r := r.(type) {
		case *ssa.If, *ssa.Return:
			return true
		case *ssa.UnOp:
			if r.Op != token.NOT {
				continue
			}
			for _, rr := range *r.Referrers() {
				if _, ok := rr.(*ssa.If); ok {
					return true
				}
			}
		}
	}
	return false
}
