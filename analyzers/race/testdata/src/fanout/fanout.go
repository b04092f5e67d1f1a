// Package fanout fans work out to goroutines that share a map under a
// lock, and waits for them before it returns.
package fanout

import "sync"

type Tree struct {
	ctx *context
}

type context struct {
	lock sync.Mutex
	seen map[int]bool
}

func (c *context) addNode(n int) {
	c.lock.Lock()
	defer c.lock.Unlock()
	c.seen[n] = true
}

func (c *context) removeNode(n int) {
	c.lock.Lock()
	defer c.lock.Unlock()
	delete(c.seen, n)
}

func (c *context) hasNode(n int) bool {
	c.lock.Lock()
	defer c.lock.Unlock()
	return c.seen[n]
}

// Apply adds and removes items from goroutines it waits for: the lock
// keeps them from each other, and they are done when it returns.
func (t *Tree) Apply(add, remove []int) {
	var wg sync.WaitGroup
	for _, n := range add {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			if !t.ctx.hasNode(n) {
				t.ctx.addNode(n)
			}
		}(n)
	}
	for _, n := range remove {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			t.ctx.removeNode(n)
		}(n)
	}
	wg.Wait()
}

// Commit reads what the goroutines wrote once Apply returned. Silent.
func (t *Tree) Commit() int {
	n := 0
	for k := range t.ctx.seen {
		if k > 0 {
			n++
		}
	}
	return n
}

type Forest struct {
	ctx *grove
}

type grove struct {
	lock sync.Mutex
	seen map[int]bool
}

func (g *grove) addNode(n int) {
	g.lock.Lock()
	defer g.lock.Unlock()
	g.seen[n] = true
}

func (g *grove) removeNode(n int) {
	g.lock.Lock()
	defer g.lock.Unlock()
	delete(g.seen, n)
}

func (g *grove) hasNode(n int) bool {
	g.lock.Lock()
	defer g.lock.Unlock()
	return g.seen[n]
}

// Apply leaves its goroutines running: they may still run when Size
// reads.
func (f *Forest) Apply(add, remove []int) {
	for _, n := range add {
		go func(n int) {
			if !f.ctx.hasNode(n) {
				f.ctx.addNode(n)
			}
		}(n)
	}
	for _, n := range remove {
		go f.ctx.removeNode(n)
	}
}

func (f *Forest) Size() int {
	n := 0
	for k := range f.ctx.seen { // want `\(\*fanout.Forest\).Size reads map contents of \(fanout.grove\).seen without holding \(fanout.grove\).lock`
		if k > 0 {
			n++
		}
	}
	return n
}
