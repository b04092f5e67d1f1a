package rt

import (
	"sync/atomic"
	"unsafe"
)

// atomicPoint is the scheduling point before an atomic operation on addr:
// atomics on the same address synchronise (acquire and release).
func atomicPoint(pc uintptr, addr unsafe.Pointer) {
	e, g, md := enter()
	if md != modeCtl {
		return
	}
	g.op = op{kind: opAtomic, pc: pc, addr: addr, hdr: e.varHdrLocked(addr)}
	e.point(g)
}

// atomicLoadPoint is atomicPoint before an atomic load, which in a loop
// polls: fairness then gives the others a turn first (see polls).
func atomicLoadPoint(pc uintptr, addr unsafe.Pointer) {
	e, g, md := enter()
	if md != modeCtl {
		return
	}
	g.op = op{kind: opAtomic, pc: pc, addr: addr, hdr: e.varHdrLocked(addr), load: true}
	e.point(g)
}

// AddInt32 is atomic.AddInt32 after a scheduling point.
func AddInt32(addr *int32, delta int32) (new int32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AddInt32(addr, delta)
}

// LoadInt32 is atomic.LoadInt32 after a scheduling point.
func LoadInt32(addr *int32) (val int32) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.LoadInt32(addr)
}

// StoreInt32 is atomic.StoreInt32 after a scheduling point.
func StoreInt32(addr *int32, val int32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	atomic.StoreInt32(addr, val)
}

// SwapInt32 is atomic.SwapInt32 after a scheduling point.
func SwapInt32(addr *int32, new int32) (old int32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.SwapInt32(addr, new)
}

// CompareAndSwapInt32 is atomic.CompareAndSwapInt32 after a scheduling point.
func CompareAndSwapInt32(addr *int32, old, new int32) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.CompareAndSwapInt32(addr, old, new)
}

// AndInt32 is atomic.AndInt32 after a scheduling point.
func AndInt32(addr *int32, mask int32) (old int32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AndInt32(addr, mask)
}

// OrInt32 is atomic.OrInt32 after a scheduling point.
func OrInt32(addr *int32, mask int32) (old int32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.OrInt32(addr, mask)
}

// Int32 replaces atomic.Int32; every method is a scheduling point.
type Int32 struct {
	v atomic.Int32
}

// Load atomically loads and returns the value.
func (x *Int32) Load() int32 {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Int32) Store(val int32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Int32) Swap(new int32) (old int32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Int32) CompareAndSwap(old, new int32) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Add atomically adds delta and returns the new value.
func (x *Int32) Add(delta int32) (new int32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Add(delta)
}

// And atomically performs a bitwise AND and returns the old value.
func (x *Int32) And(mask int32) (old int32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.And(mask)
}

// Or atomically performs a bitwise OR and returns the old value.
func (x *Int32) Or(mask int32) (old int32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Or(mask)
}

// AddInt64 is atomic.AddInt64 after a scheduling point.
func AddInt64(addr *int64, delta int64) (new int64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AddInt64(addr, delta)
}

// LoadInt64 is atomic.LoadInt64 after a scheduling point.
func LoadInt64(addr *int64) (val int64) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.LoadInt64(addr)
}

// StoreInt64 is atomic.StoreInt64 after a scheduling point.
func StoreInt64(addr *int64, val int64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	atomic.StoreInt64(addr, val)
}

// SwapInt64 is atomic.SwapInt64 after a scheduling point.
func SwapInt64(addr *int64, new int64) (old int64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.SwapInt64(addr, new)
}

// CompareAndSwapInt64 is atomic.CompareAndSwapInt64 after a scheduling point.
func CompareAndSwapInt64(addr *int64, old, new int64) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.CompareAndSwapInt64(addr, old, new)
}

// AndInt64 is atomic.AndInt64 after a scheduling point.
func AndInt64(addr *int64, mask int64) (old int64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AndInt64(addr, mask)
}

// OrInt64 is atomic.OrInt64 after a scheduling point.
func OrInt64(addr *int64, mask int64) (old int64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.OrInt64(addr, mask)
}

// Int64 replaces atomic.Int64; every method is a scheduling point.
type Int64 struct {
	v atomic.Int64
}

// Load atomically loads and returns the value.
func (x *Int64) Load() int64 {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Int64) Store(val int64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Int64) Swap(new int64) (old int64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Int64) CompareAndSwap(old, new int64) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Add atomically adds delta and returns the new value.
func (x *Int64) Add(delta int64) (new int64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Add(delta)
}

