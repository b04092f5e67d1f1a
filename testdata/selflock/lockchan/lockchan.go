// Package lockchan has a mailbox whose Take waits for a message while it
// holds the lock that Put needs before it can send one.
package lockchan

import "sync"

// A Mailbox hands one message at a time from Put to Take.
type Mailbox struct {
	mu   sync.Mutex
	ch   chan string
	last string
	n    int
}

// New returns an empty mailbox.
func New() *Mailbox { return &Mailbox{ch: make(chan string)} }

// Put hands msg to a Take, counting it.
func (m *Mailbox) Put(msg string) {
	m.mu.Lock()
	m.n++
	m.mu.Unlock()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ch <- msg
}

// Take waits for a message holding the lock: a Put that has not locked
// yet never can.
func (m *Mailbox) Take() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.last = <-m.ch
	return m.last
}
