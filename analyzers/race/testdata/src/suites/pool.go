// Package suites holds a pool and the test suite that drives it: the
// methods of a suite run one after another, like test functions.
package suites

import "sync"

// A Pool hands out objects its factory makes.
type Pool struct {
	mu   sync.Mutex
	make func() int
	idle []int
	LIFO bool
}

// NewPool returns a pool over make.
func NewPool(make func() int) *Pool {
	return &Pool{make: make}
}

// Borrow returns an idle object or a new one.
func (p *Pool) Borrow() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.idle); n > 0 {
		i := 0
		if p.LIFO {
			i = n - 1
		}
		o := p.idle[i]
		p.idle = append(p.idle[:i], p.idle[i+1:]...)
		return o
	}
	return p.make()
}

// Return gives o back.
func (p *Pool) Return(o int) {
	p.mu.Lock()
	p.idle = append(p.idle, o)
	p.mu.Unlock()
}

// Prefill adds n new objects, in the pool's order.
func (p *Pool) Prefill(n int) {
	for i := 0; i < n; i++ {
		o := p.make()
		if p.LIFO {
			o = -o
		}
		p.Return(o)
	}
}
