// Package leak has an account whose Withdraw returns early with the lock
// held.
package leak

import (
	"errors"
	"sync"
)

// An Account has a balance.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Deposit adds n.
func (a *Account) Deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

// Withdraw takes n, or fails when the balance is too low.
func (a *Account) Withdraw(n int) error {
	a.mu.Lock()
	if a.balance < n {
		return errors.New("insufficient funds") // a.mu stays locked
	}
	a.balance -= n
	a.mu.Unlock()
	return nil
}
