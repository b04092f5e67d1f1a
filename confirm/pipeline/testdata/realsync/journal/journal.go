// Package journal moves entries between journals. Move locks the source
// and then the destination, a lock-order cycle the analyzer reports; the
// test makes the two opposite moves one after the other, so no schedule
// deadlocks. Flush hands the journal's file mutex to a dependency that
// needs a real *sync.Mutex: the mutex keeps its real type, and its
// operations are not scheduling points.
package journal

import (
	"sync"

	"example.com/realsyncdep/locked"
)

// A Journal holds entries guarded by mu; fileMu guards its file.
type Journal struct {
	mu      sync.Mutex
	fileMu  sync.Mutex
	entries []string
	flushed int
}

// Move moves the entries of from to the end of to.
func Move(from, to *Journal) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	to.entries = append(to.entries, from.entries...)
	from.entries = nil
}

// Flush writes the journal out under its file mutex.
func (j *Journal) Flush() {
	locked.Do(&j.fileMu, func() { j.flushed++ })
}
