// Package stuck has a racy counter whose test blocks forever before it
// gets to the race, in code confirm does not control.
package stuck

import "sync"

// A Counter counts under a mutex, except in Peek.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
}

// Get returns the count.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Peek reads the count without the lock.
func (c *Counter) Peek() int { return c.n }
