package b // want package:`orders\{b.Mu->\(b.Store\).mu\}`

import "sync"

// Mu is a package lock.
var Mu sync.Mutex

// RW is a package read-write lock.
var RW sync.RWMutex

// Store is a locked map.
type Store struct {
	mu   sync.Mutex
	data map[string]int
}

// Lock locks s.
func (s *Store) Lock() { s.mu.Lock() }

// Unlock unlocks s.
func (s *Store) Unlock() { s.mu.Unlock() }

// Get reads under s.mu.
func (s *Store) Get(k string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.data[k]
}

// Sync takes Mu, then s.mu: the edge b.Mu -> (b.Store).mu.
func (s *Store) Sync() {
	Mu.Lock()
	defer Mu.Unlock()
	s.Get("x")
}

// LockMu returns with Mu held.
func LockMu() { Mu.Lock() }

// UnlockMu releases Mu.
func UnlockMu() { Mu.Unlock() }

// ReadRW read-locks RW.
func ReadRW() int {
	RW.RLock()
	defer RW.RUnlock()
	return 1
}

// WriteRW write-locks RW: a writer exists.
func WriteRW() {
	RW.Lock()
	RW.Unlock()
}

// WithMu runs f with Mu held.
func WithMu(f func()) {
	Mu.Lock()
	defer Mu.Unlock()
	f()
}
