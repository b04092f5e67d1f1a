package lockset

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// An OpKind is the effect of a lock operation.
type OpKind uint8

// The kinds of lock operations.
const (
	OpAcquire    OpKind = iota // Lock, RLock, Locker.Lock
	OpRelease                  // Unlock, RUnlock, Locker.Unlock
	OpTryAcquire               // TryLock, TryRLock: held when the result is true
	OpWait                     // Cond.Wait: releases L, then acquires it again
)

// An Op is a lock operation recognized in a call.
type Op struct {
	Kind OpKind
	Mode Mode
	// Ref is the mutex operated on; for Wait, the Cond's L.
	Ref Ref
	// Method is the name of the method called: "Lock", "RUnlock", "Wait"...
	Method string
}

// Op recognizes the lock operation performed by the call common: a method
// of sync.Mutex or sync.RWMutex (called directly, promoted through
// embedding, or as a method value bound to the mutex), Lock or Unlock of a
// sync.Locker whose dynamic value is known (&mu, rw.RLocker(), cond.L),
// sync.Cond.Wait, or a compare-and-swap or store of sync/atomic on a flag
// used as a try-lock (Kind KindFlag, see indexFlagLocks). It reports false
// for other calls and for operations on mutexes it cannot name. The
// operations on channels used as mutexes are not calls (see
// engine.chanOp).
func (c *Classifier) Op(common *ssa.CallCommon) (Op, bool) {
	if common.IsInvoke() {
		kind, mode, ok := methodOp(common.Method.Name())
		if !ok || kind == OpTryAcquire {
			return Op{}, false
		}
		if sig, isSig := common.Method.Type().(*types.Signature); !isSig || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
			// Not sync.Locker's Lock(): a distributed lock's
			// Lock(ctx, key) (Lock, error), a lock service's API.
			return Op{}, false
		}
		r, ok := c.locker(common.Value, 0)
		if !ok {
			return Op{}, false
		}
		if r.Read {
			mode = Read
		}
		return Op{Kind: kind, Mode: mode, Ref: r, Method: common.Method.Name()}, true
	}
	fn := common.StaticCallee()
	if fn == nil {
		return Op{}, false
	}
	if op, ok := c.flagOp(common); ok {
		return op, true
	}
	var recv ssa.Value
	if mc, ok := common.Value.(*ssa.MakeClosure); ok {
		// A method value: the bound wrapper's receiver is its binding.
		obj, isFunc := fn.Object().(*types.Func)
		if fn.Synthetic == "" || !isFunc || len(mc.Bindings) != 1 {
			return Op{}, false
		}
		recv = mc.Bindings[0]
		return c.syncOp(obj.Name(), obj, recv)
	}
	if len(common.Args) == 0 || fn.Signature.Recv() == nil {
		return Op{}, false
	}
	obj, _ := fn.Object().(*types.Func)
	return c.syncOp(fn.Name(), obj, common.Args[0])
}

// LockerOp recognizes, in the static call common, Lock, Unlock, RLock or
// RUnlock of a type that is a sync.Locker but not one of package sync's
// (a spin lock over atomics, a lock of another package) as the lock
// operation of the receiver. The caller uses it only when what the callee
// does to locks is not known otherwise: a method that locks a mutex of its
// receiver has a summary that names that mutex.
func (c *Classifier) LockerOp(common *ssa.CallCommon) (Op, bool) {
	fn := common.StaticCallee()
	if common.IsInvoke() || fn == nil || fn.Signature.Recv() == nil || len(common.Args) == 0 {
		return Op{}, false
	}
	recv := common.Args[0]
	kind, mode, ok := lockerMethod(fn.Name(), fn.Signature)
	if !ok {
		return Op{}, false
	}
	obj, _ := fn.Object().(*types.Func)
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() == "sync" {
		return Op{}, false
	}
	if !c.implementsLocker(fn.Signature.Recv().Type()) {
		return Op{}, false
	}
	r, ok := c.ref(recv, 0)
	if !ok {
		return Op{}, false
	}
	return Op{Kind: kind, Mode: mode, Ref: r, Method: fn.Name()}, true
}

