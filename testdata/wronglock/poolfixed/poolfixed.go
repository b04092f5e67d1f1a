// Package poolfixed is the correct twin of pool: Get and Put change the count
// of connections in use under the same mutex.
package poolfixed

import "sync"

// A Pool hands out connection ids and counts those in use.
type Pool struct {
	mu    sync.Mutex // guards idle and inUse
	idle  []int
	inUse int

	statsMu  sync.Mutex // guards returned
	returned int
}

// New returns a pool of n idle connections.
func New(n int) *Pool {
	p := &Pool{}
	for i := range n {
		p.idle = append(p.idle, i)
	}
	return p
}

// Get takes an idle connection; ok is false when none is left.
func (p *Pool) Get() (id int, ok bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.idle) == 0 {
		return 0, false
	}
	id = p.idle[len(p.idle)-1]
	p.idle = p.idle[:len(p.idle)-1]
	p.inUse++
	return id, true
}

// Put returns a connection to the pool.
func (p *Pool) Put(id int) {
	p.statsMu.Lock()
	p.returned++
	p.statsMu.Unlock()

	p.mu.Lock()
	p.inUse--
	p.idle = append(p.idle, id)
	p.mu.Unlock()
}

// InUse returns the number of connections handed out and not returned.
func (p *Pool) InUse() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inUse
}
