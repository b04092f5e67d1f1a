package beliefs

import "sync"

// A Breakers registry looks a name up under the read lock and, when it
// is missing, trades it for the write lock to create it: the final read
// holds the mutex in one mode or the other on every path. Silent.
type Breakers struct {
	mu sync.RWMutex
	m  map[string]int
}

// Get returns the breaker named name, creating it.
func (b *Breakers) Get(name string) int {
	b.mu.RLock()
	_, ok := b.m[name]
	if !ok {
		b.mu.RUnlock()
		b.mu.Lock()
		defer b.mu.Unlock()
		if v, ok := b.m[name]; ok {
			return v
		}
		b.m[name] = len(b.m)
	} else {
		defer b.mu.RUnlock()
	}
	return b.m[name]
}

// Flush forgets every breaker.
func (b *Breakers) Flush() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m = map[string]int{}
}

// Len returns the number of breakers.
func (b *Breakers) Len() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.m)
}

// Find reads on the creating branch after giving the lock up.
func (b *Breakers) Find(name string) int {
	b.mu.RLock()
	v, ok := b.m[name]
	b.mu.RUnlock()
	if !ok {
		b.mu.Lock()
		b.m[name] = len(b.m)
		b.mu.Unlock()
	}
	return v + b.m[name] // want `Find reads \(beliefs.Breakers\).m without holding` `Find reads map contents of \(beliefs.Breakers\).m without holding`
}
