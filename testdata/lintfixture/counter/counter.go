// Package counter has a counter field guarded by its mutex in three methods
// and written without it in a fourth: inconsistent locking, a data race when
// Inc runs concurrently with the others.
package counter

import "sync"

// Counter counts events.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc forgets the lock.
func (c *Counter) Inc() {
	c.n++ // expect race
}

// Add adds d under the lock.
func (c *Counter) Add(d int) {
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
}

// Reset zeroes the counter under the lock.
func (c *Counter) Reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 0
}

// Value reads the counter under the lock.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Run uses the counter from several goroutines.
func Run() int {
	var c Counter
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(2)
		go func() { defer wg.Done(); c.Inc() }()
		go func() { defer wg.Done(); c.Add(2) }()
	}
	wg.Wait()
	c.Reset()
	return c.Value()
}
