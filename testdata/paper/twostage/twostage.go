// Package twostage is a Go analog of the TwoStage benchmark: an update
// made of two stages, each under its own lock, that should have been
// atomic as a pair. A reader that looks between the stages sees a state
// no complete update produces.
package twostage

import (
	"fmt"
	"sync"
)

// A Data is a value guarded by its own mutex.
type Data struct {
	mu    sync.Mutex
	value int
}

// A TwoStage holds two values an update sets one after the other.
type TwoStage struct {
	data1, data2 Data
}

// Update sets data1 to 1 and then data2 to data1+1, each under its own
// lock. Between the stages neither lock is held: the pair is not atomic.
func (s *TwoStage) Update() {
	s.data1.mu.Lock()
	s.data1.value = 1
	s.data1.mu.Unlock() // key: twostage 1
	s.data2.mu.Lock()
	s.data2.value = 2
	s.data2.mu.Unlock()
}

// Check reads both values and reports an error when data1 was set but
// data2 does not yet hold data1+1.
func (s *TwoStage) Check() error {
	s.data1.mu.Lock()
	if s.data1.value == 0 {
		s.data1.mu.Unlock()
		return nil
	}
	t1 := s.data1.value
	s.data1.mu.Unlock()
	s.data2.mu.Lock()
	t2 := s.data2.value // key: twostage 2
	s.data2.mu.Unlock()
	if t2 != t1+1 {
		return fmt.Errorf("data1 = %d but data2 = %d: an update was seen between its stages", t1, t2)
	}
	return nil
}
