// Package allocators holds an exported allocator interface that callers
// can implement themselves: what its calls return is not known to be
// new, and the unlocked writes to it are reported.
package allocators

import "sync"

type Slot struct {
	mu  sync.Mutex
	val int
}

// Recycler is exported: callers bring their own implementations.
type Recycler interface{ Get() *Slot }

type newRecycler struct{}

func (newRecycler) Get() *Slot { return &Slot{} }

type Filler struct{ slots Recycler }

func NewFiller() *Filler { return &Filler{slots: newRecycler{}} }

// NewFillerWith takes the caller's Recycler, which may hand out shared slots.
func NewFillerWith(r Recycler) *Filler { return &Filler{slots: r} }

func (f *Filler) Fill(v int) *Slot {
	s := f.slots.Get()
	s.val = v // want `val`
	return s
}

// FillFrom takes the Recycler directly.
func FillFrom(r Recycler, v int) *Slot {
	s := r.Get()
	s.val = v // want `val`
	return s
}

func (s *Slot) Set(v int) {
	s.mu.Lock()
	s.val = v
	s.mu.Unlock()
}

func (s *Slot) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.val
}
