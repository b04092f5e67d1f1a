// Package leases caches responses of another package under its own lock,
// and also reads fresh responses it never caches without the lock.
package leases

import (
	"sync"

	"responses"
)

type Cache struct {
	mu      sync.Mutex
	entries map[string]*responses.Response
}

func (c *Cache) Update(key string, header int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.entries[key]; r != nil {
		r.Header = header
		r.Values = nil
	}
}

func (c *Cache) Get(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.entries[key]; r != nil {
		return r.Header + len(r.Values)
	}
	return 0
}

func (c *Cache) Clear(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.entries[key]; r != nil {
		r.Header = 0
	}
}

func (c *Cache) Add(key string, r *responses.Response) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = r
}

// Monitor reads a response it fetched and never cached: the cache's lock
// says nothing of it, nor of the other package's own accesses.
func Monitor(fetch func() *responses.Response) int {
	resp := fetch()
	return resp.Header + len(resp.Values)
}

// A field of another package's type that has a lock of its own is still
// checked against that lock.
type Counter struct {
	g *responses.Guarded
}

func (c *Counter) Inc() {
	c.g.Mu.Lock()
	c.g.Count++
	c.g.Mu.Unlock()
}

func (c *Counter) Dec() {
	c.g.Mu.Lock()
	c.g.Count--
	c.g.Mu.Unlock()
}

func (c *Counter) Reset() {
	c.g.Mu.Lock()
	c.g.Count = 0
	c.g.Mu.Unlock()
}

func (c *Counter) Peek() int {
	return c.g.Count // want `possible data race: \(\*leases.Counter\).Peek reads \(responses.Guarded\).Count without holding \(responses.Guarded\).Mu`
}
