// Package wronglock is a Go analog of the Wronglock benchmark: one
// goroutine updates shared data under lock A while others initialize it,
// once, under lock B. Each believes its lock makes its critical section
// atomic; neither lock excludes the other side.
package wronglock

import (
	"fmt"
	"sync"
)

// A Data is an int with synchronized accessors; compound updates need a
// lock of the caller's.
type Data struct {
	mu    sync.Mutex
	value int
}

// Get returns the value.
func (d *Data) Get() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.value
}

// Set sets the value.
func (d *Data) Set(v int) {
	d.mu.Lock()
	d.value = v
	d.mu.Unlock()
}

// A Shared is data and the two locks its users (wrongly) disagree on.
type Shared struct {
	A, B        sync.Mutex
	Data        Data
	initialized bool // guarded by B
}

// Init sets the data to its initial value, once, under lock B.
func (s *Shared) Init() {
	s.B.Lock()
	defer s.B.Unlock()
	if s.initialized {
		return
	}
	s.Data.Set(100) // key: wronglock 2
	s.initialized = true
}

// UpdateA adds 10 under lock A and checks, still inside the critical
// section, that nobody changed the data meanwhile.
func (s *Shared) UpdateA() error {
	s.A.Lock()
	defer s.A.Unlock()
	v := s.Data.Get()
	s.Data.Set(v + 10)                    // key: wronglock 1
	if got := s.Data.Get(); got != v+10 { // key: wronglock 3
		return fmt.Errorf("data changed inside the critical section of A: set %d, read %d", v+10, got)
	}
	return nil
}
