// Package pokes has a cache whose constructor leaves a janitor running,
// and white-box tests that set its fields while the janitor runs.
package pokes

import (
	"sync"
	"time"
)

// A Cache drops expired items from a janitor goroutine.
type Cache struct {
	mu       sync.Mutex
	items    map[string]time.Time
	now      func() time.Time
	interval time.Duration
	hits     int
}

// New returns a cache with its janitor running.
func New(interval time.Duration) *Cache {
	c := &Cache{items: map[string]time.Time{}, now: time.Now, interval: interval}
	go c.janitor()
	return c
}

func (c *Cache) janitor() {
	for {
		time.Sleep(c.interval)
		c.expire()
	}
}

func (c *Cache) expire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	for k, t := range c.items {
		if t.Before(now) {
			delete(c.items, k)
		}
	}
	c.hits = 0
}

// touch marks k as used now: an internal helper the package's own
// callers call under the lock.
func (c *Cache) touch(k string) {
	c.items[k] = c.now().Add(time.Hour)
	c.hits++
}

// A Tally counts under its lock; Peek reads without it.
type Tally struct {
	mu sync.Mutex
	n  int
}

// Add counts one.
func (t *Tally) Add() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// Peek returns the count.
func (t *Tally) Peek() int { return t.n }
