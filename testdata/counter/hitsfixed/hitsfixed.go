// Package hitsfixed is the correct twin of hits: Record updates the map and
// the total under the same mutex.
package hitsfixed

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
	c.total++
	c.mu.Unlock()
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
