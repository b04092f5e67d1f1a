// Package deadlock is a Go analog of the Deadlock subject (the Vector and
// Hashtable of JDK 1.4 holding each other): two synchronized containers
// whose methods call into each other while holding their own lock, so that
// two goroutines can take the two locks in opposite orders.
package deadlock

import "sync"

// A Vector is a synchronized slice.
type Vector struct {
	mu    sync.Mutex
	elems []string
}

// A Table is a synchronized map that indexes a Vector.
type Table struct {
	mu      sync.Mutex
	m       map[string]int
	indexed bool
}

// NewTable returns an empty table.
func NewTable() *Table {
	return &Table{m: make(map[string]int)}
}

// Elements returns a copy of the vector's elements.
func (v *Vector) Elements() []string {
	v.mu.Lock() // key: deadlock 3
	defer v.mu.Unlock()
	return append([]string(nil), v.elems...)
}

// AddAll appends the table's keys to the vector. It holds the vector's
// lock while it asks the table: vector, then table.
func (v *Vector) AddAll(t *Table) {
	v.mu.Lock() // key: deadlock 2
	defer v.mu.Unlock()
	v.elems = append(v.elems, t.Keys()...)
}

// Keys returns the table's keys.
func (t *Table) Keys() []string {
	t.mu.Lock() // key: deadlock 4
	defer t.mu.Unlock()
	keys := make([]string, 0, len(t.m))
	for k := range t.m {
		keys = append(keys, k)
	}
	return keys
}

// Index records the position of every element of v, the first time it is
// called. It holds the table's lock while it asks the vector: table, then
// vector.
func (t *Table) Index(v *Vector) {
	t.mu.Lock() // key: deadlock 1
	defer t.mu.Unlock()
	if t.indexed {
		return
	}
	for i, e := range v.Elements() {
		t.m[e] = i
	}
	t.indexed = true
}
