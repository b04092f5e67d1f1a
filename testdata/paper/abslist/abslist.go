// Package abslist is a Go analog of the AbsList subject (the race in the
// JDK 1.4 AbstractList.equals used through the synchronized Vector): a
// synchronized list whose Equal holds its own lock but walks the other list
// through an iterator, without holding the other list's lock, while
// another goroutine adds to that list.
package abslist

import "sync"

// A List is a list of ints whose methods are synchronized.
type List struct {
	mu    sync.Mutex
	elems []int
	mod   int // modification count, checked by iterators
}

// NewList returns a list holding elems.
func NewList(elems ...int) *List {
	return &List{elems: elems}
}

// AddIfAbsent appends v unless the list already holds it.
func (l *List) AddIfAbsent(v int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, e := range l.elems {
		if e == v {
			return
		}
	}
	l.elems = append(l.elems, v) // key: abslist 3
	l.mod++                      // key: abslist 4
}

// Iterator returns an iterator over the list's elements.
func (l *List) Iterator() *Iterator {
	l.mu.Lock()
	defer l.mu.Unlock()
	return &Iterator{list: l, mod: l.mod}
}

// Equal reports whether l and o hold the same elements. It holds l's
// lock, but reads o through an iterator whose every call locks o on its
// own: o may change between the calls.
func (l *List) Equal(o *List) bool {
	if l == o {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	it := o.Iterator() // key: abslist 1
	for _, e := range l.elems {
		if !it.HasNext() { // key: abslist 2
			return false
		}
		if it.Next() != e { // key: abslist 5
			return false
		}
	}
	return !it.HasNext()
}

// An Iterator walks a List. Like Java's iterators it fails fast: Next
// panics when the list was modified since the iterator was made.
type Iterator struct {
	list   *List
	cursor int
	mod    int
}

// HasNext reports whether Next has an element to return.
func (it *Iterator) HasNext() bool {
	it.list.mu.Lock()
	defer it.list.mu.Unlock()
	return it.cursor < len(it.list.elems)
}

// Next returns the next element. It panics when the list was modified
// since the iterator was made.
func (it *Iterator) Next() int {
	it.list.mu.Lock()
	defer it.list.mu.Unlock()
	if it.list.mod != it.mod {
		panic("abslist: concurrent modification of the list during iteration")
	}
	v := it.list.elems[it.cursor]
	it.cursor++
	return v
}