// And atomically performs a bitwise AND and returns the old value.
func (x *Int64) And(mask int64) (old int64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.And(mask)
}

// Or atomically performs a bitwise OR and returns the old value.
func (x *Int64) Or(mask int64) (old int64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Or(mask)
}

// AddUint32 is atomic.AddUint32 after a scheduling point.
func AddUint32(addr *uint32, delta uint32) (new uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AddUint32(addr, delta)
}

// LoadUint32 is atomic.LoadUint32 after a scheduling point.
func LoadUint32(addr *uint32) (val uint32) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.LoadUint32(addr)
}

// StoreUint32 is atomic.StoreUint32 after a scheduling point.
func StoreUint32(addr *uint32, val uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	atomic.StoreUint32(addr, val)
}

// SwapUint32 is atomic.SwapUint32 after a scheduling point.
func SwapUint32(addr *uint32, new uint32) (old uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.SwapUint32(addr, new)
}

// CompareAndSwapUint32 is atomic.CompareAndSwapUint32 after a scheduling point.
func CompareAndSwapUint32(addr *uint32, old, new uint32) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.CompareAndSwapUint32(addr, old, new)
}

// AndUint32 is atomic.AndUint32 after a scheduling point.
func AndUint32(addr *uint32, mask uint32) (old uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AndUint32(addr, mask)
}

// OrUint32 is atomic.OrUint32 after a scheduling point.
func OrUint32(addr *uint32, mask uint32) (old uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.OrUint32(addr, mask)
}

// Uint32 replaces atomic.Uint32; every method is a scheduling point.
type Uint32 struct {
	v atomic.Uint32
}

// Load atomically loads and returns the value.
func (x *Uint32) Load() uint32 {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Uint32) Store(val uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Uint32) Swap(new uint32) (old uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Uint32) CompareAndSwap(old, new uint32) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Add atomically adds delta and returns the new value.
func (x *Uint32) Add(delta uint32) (new uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Add(delta)
}

// And atomically performs a bitwise AND and returns the old value.
func (x *Uint32) And(mask uint32) (old uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.And(mask)
}

// Or atomically performs a bitwise OR and returns the old value.
func (x *Uint32) Or(mask uint32) (old uint32) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Or(mask)
}

// AddUint64 is atomic.AddUint64 after a scheduling point.
func AddUint64(addr *uint64, delta uint64) (new uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AddUint64(addr, delta)
}

// LoadUint64 is atomic.LoadUint64 after a scheduling point.
func LoadUint64(addr *uint64) (val uint64) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.LoadUint64(addr)
}

// StoreUint64 is atomic.StoreUint64 after a scheduling point.
func StoreUint64(addr *uint64, val uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	atomic.StoreUint64(addr, val)
}

// SwapUint64 is atomic.SwapUint64 after a scheduling point.
func SwapUint64(addr *uint64, new uint64) (old uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.SwapUint64(addr, new)
}

// CompareAndSwapUint64 is atomic.CompareAndSwapUint64 after a scheduling point.
func CompareAndSwapUint64(addr *uint64, old, new uint64) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.CompareAndSwapUint64(addr, old, new)
}

// AndUint64 is atomic.AndUint64 after a scheduling point.
func AndUint64(addr *uint64, mask uint64) (old uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AndUint64(addr, mask)
}

// OrUint64 is atomic.OrUint64 after a scheduling point.
func OrUint64(addr *uint64, mask uint64) (old uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.OrUint64(addr, mask)
}

// Uint64 replaces atomic.Uint64; every method is a scheduling point.
type Uint64 struct {
	v atomic.Uint64
}

// Load atomically loads and returns the value.
func (x *Uint64) Load() uint64 {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Uint64) Store(val uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Uint64) Swap(new uint64) (old uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Uint64) CompareAndSwap(old, new uint64) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Add atomically adds delta and returns the new value.
func (x *Uint64) Add(delta uint64) (new uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Add(delta)
}

// And atomically performs a bitwise AND and returns the old value.
func (x *Uint64) And(mask uint64) (old uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.And(mask)
}

// Or atomically performs a bitwise OR and returns the old value.
func (x *Uint64) Or(mask uint64) (old uint64) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Or(mask)
}

