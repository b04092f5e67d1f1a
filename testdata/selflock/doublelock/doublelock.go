// Package doublelock has a cache whose Put locks again, through evict,
// when the cache is full.
package doublelock

import "sync"

// A Cache holds at most two entries.
type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

// New returns an empty cache.
func New() *Cache { return &Cache{m: make(map[string]int)} }

// Put stores v under k, evicting an entry when the cache is full.
func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= 2 {
		c.evict() // locks c.mu again: self-deadlock
	}
	c.m[k] = v
}

// Delete removes k.
func (c *Cache) Delete(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

func (c *Cache) evict() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.m {
		delete(c.m, k)
		return
	}
}
