// Package accounts moves money between accounts, locking the source and
// then the destination: two transfers in opposite directions deadlock
// (AB-BA). Its test makes one transfer at a time; Confirm shows the
// deadlock with a test it writes, two accounts and two goroutines.
package accounts

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
	a.mu.Lock()
	defer a.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	a.balance -= n
	to.balance += n
}
