package beliefs

import (
	"log"
	"sync"
)

// A Session reads its logger under its lock, where it logs the state
// the lock guards, but nothing writes the logger under the lock: a setter
// called before Connect sets it. The lock is no evidence that it guards
// the logger, and the check does not claim it. Silent.
type Session struct {
	mu     sync.Mutex
	state  int
	logger *log.Logger
}

// SetLogger sets the logger; call it before Connect.
func (s *Session) SetLogger(l *log.Logger) {
	s.logger = l
}

// Connect moves the session on.
func (s *Session) Connect() {
	s.mu.Lock()
	s.state = 1
	if s.logger != nil {
		s.logger.Print("connected")
	}
	s.mu.Unlock()
}

// Ack moves the session on.
func (s *Session) Ack() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.state = 2
	if s.logger != nil {
		s.logger.Print("acked")
	}
}

// State returns the state.
func (s *Session) State() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// A Tracker's mailbox is written under the lock by Select and by
// Unselect, so the unlocked write in Close breaks a discipline the code
// keeps: reported.
type Tracker struct {
	mu      sync.Mutex
	mailbox string
}

// Select selects a mailbox.
func (t *Tracker) Select(name string) {
	t.mu.Lock()
	t.mailbox = name
	t.mu.Unlock()
}

// Unselect clears the mailbox.
func (t *Tracker) Unselect() {
	t.mu.Lock()
	t.mailbox = ""
	t.mu.Unlock()
}

// Mailbox returns the selected mailbox.
func (t *Tracker) Mailbox() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.mailbox
}

// Close forgets the mailbox.
func (t *Tracker) Close() {
	t.mailbox = "" // want `possible data race: \(\*beliefs.Tracker\).Close writes \(beliefs.Tracker\).mailbox without holding \(beliefs.Tracker\).mu`
}

// A Registry's map is read under the lock and changed without it: a
// map's contents read under a lock are guarded by it. Reported.
type Registry struct {
	mu    sync.Mutex
	names map[string]int
}

// Lookup returns the id of name.
func (r *Registry) Lookup(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[name]
}

// Count returns how many names there are.
func (r *Registry) Count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.names)
}

// Add adds name.
func (r *Registry) Add(name string, id int) {
	r.names[name] = id // want `possible data race: \(\*beliefs.Registry\).Add writes map contents of \(beliefs.Registry\).names without holding \(beliefs.Registry\).mu`
}
