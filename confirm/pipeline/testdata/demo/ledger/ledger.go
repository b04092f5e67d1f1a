// Package ledger records entries under one mutex: it is correct, and
// confirm reports nothing for it.
package ledger

import "sync"

// A Ledger is a list of amounts and their sum.
type Ledger struct {
	mu      sync.Mutex
	entries []int
	sum     int
}

// Add records amount.
func (l *Ledger) Add(amount int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, amount)
	l.sum += amount
}

// Sum returns the sum of the recorded amounts.
func (l *Ledger) Sum() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.sum
}
