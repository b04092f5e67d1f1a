// Package latchfixed is latch with the flag checked, under the lock, by
// the loop that waits.
package latchfixed

import "sync"

// A Latch lets goroutines wait until it is released.
type Latch struct {
	mu   sync.Mutex
	cond *sync.Cond
	done bool
}

// New returns a closed latch.
func New() *Latch {
	l := &Latch{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

// Wait blocks until Release is called.
func (l *Latch) Wait() {
	l.mu.Lock()
	for !l.done {
		l.cond.Wait()
	}
	l.mu.Unlock()
}

// Release lets every waiter go.
func (l *Latch) Release() {
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
	l.cond.Broadcast()
}
