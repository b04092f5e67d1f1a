// Package lock has a spin lock: a sync.Locker made of an atomic flag and
// runtime.Gosched, as pools with short critical sections use.
package lock

import (
	"runtime"
	"sync"
	"sync/atomic"
)

type spin uint32

// New returns an unlocked spin lock.
func New() sync.Locker { return new(spin) }

func (s *spin) Lock() {
	for !atomic.CompareAndSwapUint32((*uint32)(s), 0, 1) {
		runtime.Gosched()
	}
}

func (s *spin) Unlock() { atomic.StoreUint32((*uint32)(s), 0) }
