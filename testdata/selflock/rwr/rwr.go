// Package rwr has a registry whose Lookup read-locks twice: a writer that
// comes between the two read locks blocks the second one, and the first
// one blocks the writer.
package rwr

import "sync"

// A Registry maps names to ids.
type Registry struct {
	mu  sync.RWMutex
	ids map[string]int
}

// New returns an empty registry.
func New() *Registry { return &Registry{ids: make(map[string]int)} }

// Lookup returns the id of name and the number of names.
func (r *Registry) Lookup(name string) (int, int) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.ids[name], r.size()
}

func (r *Registry) size() int {
	r.mu.RLock() // recursive read lock
	defer r.mu.RUnlock()
	return len(r.ids)
}

// Add adds name.
func (r *Registry) Add(name string, id int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ids[name] = id
}