// implementsLocker reports whether t, or a pointer to it, has the methods
// Lock() and Unlock(), remembering the answer for a named type and a
// pointer to one that is not generic: every method of a type asks it of
// the type's receiver, and a method set costs time and memory in
// proportion to the number of methods (a type of a thousand methods made
// this quadratic).
func (c *Classifier) implementsLocker(t types.Type) bool {
	ptr := false
	n, ok := types.Unalias(t).(*types.Named)
	if p, isPtr := types.Unalias(t).(*types.Pointer); isPtr {
		n, ok = types.Unalias(p.Elem()).(*types.Named)
		ptr = true
	}
	if !ok || n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0 {
		return implementsLocker(t)
	}
	key := lockerKey{n, ptr}
	if v, ok := c.lockers.Load(key); ok {
		return v.(bool)
	}
	is := implementsLocker(t)
	c.lockers.Store(key, is)
	return is
}

// A lockerKey is a named type, or a pointer to it.
type lockerKey struct {
	named *types.Named
	ptr   bool
}

// implementsLocker reports whether t, or a pointer to it, has the methods
// Lock() and Unlock().
func implementsLocker(t types.Type) bool {
	has := func(t types.Type) bool {
		ms := types.NewMethodSet(t)
		for _, name := range []string{"Lock", "Unlock"} {
			sel := ms.Lookup(nil, name)
			if sel == nil {
				return false
			}
			sig, ok := sel.Type().(*types.Signature)
			if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 0 {
				return false
			}
		}
		return true
	}
	if has(t) {
		return true
	}
	if _, ptr := t.(*types.Pointer); !ptr {
		return has(types.NewPointer(t))
	}
	return false
}

// syncOp recognizes method name of sync.Mutex, sync.RWMutex or sync.Cond
// (obj) called on recv.
func (c *Classifier) syncOp(name string, obj *types.Func, recv ssa.Value) (Op, bool) {
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync" {
		return Op{}, false
	}
	sig, ok := obj.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return Op{}, false
	}
	switch {
	case isSyncNamed(deref(sig.Recv().Type()), "Cond"):
		if name != "Wait" {
			return Op{}, false
		}
		r, ok := c.condLocker(recv, 0)
		if !ok {
			return Op{}, false
		}
		mode := Write
		if r.Read {
			mode = Read
		}
		return Op{Kind: OpWait, Mode: mode, Ref: r, Method: name}, true
	case isSyncNamed(deref(sig.Recv().Type()), "Mutex"), isSyncNamed(deref(sig.Recv().Type()), "RWMutex"):
		kind, mode, ok := methodOp(name)
		if !ok {
			return Op{}, false
		}
		r, ok := c.ref(recv, 0)
		if !ok {
			return Op{}, false
		}
		return Op{Kind: kind, Mode: mode, Ref: r, Method: name}, true
	}
	return Op{}, false
}

// lockerMethod is methodOp for a method with the name and signature of a
// mutex's Lock, RLock, Unlock or RUnlock, or of its TryLock or TryRLock
// (no parameters, one bool result: a Locker built on a channel whose
// TryLock follows sync.Mutex's).
func lockerMethod(name string, sig *types.Signature) (OpKind, Mode, bool) {
	kind, mode, ok := methodOp(name)
	if !ok || sig.Params().Len() != 0 {
		return 0, 0, false
	}
	res := sig.Results()
	if kind == OpTryAcquire {
		if res.Len() != 1 || !types.Identical(res.At(0).Type(), types.Typ[types.Bool]) {
			return 0, 0, false
		}
	} else if res.Len() != 0 {
		return 0, 0, false
	}
	return kind, mode, true
}

func methodOp(name string) (OpKind, Mode, bool) {
	switch name {
	case "Lock":
		return OpAcquire, Write, true
	case "RLock":
		return OpAcquire, Read, true
	case "Unlock":
		return OpRelease, Write, true
	case "RUnlock":
		return OpRelease, Read, true
	case "TryLock":
		return OpTryAcquire, Write, true
	case "TryRLock":
		return OpTryAcquire, Read, true
	}
	return 0, 0, false
}
