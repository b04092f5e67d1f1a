package locks

import "sync"

// Cache read-locks recursively: Get holds the read lock and calls size,
// which read-locks again; Put is a writer.
type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) Get(k string) (int, int) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k], c.size()
}

func (c *Cache) size() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// Other has an RWMutex of another class; its Lock is no writer of Cache.
type Other struct{ mu sync.RWMutex }

func (o *Other) Touch() {
	o.mu.Lock()
	o.mu.Unlock()
}

// Reset is a second writer of Cache.mu.
func (c *Cache) Reset() {
	c.mu.Lock()
	c.m = map[string]int{}
	c.mu.Unlock()
}
