// Package collectors holds objects that every function accesses under
// some lock, too few of them under one lock to infer a guard: a
// goroutine writes under the object's own lock, a registry method reads
// under the registry's.
package collectors

import "sync"

type collection struct {
	mu    sync.Mutex
	last  int
	count int
	stop  chan struct{}
}

func newCollection() *collection {
	c := &collection{stop: make(chan struct{})}
	go func() {
		for {
			select {
			case <-c.stop:
				return
			default:
				c.record(1)
			}
		}
	}()
	return c
}

func (c *collection) record(v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.last = v
	c.count++
}

// Registry holds the collections by key.
type Registry struct {
	mu    sync.RWMutex
	colls map[string]*collection
}

// Add starts a collection for key.
func (r *Registry) Add(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.colls[key] = newCollection()
}

// Last reads the collection's value under the registry's lock only.
func (r *Registry) Last(key string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := r.colls[key]
	return c.last // want `possible data race: \(\*collectors.Registry\).Last reads \(collectors.collection\).last holding \(collectors.Registry\).mu \(read\), but \(\*collectors.collection\).record writes it holding \(collectors.collection\).mu; the locksets do not intersect`
}

// Count takes the collection's lock too: silent.
func (r *Registry) Count(key string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	c := r.colls[key]
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count
}

// A ledger's total is set under one lock and read under another, but no
// goroutine of the package touches it: nothing shows the two run
// concurrently, so it is not reported.
type Ledger struct {
	mu, auditMu sync.Mutex
	total       int
}

// Set writes the total under mu.
func (l *Ledger) Set(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total = n
}

// Audit reads it under auditMu.
func (l *Ledger) Audit() int {
	l.auditMu.Lock()
	defer l.auditMu.Unlock()
	return l.total
}
