// Package latch is a one-shot latch with a lost wakeup: Wait checks the
// flag, releases the lock and takes it again to wait, so a Release that
// runs in between broadcasts to nobody and Wait waits forever. No analyzer
// flags it (every access holds the lock, and the locks are taken in one
// order); exploring the package's test under control finds the deadlock.
package latch

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
	done := l.done
	l.mu.Unlock()
	if !done {
		l.mu.Lock()
		l.cond.Wait()
		l.mu.Unlock()
	}
}

// Release lets every waiter go.
func (l *Latch) Release() {
	l.mu.Lock()
	l.done = true
	l.mu.Unlock()
	l.cond.Broadcast()
}
