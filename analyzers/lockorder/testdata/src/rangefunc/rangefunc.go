package rangefunc // want package:`orders\{\(rangefunc.Table\).mu->\(rangefunc.Sublist\).mu \(rangefunc.Sublist\).mu->\(rangefunc.Table\).mu\}`

// The package holds range-over-func loops. Their bodies are the
// enclosing function's code: they run with its locks, and each way out
// (the end of the body, break, return) brings its locks to where the
// function resumes.

import (
	"errors"
	"maps"
	"strings"
	"sync"
)

var errEmpty = errors.New("empty token")

type Sublist struct {
	mu   sync.Mutex
	subs map[string]int
}

// Insert unlocks before it returns from inside the loop body. Silent.
func (s *Sublist) Insert(subj string) error {
	s.mu.Lock()
	for t := range strings.SplitSeq(subj, ".") {
		if t == "" {
			s.mu.Unlock()
			return errEmpty
		}
		s.subs[t]++
	}
	s.mu.Unlock()
	return nil
}

// Remove forgets to: the return from the body leaks the lock.
func (s *Sublist) Remove(subj string) error {
	s.mu.Lock() // want `lock leak: \(\*rangefunc.Sublist\).Remove returns with \(rangefunc.Sublist\).mu still held on this path but not on others`
	for t := range strings.SplitSeq(subj, ".") {
		if t == "" {
			return errEmpty
		}
		delete(s.subs, t)
	}
	s.mu.Unlock()
	return nil
}

// Count locks in the body again. The lock taken before the loop is held
// there.
func (s *Sublist) Count(subj string) int {
	s.mu.Lock() // want `double lock: \(\*rangefunc.Sublist\).Count locks s.mu while already holding it`
	defer s.mu.Unlock()
	n := 0
	for t := range strings.SplitSeq(subj, ".") {
		s.mu.Lock()
		n += s.subs[t]
	}
	return n
}

// Each locks and unlocks in the body: every run starts without the lock.
// Silent.
func (s *Sublist) Each(m map[string]int) {
	for k := range maps.Keys(m) {
		s.mu.Lock()
		s.subs[k]++
		s.mu.Unlock()
	}
}

type Table struct {
	mu   sync.Mutex
	rows map[string]int
	last string
}

// Scan breaks out of the loop holding the lock it took in the body, and
// returns with it held.
func (t *Table) Scan(keys map[string]int) {
	for k := range maps.Keys(keys) {
		t.mu.Lock() // want `lock leak`
		if t.rows[k] == 0 {
			break
		}
		t.mu.Unlock()
	}
	t.last = ""
}

// Find breaks out holding the lock taken before the loop, and releases it
// after. Silent.
func (t *Table) Find(keys map[string]int) string {
	t.mu.Lock()
	found := ""
	for k := range maps.Keys(keys) {
		if t.rows[k] > 0 {
			found = k
			break
		}
	}
	t.mu.Unlock()
	return found
}

// Merge locks each sublist in the body under the table's lock, and
// Export locks the table under a sublist's: an AB-BA cycle, one side in
// a loop body.
func (t *Table) Merge(subs map[string]*Sublist) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for s := range maps.Values(subs) {
		s.mu.Lock()
		for k, n := range s.subs {
			t.rows[k] += n
		}
		s.mu.Unlock()
	}
}

func (s *Sublist) Export(t *Table) {
	s.mu.Lock() // want `lock-order cycle: \(\*rangefunc.Sublist\).Export acquires \(rangefunc.Table\).mu while holding \(rangefunc.Sublist\).mu, but \(\*rangefunc.Table\).Merge acquires`
	defer s.mu.Unlock()
	t.mu.Lock()
	for k, n := range s.subs {
		t.rows[k] = n
	}
	t.mu.Unlock()
}
