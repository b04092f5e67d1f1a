// Package runners holds function literals that a call runs before it
// returns: the standard library's (sort.Slice, (*sync.Map).Range) and the
// package's own helpers. What the literal does through the variables it
// captures, its maker does.
package runners

import (
	"sort"
	"sync"
)

type Table struct {
	mu    sync.Mutex
	rows  []int
	limit int
	seen  sync.Map
	count int
}

// sortRows reads limit in the less function sort.Slice calls.
func (t *Table) sortRows() {
	sort.Slice(t.rows, func(i, j int) bool {
		return t.limit > 0 && t.rows[i] < t.rows[j] // want `possible data race: \(runners.Table\).limit is read by goroutine \(\*runners.Table\).sortRows and written by runners.SortWhileSetting`
	})
}

// SortWhileSetting sets the limit while a goroutine sorts.
func SortWhileSetting() {
	t := &Table{rows: []int{3, 1, 2}}
	go t.sortRows()
	t.limit = 2
}

// SortThenSet sets the limit after the sorting goroutine is done. Silent.
func SortThenSet() {
	t := &Table{rows: []int{3, 1, 2}}
	done := make(chan struct{})
	go func() {
		t.sortRows()
		close(done)
	}()
	<-done
	t.limit = 2
}

// tally counts in the function (*sync.Map).Range calls.
func (t *Table) tally() {
	t.seen.Range(func(k, v any) bool {
		t.count++ // want `possible data race: \(runners.Table\).count is written by goroutine \(\*runners.Table\).tally and written by runners.TallyWhileResetting`
		return true
	})
}

// TallyWhileResetting resets the count while a goroutine counts.
func TallyWhileResetting() {
	t := &Table{}
	go t.tally()
	t.count = 0
}

// tallyLocked counts under the lock, held around Range. Silent.
func (t *Table) tallyLocked() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.seen.Range(func(k, v any) bool {
		t.count++
		return true
	})
}

// TallyLockedWhileResetting resets the count under the lock. Silent.
func TallyLockedWhileResetting() {
	t := &Table{}
	go t.tallyLocked()
	t.mu.Lock()
	t.count = 0
	t.mu.Unlock()
}

// withRows calls f before it returns.
func withRows(f func()) { f() }

// grow appends in the function it hands to the package's own helper.
func (t *Table) grow() {
	withRows(func() {
		t.rows = append(t.rows, 4) // want `possible data race: \(runners.Table\).rows is written by goroutine \(\*runners.Table\).grow and read by runners.GrowWhileReading`
	})
}

// GrowWhileReading reads the rows while a goroutine grows them.
func GrowWhileReading() int {
	t := &Table{}
	go t.grow()
	return len(t.rows)
}

// later keeps f for someone else to call: nothing runs it here.
func later(f func()) func() { return f }

// deferGrow hands its literal to a helper that does not call it. Silent.
func (t *Table) deferGrow() func() {
	return later(func() {
		t.rows = append(t.rows, 5)
	})
}

// DeferGrowWhileReading reads the rows while a goroutine makes, and does
// not run, the function that grows them. Silent.
func DeferGrowWhileReading() int {
	t := &Table{}
	go t.deferGrow()
	return len(t.rows)
}
