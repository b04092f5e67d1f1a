// Package accountsfixed is accounts with the two locks taken in the
// order of the accounts' ids.
package accountsfixed

import "sync"

// An Account holds a balance.
type Account struct {
	mu      sync.Mutex
	id      int
	balance int
}

// New returns an account with the given id and balance.
func New(id, balance int) *Account { return &Account{id: id, balance: balance} }

// Transfer moves n from a to to.
func (a *Account) Transfer(to *Account, n int) {
	first, second := a, to
	if to.id < a.id {
		first, second = to, a
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	a.balance -= n
	to.balance += n
}
