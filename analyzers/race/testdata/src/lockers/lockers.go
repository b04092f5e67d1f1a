// Package lockers guards memory with locks that are not package sync's:
// a sync.Locker made by another package, and a spin lock value. Accesses
// under them are guarded; those without them race.
package lockers

import (
	"sync"

	"spinlock"
)

type queue interface {
	detach() int
	insert(int)
}

type ring struct {
	items []int
	head  int
}

func (r *ring) detach() int {
	if len(r.items) == 0 {
		return 0
	}
	v := r.items[r.head]
	r.head = (r.head + 1) % len(r.items)
	return v
}

func (r *ring) insert(v int) { r.items = append(r.items, v) }

// A Pool guards its queue and count with a Locker of another package.
type Pool struct {
	lock    sync.Locker
	workers queue
	n       int
}

// New returns an empty pool.
func New() *Pool { return &Pool{lock: spinlock.New(), workers: &ring{}} }

// Get takes an item.
func (p *Pool) Get() int {
	p.lock.Lock()
	defer p.lock.Unlock()
	return p.workers.detach()
}

// Put adds an item.
func (p *Pool) Put(v int) {
	p.lock.Lock()
	p.workers.insert(v)
	p.n++
	p.lock.Unlock()
}

// Count reads n under the lock.
func (p *Pool) Count() int {
	p.lock.Lock()
	defer p.lock.Unlock()
	return p.n
}

// Len reads n without the lock.
func (p *Pool) Len() int {
	return p.n // want `possible data race: \(\*lockers.Pool\).Len reads \(lockers.Pool\).n without holding \(lockers.Pool\).lock\(Locker\)`
}

// Run uses the pool from two goroutines, under its lock.
func Run(p *Pool) {
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Put(i)
			p.Get()
		}()
	}
	wg.Wait()
}

// A Counter guards n with a spin lock value.
type Counter struct {
	mu spinlock.Lock
	n  int
}

// Inc adds one.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Get reads n under the lock.
func (c *Counter) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Peek reads n without the lock.
func (c *Counter) Peek() int {
	return c.n // want `possible data race: \(\*lockers.Counter\).Peek reads \(lockers.Counter\).n without holding \(lockers.Counter\).mu`
}
