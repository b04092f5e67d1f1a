// Package condlocks has helpers that take their type's lock only when a
// boolean parameter asks them to, deferring the unlock: past the branch,
// the lock is held or not as the caller's argument says.
package condlocks

import "sync"

type Span struct {
	mu   sync.Mutex
	name string
	tags []string
}

func (s *Span) SetTag(t string) { s.setTag(t, true) }

func (s *Span) setTag(t string, lock bool) {
	if lock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.tags = append(s.tags, t) // want `\(condlocks.Span\).tags is written by goroutine \(\*condlocks.Span\).SetTag and written by goroutine \(\*condlocks.Span\).Clear` `\(condlocks.Span\).tags is read by goroutine \(\*condlocks.Span\).SetTag and written by goroutine \(\*condlocks.Span\).Clear`
}

// SetName applies its decision holding the lock, through a helper that
// appends without locking.
func (s *Span) SetName(name string) {
	s.mu.Lock()
	s.name = name
	s.mu.Unlock()
	s.apply(true)
}

func (s *Span) apply(lock bool) {
	if lock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	s.appendTag("named")
}

func (s *Span) appendTag(t string) {
	s.tags = append(s.tags, t)
}

// Retag passes its own flag on: its callers decide.
func (s *Span) Retag(lock bool) { s.apply(lock) }

// Clear appends without the lock on a span others use.
func (s *Span) Clear() {
	s.apply(false)
}

// Tagging runs the locked paths side by side. Silent.
func Tagging(s *Span) {
	go s.SetTag("a")
	go s.SetName("b")
	go s.Retag(true)
}

// Clearing runs the unlocked path beside a locked one.
func Clearing(s *Span) {
	go s.SetTag("a")
	go s.Clear()
}

func (s *Span) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.name
}

// NewSpan labels the span it builds without the lock: no other goroutine
// has it yet. Silent.
func NewSpan(name string) *Span {
	s := &Span{name: name}
	s.label(false)
	return s
}

// Label takes the lock through the same helper.
func (s *Span) Label() string { return s.label(true) }

func (s *Span) label(lock bool) string {
	var name string
	if lock {
		s.mu.Lock()
		name = s.name
		s.mu.Unlock()
	} else {
		name = s.name
	}
	return "[" + name + "]"
}

func (s *Span) title(lock bool) string {
	if lock {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	return s.name // want `\(\*condlocks.Span\).title reads \(condlocks.Span\).name without holding \(condlocks.Span\).mu`
}

// Title reads the name of a span others use, holding no lock.
func (s *Span) Title() string { return s.title(false) }

// LockedTitle holds it.
func (s *Span) LockedTitle() string { return s.title(true) }
