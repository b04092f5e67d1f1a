package locks

import "sync"

// Account is locked per instance; transfer nests two instances.
type Account struct {
	mu      sync.Mutex
	balance int
}

func transfer(from, to *Account, amount int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= amount
	to.balance += amount
}
