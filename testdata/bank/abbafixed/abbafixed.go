// Package abbafixed is the correct twin of abba: Transfer always locks the
// account with the smaller id first, so opposite transfers cannot deadlock.
package abbafixed

import "sync"

// An Account holds a balance guarded by its mutex.
type Account struct {
	id      int
	mu      sync.Mutex
	balance int
}

// NewAccount returns an account with the given id holding balance.
func NewAccount(id, balance int) *Account { return &Account{id: id, balance: balance} }

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer moves amount from one account to another.
func Transfer(from, to *Account, amount int) {
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
