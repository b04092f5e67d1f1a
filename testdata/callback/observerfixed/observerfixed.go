// Package observerfixed is the correct twin of observer: Refresh reads the
// subject's value before it takes the observer's mutex, so no goroutine ever
// holds an observer's mutex while it waits for the subject's.
package observerfixed

import "sync"

// A Subject holds a value and the observers to notify when it changes.
type Subject struct {
	mu        sync.Mutex
	value     int
	version   int
	observers []*Observer
}

// Attach registers o to be notified of changes.
func (s *Subject) Attach(o *Observer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.observers = append(s.observers, o)
}

// Set changes the value and notifies every observer.
func (s *Subject) Set(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.value = v
	s.version++
	for _, o := range s.observers {
		o.Notify(v, s.version)
	}
}

// Value returns the current value and its version.
func (s *Subject) Value() (value, version int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.value, s.version
}

// An Observer keeps the last value it saw of its subject.
type Observer struct {
	mu      sync.Mutex
	subject *Subject
	last    int
	version int
}

// NewObserver returns an observer attached to s.
func NewObserver(s *Subject) *Observer {
	o := &Observer{subject: s}
	s.Attach(o)
	return o
}

// Notify records a new value unless a newer one was already seen.
func (o *Observer) Notify(v, version int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.update(v, version)
}

// Refresh re-reads the subject's value. It reads before it locks, and a
// Notify that runs in between is kept because its version is newer.
func (o *Observer) Refresh() {
	v, version := o.subject.Value()
	o.mu.Lock()
	defer o.mu.Unlock()
	o.update(v, version)
}

func (o *Observer) update(v, version int) {
	if version >= o.version {
		o.last, o.version = v, version
	}
}

// Last returns the last value seen.
func (o *Observer) Last() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last
}
