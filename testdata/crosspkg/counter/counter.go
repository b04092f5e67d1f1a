// Package counter counts events; Value reads the count without the lock.
// The package has no tests of its own: the tests of package app, which
// uses it from several goroutines, are what reach the race.
package counter

import "sync"

// A Counter counts events.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc counts one event.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Reset sets the count to zero.
func (c *Counter) Reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// Value returns the count.
func (c *Counter) Value() int {
	return c.n
}
