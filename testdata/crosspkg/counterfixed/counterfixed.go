// Package counterfixed is counter with Value under the lock.
package counterfixed

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
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
