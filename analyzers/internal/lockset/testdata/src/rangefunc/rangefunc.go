// Package rangefunc holds range-over-func loops: their bodies are the
// enclosing function's code, run with its locks, and each way out of a
// body brings its locks to where the function resumes.
package rangefunc

import (
	"iter"
	"maps"
	"strings"
	"sync"
)

func probe() {}

type S struct {
	mu   sync.Mutex
	subs map[string]int
}

// Insert unlocks and returns from inside the body: the function resumes
// at its return without the lock, and after the loop with it.
func (s *S) Insert(subj string) bool {
	s.mu.Lock()
	for t := range strings.SplitSeq(subj, ".") {
		probe() // want `held: \(rangefunc.S\).mu`
		if t == "" {
			s.mu.Unlock()
			probe() // want `held: $`
			return false
		}
		s.subs[t]++
	}
	probe() // want `held: \(rangefunc.S\).mu`
	s.mu.Unlock()
	return true
}

// Each locks in the body and unlocks before the next iteration: the
// body starts without the lock every time.
func (s *S) Each(m map[string]int) {
	for k := range maps.Keys(m) {
		probe() // want `held: $`
		s.mu.Lock()
		s.subs[k]++
		s.mu.Unlock()
	}
}

// Break leaves the loop with the lock held.
func (s *S) Break(m map[string]int) {
	for k := range maps.Keys(m) {
		s.mu.Lock()
		if k == "" {
			break
		}
		s.mu.Unlock()
	}
	probe() // want `held: $`
}

// Find breaks out holding the lock it took before the loop.
func (s *S) Find(seq iter.Seq[string]) {
	s.mu.Lock()
	for k := range seq {
		if k == "" {
			break
		}
	}
	probe() // want `held: \(rangefunc.S\).mu`
	s.mu.Unlock()
}

// Nested returns from an inner loop's body: both loops are left.
func (s *S) Nested(a, b []string) int {
	s.mu.Lock()
	for x := range strings.SplitSeq(a[0], ".") {
		for y := range strings.SplitSeq(x, ",") {
			probe() // want `held: \(rangefunc.S\).mu`
			if y == "" {
				s.mu.Unlock()
				return 1
			}
		}
		probe() // want `held: \(rangefunc.S\).mu`
	}
	probe() // want `held: \(rangefunc.S\).mu`
	s.mu.Unlock()
	return 0
}
