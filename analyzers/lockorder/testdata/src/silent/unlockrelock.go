package silent

import "sync"

// As a.Entrant, but rekeyLocked releases m.mu before it takes the
// registry's lock, and takes it back after: no order m.mu, r.mu.
type Entrant struct {
	mu  sync.Mutex
	id  int
	reg *Roster
}

type Roster struct {
	mu      sync.Mutex
	members map[int]*Entrant
	next    int
}

func (r *Roster) Touch(m *Entrant) {
	r.mu.Lock()
	m.mu.Lock()
	m.id++
	m.mu.Unlock()
	r.mu.Unlock()
}

// rekeyLocked is called with m.mu held, and returns with it held.
func (m *Entrant) rekeyLocked() bool {
	r := m.reg
	m.mu.Unlock()
	r.mu.Lock()
	if r.members[m.id] != m {
		r.mu.Unlock()
		m.mu.Lock()
		return false
	}
	r.next++
	r.members[r.next] = m
	r.mu.Unlock()
	m.mu.Lock()
	return true
}

func (m *Entrant) Rekey() {
	m.mu.Lock()
	m.rekeyLocked()
	m.mu.Unlock()
}

// ResetLocked is called with m.mu held (its callers are not all in the
// package): every return leaves m.mu as it found it, the early ones
// without touching it, the later ones after rekeyLocked took it back.
func (m *Entrant) ResetLocked(skip bool) {
	if skip {
		return
	}
	if !m.rekeyLocked() {
		return
	}
	m.id++
}

// relockInPlace is the same inside one function.
func (m *Entrant) RelockInPlace(skip bool) {
	if skip {
		return
	}
	m.mu.Unlock()
	m.reg.mu.Lock()
	m.reg.next++
	m.reg.mu.Unlock()
	m.mu.Lock()
}
