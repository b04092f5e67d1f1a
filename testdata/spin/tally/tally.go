// Package tally counts under a spin lock of another package.
package tally

import (
	"sync"

	"example.com/spin/lock"
)

// A Tally is a counter safe for concurrent use.
type Tally struct {
	mu sync.Locker
	n  int
}

// New returns a zero tally.
func New() *Tally { return &Tally{mu: lock.New()} }

// Add adds d.
func (t *Tally) Add(d int) {
	t.mu.Lock()
	t.n += d
	t.mu.Unlock()
}

// N returns the count.
func (t *Tally) N() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}
