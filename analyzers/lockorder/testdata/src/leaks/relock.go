package leaks

import (
	"errors"
	"sync"
)

// Resolvers is called with Registry.mu held. On one branch it releases
// the lock for a call that takes other locks, and defers taking it back:
// it returns with the lock held on every path, as it found it. Silent
// (nats-server's configureResolver).
type Resolvers interface {
	ReadOnly() bool
	Store(k, v string)
}

type Registry struct {
	mu       sync.Mutex
	res      Resolvers
	preloads map[string]string
	n        int
}

func (r *Registry) configure() error {
	r.n++
	if len(r.preloads) > 0 {
		res := r.res
		r.mu.Unlock()
		defer r.mu.Lock()
		if res.ReadOnly() {
			return errors.New("read-only resolver")
		}
		for k, v := range r.preloads {
			res.Store(k, v)
		}
	}
	return nil
}

func (r *Registry) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.configure(); err != nil {
		return err
	}
	r.n++
	return nil
}

// Refresh releases its caller's lock on both branches and takes it back
// on one only: it returns with the lock held on some paths, not on
// others.
type Refresher struct {
	mu    sync.Mutex
	res   Resolvers
	quick bool
	n     int
}

func (r *Refresher) refresh() error {
	r.n++
	res := r.res
	if r.quick {
		r.mu.Unlock()
		res.Store("k", "v")
		return nil
	}
	r.mu.Unlock()
	defer r.mu.Lock() // want `lock leak: \(\*leaks.Refresher\).refresh returns with \(leaks.Refresher\).mu still held on this path but not on others`
	if res.ReadOnly() {
		return errors.New("read-only resolver")
	}
	return nil
}

func (r *Refresher) Start() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.refresh()
}
