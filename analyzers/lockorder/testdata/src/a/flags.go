package a

import "sync"

// A helper told by a boolean whether its caller holds the lock: called
// with a constant, only the branch that constant takes counts.

type FlagRegistry struct {
	mu sync.Mutex
	m  map[string]int
}

func (r *FlagRegistry) remove(k string, locked bool) {
	if !locked {
		r.mu.Lock()
		defer r.mu.Unlock()
	}
	delete(r.m, k)
}

func (r *FlagRegistry) Remove(k string) { r.remove(k, false) }

func (r *FlagRegistry) Clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for k := range r.m {
		r.remove(k, true) // the caller holds it: remove does not lock
	}
}

func (r *FlagRegistry) Purge(k string) {
	r.mu.Lock() // want `double lock: \(\*a.FlagRegistry\).Purge locks r.mu via \(\*a.FlagRegistry\).remove while already holding it`
	defer r.mu.Unlock()
	r.remove(k, false)
}

func (r *FlagRegistry) notify(k string, send bool) {
	if send {
		r.bump(k)
	}
}

func (r *FlagRegistry) bump(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.m[k]++
}

func (r *FlagRegistry) Drop(k string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.m, k)
	r.notify(k, false) // does not send
}
