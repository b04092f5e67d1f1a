// Package instances holds methods that hold the lock of one value of a
// type and read the fields of another value of the same type.
package instances

import "sync"

type List struct {
	mu    sync.Mutex
	items []int
}

func (l *List) Add(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.items = append(l.items, v)
}

func (l *List) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items)
}

// Equal holds l.mu but reads o.items, guarded by o.mu: another goroutine
// adding to o races with it.
func (l *List) Equal(o *List) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.items) != len(o.items) { // want `possible data race: \(\*instances.List\).Equal reads o.items holding l.mu, not o.mu: the lock of another instances.List; \(\*instances.List\).Add writes it holding \(instances.List\).mu`
		return false
	}
	for i := range l.items {
		if l.items[i] != o.items[i] {
			return false
		}
	}
	return true
}

// EqualLocked takes both locks, in a fixed order: no race.
func (l *List) EqualLocked(o *List) bool {
	if l == o {
		return true
	}
	first, second := l, o
	if o.Len() < l.Len() {
		first, second = o, l
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	return len(first.items) == len(second.items)
}

// Snapshot copies o under o's own lock and compares under l's.
func (l *List) Snapshot(o *List) bool {
	o.mu.Lock()
	n := len(o.items)
	o.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.items) == n
}
