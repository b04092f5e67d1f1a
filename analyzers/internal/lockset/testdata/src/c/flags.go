package c

import "sync"

// Counter's add locks only when its flag asks it to: past the branch, the
// lock is held for lock == true only.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) add(lock bool) {
	if lock {
		c.mu.Lock()
		defer c.mu.Unlock()
	}
	c.n++
	probe() // want `held: $`
}

func (c *Counter) Add() { c.add(true) }
