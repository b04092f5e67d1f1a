// Package observer notifies observers of a value's changes. Set holds the
// subject's mutex while it calls each observer, and an observer's Refresh
// holds the observer's mutex while it calls back into the subject: the two
// mutexes are taken in opposite orders across the two types.
package observer

import "sync"

// A Subject holds a value and the observers to notify when it changes.
type Subject struct {
	mu        sync.Mutex
	value     int
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
	for _, o := range s.observers {
		o.Notify(v)
	}
}

// Value returns the current value.
func (s *Subject) Value() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.value
}

// An Observer keeps the last value it saw of its subject.
type Observer struct {
	mu      sync.Mutex
	subject *Subject
	last    int
}

// NewObserver returns an observer attached to s.
func NewObserver(s *Subject) *Observer {
	o := &Observer{subject: s}
	s.Attach(o)
	return o
}

// Notify records a new value.
func (o *Observer) Notify(v int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.last = v
}

// Refresh re-reads the subject's value.
func (o *Observer) Refresh() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.last = o.subject.Value()
}

// Last returns the last value seen.
func (o *Observer) Last() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last
}
