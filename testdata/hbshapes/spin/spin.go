// Package spin has a spin lock over atomics: a sync.Locker of another
// package than the code it guards.
package spin

import (
	"runtime"
	"sync/atomic"
)

// A Lock is a spin lock; the zero value is unlocked.
type Lock struct{ state uint32 }

// Lock spins until it takes the lock.
func (l *Lock) Lock() {
	for !atomic.CompareAndSwapUint32(&l.state, 0, 1) {
		runtime.Gosched()
	}
}

// Unlock releases the lock.
func (l *Lock) Unlock() { atomic.StoreUint32(&l.state, 0) }
