package locks

import "sync"

// Counter locks twice: Add holds mu and calls total, which locks mu.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Add(k int) {
	c.mu.Lock()
	c.n += k
	if c.total() > 10 {
		c.n = 0
	}
	c.mu.Unlock()
}

func (c *Counter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// AddTwice locks twice too; the second Lock is reached from a call on a
// continuation line.
func (c *Counter) AddTwice(k int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return k +
		c.total()
}
