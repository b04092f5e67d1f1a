package a

import "sync"

// A lock taken and released under one condition that does not change
// while the function runs (nats-server's applyStreamEntries, isRecovering):
// every path that holds it after the first test releases it at the
// second. Silent.

type Stream struct {
	mu      sync.RWMutex
	applied int
}

func (s *Stream) Apply(entries []int) {
	batched := len(entries) > 1
	for _, e := range entries {
		if batched {
			s.mu.Lock()
		}
		s.applied += e
		if batched {
			s.mu.Unlock()
		}
		s.check()
	}
}

func (s *Stream) check() {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_ = s.applied
}

// The same with the release under another condition: the path that
// locks under the first and skips the release under the second locks
// again.

type Journal struct {
	mu      sync.RWMutex
	applied int
}

func (j *Journal) Apply(entries []int) {
	batched := len(entries) > 1
	for _, e := range entries {
		if batched {
			j.mu.Lock() // want `double lock: \(\*a.Journal\).Apply read-locks j.mu via \(\*a.Journal\).check again while the path through line \d+ still holds it`
		}
		j.applied += e
		if e > 0 {
			j.mu.Unlock()
		}
		j.check()
	}
}

func (j *Journal) check() {
	j.mu.RLock()
	defer j.mu.RUnlock()
	_ = j.applied
}

// The same with the condition a parameter that a function literal
// captures (loaded anew at each test), and the next acquisition on
// another branch of the loop's next iteration. Silent.

type Follower struct {
	mu      sync.RWMutex
	applied int
	bad     int
}

func (f *Follower) apply(entries []int, recovering bool) {
	onBad := func() {
		if recovering {
			f.mu.Lock()
			f.bad++
			f.mu.Unlock()
		}
	}
	for _, e := range entries {
		if e > 0 {
			if recovering {
				f.mu.Lock()
			}
			f.applied += e
			if recovering {
				f.mu.Unlock()
			}
			continue
		}
		f.check()
		onBad()
	}
}

func (f *Follower) check() {
	f.mu.RLock()
	defer f.mu.RUnlock()
	_ = f.applied
}

func (f *Follower) Apply(entries []int) { f.apply(entries, false) }

func (f *Follower) Recover(entries []int) { f.apply(entries, true) }
