// Package app passes its mutex to a dependency that needs the real type.
package app

import (
	"sync"

	"example.com/dep"
)

// S has one mutex that must stay real and one that can be replaced.
type S struct {
	mu    sync.Mutex
	other sync.Mutex
	n     int
}

// Inc increments under both mutexes.
func (s *S) Inc() {
	dep.With(&s.mu, func() { s.n++ })
	s.other.Lock()
	s.n++
	s.other.Unlock()
}

// T embeds a struct of the dependency with a real mutex.
type T struct {
	dep.Guarded
	x int
}

// Set sets x under the embedded real mutex.
func (t *T) Set() {
	t.Lock()
	t.x = 1
	t.Unlock()
}

// Fresh passes a new mutex and a mutex literal to the dependency.
func Fresh() {
	dep.With(new(sync.Mutex), func() {})
	dep.With(&sync.Mutex{}, func() {})
}

// lockIt locks m, which receives a real mutex of the dependency.
func lockIt(m *sync.Mutex) { m.Lock() }

// LockGuarded locks and unlocks the dependency's embedded mutex.
func LockGuarded(g *dep.Guarded) {
	lockIt(&g.Mutex)
	g.Unlock()
}
