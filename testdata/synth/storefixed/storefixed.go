// Package storefixed is store with Puts under the read lock.
package storefixed

import (
	"errors"
	"sync"
)

// A Store maps keys to values.
type Store[K comparable, V any] struct {
	mu    sync.RWMutex
	items map[K]V
	puts  int
}

// New returns a Store for about capacity items.
func New[K comparable, V any](capacity int) (*Store[K, V], error) {
	if capacity <= 0 {
		return nil, errors.New("store: capacity must be positive")
	}
	return &Store[K, V]{items: make(map[K]V, capacity)}, nil
}

// Put stores v under k.
func (s *Store[K, V]) Put(k K, v V) {
	s.mu.Lock()
	s.items[k] = v
	s.puts++
	s.mu.Unlock()
}

// Reset removes every item and zeroes the counter.
func (s *Store[K, V]) Reset() {
	s.mu.Lock()
	clear(s.items)
	s.puts = 0
	s.mu.Unlock()
}

// Get returns the value stored under k.
func (s *Store[K, V]) Get(k K) (V, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.items[k]
	return v, ok
}

// Puts returns how many times Put was called.
func (s *Store[K, V]) Puts() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.puts
}
