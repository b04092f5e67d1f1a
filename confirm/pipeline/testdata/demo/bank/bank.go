// Package bank moves money between accounts. Transfer locks the source
// account and then the destination, so two opposite transfers can each hold
// one lock and wait for the other (an AB-BA deadlock).
package bank

import "sync"

// An Account holds a balance guarded by its mutex.
type Account struct {
	mu      sync.Mutex
	balance int
}

// NewAccount returns an account holding balance.
func NewAccount(balance int) *Account { return &Account{balance: balance} }

// Balance returns the current balance.
func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

// Transfer moves amount from one account to another.
func Transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
