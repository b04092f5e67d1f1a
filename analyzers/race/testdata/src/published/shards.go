package published

import "sync"

// A Sharded cache's constructor fills the shards of the slice it made
// for the cache it is building, before returning it: silent.
type Sharded struct {
	shards []shard
}

type shard struct {
	mu      sync.Mutex
	entries map[string]int
	max     int
}

// NewSharded returns a cache of n shards.
func NewSharded(n int) *Sharded {
	c := &Sharded{shards: make([]shard, n)}
	for i := range c.shards {
		s := &c.shards[i]
		s.entries = make(map[string]int)
		s.max = 100
	}
	return c
}

// Put stores v in the shard of k.
func (c *Sharded) Put(k string, v int) {
	s := &c.shards[len(k)%len(c.shards)]
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.entries) < s.max {
		s.entries[k] = v
	}
}

// Resize sets the limit of every shard.
func (c *Sharded) Resize(max int) {
	for i := range c.shards {
		s := &c.shards[i]
		s.mu.Lock()
		s.max = max
		s.mu.Unlock()
	}
}

// Share builds a view over the shards of another cache: they are not
// new, and the unlocked write races with Put.
func Share(o *Sharded) *Sharded {
	c := &Sharded{shards: o.shards}
	for i := range c.shards {
		s := &c.shards[i]
		s.max = 0 // want `possible data race: published.Share writes \(published.shard\).max without holding \(published.shard\).mu`
	}
	return c
}
