package locks

import "sync"

// Mailbox receives holding the lock its sender takes first.
type Mailbox struct {
	mu sync.Mutex
	ch chan int
	v  int
}

func NewMailbox() *Mailbox { return &Mailbox{ch: make(chan int)} }

func (m *Mailbox) Put(v int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.ch <- v
}

func (m *Mailbox) Take() {
	m.mu.Lock()
	m.v = <-m.ch
	m.mu.Unlock()
}
