// Package hits counts requests per path. Record updates the per-path map
// under the mutex but bumps the total after releasing it, so two concurrent
// Records race on the total.
package hits

import "sync"

// A Counter counts requests.
type Counter struct {
	mu     sync.Mutex
	byPath map[string]int
	total  int
}

// NewCounter returns an empty counter.
func NewCounter() *Counter { return &Counter{byPath: make(map[string]int)} }

// Record counts one request for path.
func (c *Counter) Record(path string) {
	c.mu.Lock()
	c.byPath[path]++
	c.mu.Unlock()
	c.total++
}

// Total returns the number of requests recorded.
func (c *Counter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}

// Count returns the number of requests recorded for path.
func (c *Counter) Count(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.byPath[path]
}
