// Package b holds lock helpers used by package a (cross-package facts).
package b

import "sync"

var mu sync.Mutex

// LockAll acquires mu and returns with it held.
func LockAll() { mu.Lock() }

// UnlockAll releases mu.
func UnlockAll() { mu.Unlock() }

// WithLock runs f with mu held.
func WithLock(f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Counter has its own mutex.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Lock locks c.
func (c *Counter) Lock() { c.mu.Lock() }

// Unlock unlocks c.
func (c *Counter) Unlock() { c.mu.Unlock() }

func probe() {}

func useLocal() {
	LockAll()
	probe() // want `held: b.mu`
	UnlockAll()
	probe() // want `held: $`
}

var rw sync.RWMutex

// Relock releases its caller's read lock around a call and takes it back.
func Relock(f func()) {
	rw.RUnlock()
	defer rw.RLock()
}
