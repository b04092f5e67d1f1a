// Package spinlock is a lock over atomics, in another package than its
// users: a sync.Locker that is not one of package sync's.
package spinlock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A Lock is a spin lock.
type Lock uint32

// Lock spins until it holds the lock.
func (l *Lock) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(l), 0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() { atomic.StoreUint32((*uint32)(l), 0) }

// New returns a new spin lock as a sync.Locker.
func New() sync.Locker { return new(Lock) }
