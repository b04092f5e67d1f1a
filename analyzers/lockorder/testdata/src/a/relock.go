package a

import "sync"

// A Member is registered in a Registry under an id. rekeyLocked is
// called with m.mu held; it must release m.mu before it takes the
// registry's lock (the Registry locks members while holding its own),
// and takes m.mu back before it returns.
type Member struct {
	mu  sync.Mutex
	id  int
	reg *Registry
}

type Registry struct {
	mu      sync.Mutex
	members map[int]*Member
	next    int
}

func (r *Registry) Touch(m *Member) {
	r.mu.Lock()
	m.mu.Lock()
	m.id++
	m.mu.Unlock()
	r.mu.Unlock()
}

// rekeyLate takes the registry's lock before it releases m.mu: the
// order m.mu, r.mu against Touch's r.mu, m.mu.
func (m *Member) rekeyLate() bool {
	r := m.reg
	r.mu.Lock()
	m.mu.Unlock()
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

func (m *Member) RekeyLate() {
	m.mu.Lock() // want `lock-order cycle: \(\*a.Member\).RekeyLate acquires \(a.Registry\).mu while holding \(a.Member\).mu, but \(\*a.Registry\).Touch`
	m.rekeyLate()
	m.mu.Unlock()
}

// ResetLeaky locks m.mu itself, and its early return forgets it.
func (m *Member) ResetLeaky(skip bool) {
	m.mu.Lock() // want `lock leak: \(\*a.Member\).ResetLeaky returns with \(a.Member\).mu still held`
	if !m.rekeyLate() {
		m.mu.Unlock()
		return
	}
	if skip {
		return
	}
	m.mu.Unlock()
}