// AddUintptr is atomic.AddUintptr after a scheduling point.
func AddUintptr(addr *uintptr, delta uintptr) (new uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AddUintptr(addr, delta)
}

// LoadUintptr is atomic.LoadUintptr after a scheduling point.
func LoadUintptr(addr *uintptr) (val uintptr) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.LoadUintptr(addr)
}

// StoreUintptr is atomic.StoreUintptr after a scheduling point.
func StoreUintptr(addr *uintptr, val uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	atomic.StoreUintptr(addr, val)
}

// SwapUintptr is atomic.SwapUintptr after a scheduling point.
func SwapUintptr(addr *uintptr, new uintptr) (old uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.SwapUintptr(addr, new)
}

// CompareAndSwapUintptr is atomic.CompareAndSwapUintptr after a scheduling point.
func CompareAndSwapUintptr(addr *uintptr, old, new uintptr) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.CompareAndSwapUintptr(addr, old, new)
}

// AndUintptr is atomic.AndUintptr after a scheduling point.
func AndUintptr(addr *uintptr, mask uintptr) (old uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.AndUintptr(addr, mask)
}

// OrUintptr is atomic.OrUintptr after a scheduling point.
func OrUintptr(addr *uintptr, mask uintptr) (old uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.OrUintptr(addr, mask)
}

// Uintptr replaces atomic.Uintptr; every method is a scheduling point.
type Uintptr struct {
	v atomic.Uintptr
}

// Load atomically loads and returns the value.
func (x *Uintptr) Load() uintptr {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Uintptr) Store(val uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Uintptr) Swap(new uintptr) (old uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Uintptr) CompareAndSwap(old, new uintptr) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Add atomically adds delta and returns the new value.
func (x *Uintptr) Add(delta uintptr) (new uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Add(delta)
}

// And atomically performs a bitwise AND and returns the old value.
func (x *Uintptr) And(mask uintptr) (old uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.And(mask)
}

// Or atomically performs a bitwise OR and returns the old value.
func (x *Uintptr) Or(mask uintptr) (old uintptr) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Or(mask)
}

// LoadPointer is atomic.LoadPointer after a scheduling point.
func LoadPointer(addr *unsafe.Pointer) (val unsafe.Pointer) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.LoadPointer(addr)
}

// StorePointer is atomic.StorePointer after a scheduling point.
func StorePointer(addr *unsafe.Pointer, val unsafe.Pointer) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	atomic.StorePointer(addr, val)
}

// SwapPointer is atomic.SwapPointer after a scheduling point.
func SwapPointer(addr *unsafe.Pointer, new unsafe.Pointer) (old unsafe.Pointer) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.SwapPointer(addr, new)
}

// CompareAndSwapPointer is atomic.CompareAndSwapPointer after a scheduling point.
func CompareAndSwapPointer(addr *unsafe.Pointer, old, new unsafe.Pointer) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(addr))
	return atomic.CompareAndSwapPointer(addr, old, new)
}

// Bool replaces atomic.Bool; every method is a scheduling point.
type Bool struct {
	v atomic.Bool
}

// Load atomically loads and returns the value.
func (x *Bool) Load() bool {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Bool) Store(val bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Bool) Swap(new bool) (old bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Bool) CompareAndSwap(old, new bool) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Value replaces atomic.Value; every method is a scheduling point.
type Value struct {
	v atomic.Value
}

// Load returns the value set by the most recent Store, or nil.
func (x *Value) Load() (val any) {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store sets the value to val.
func (x *Value) Store(val any) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap stores new and returns the previous value.
func (x *Value) Swap(new any) (old any) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Value) CompareAndSwap(old, new any) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}

// Pointer replaces atomic.Pointer; every method is a scheduling point.
type Pointer[T any] struct {
	v atomic.Pointer[T]
}

// Load atomically loads and returns the value.
func (x *Pointer[T]) Load() *T {
	atomicLoadPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Load()
}

// Store atomically stores val.
func (x *Pointer[T]) Store(val *T) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	x.v.Store(val)
}

// Swap atomically stores new and returns the previous value.
func (x *Pointer[T]) Swap(new *T) (old *T) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.Swap(new)
}

// CompareAndSwap executes the compare-and-swap operation.
func (x *Pointer[T]) CompareAndSwap(old, new *T) (swapped bool) {
	atomicPoint(callerPC(), unsafe.Pointer(x))
	return x.v.CompareAndSwap(old, new)
}
