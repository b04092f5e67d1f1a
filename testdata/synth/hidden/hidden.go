// Package hidden has a race in a type its clients cannot make: no
// exported function returns a counter, so no test is synthesized for it
// (a harness that made one would use the package as no client can).
package hidden

import "sync"

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *counter) Reset() {
	c.mu.Lock()
	c.n = 0
	c.mu.Unlock()
}

// Value returns the count without the lock.
func (c *counter) Value() int { return c.n }

var requests counter

// Count counts a request.
func Count() { requests.Inc() }

// Requests returns the number of requests counted.
func Requests() int { return requests.Value() }
