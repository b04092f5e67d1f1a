// Package lockbox guards a value with a real sync.Mutex. It is a dependency
// of the package under test and is not instrumented by confirm.
package lockbox

import "sync"

// A Box holds a value guarded by a mutex.
type Box struct {
	mu sync.Mutex
	v  int
}

// Update locks the box and, wrongly, locks it again: it blocks forever in
// code that confirm does not control.
func (b *Box) Update(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.set(v)
}

func (b *Box) set(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.v = v
}
