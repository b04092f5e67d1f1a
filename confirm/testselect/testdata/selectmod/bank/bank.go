package bank

import (
	"sync"

	"example.com/selectmod/audit"
)

type Account struct {
	mu      sync.Mutex
	balance int
}

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	a.balance += n
	a.mu.Unlock()
}

func (a *Account) Withdraw(n int) {
	a.mu.Lock()
	a.balance -= n
	a.mu.Unlock()
}

func Transfer(from, to *Account, n int) {
	from.Withdraw(n)
	to.Deposit(n)
	audit.Record("transfer")
}

func depositTwice(a *Account) {
	a.Deposit(1)
	a.Deposit(1)
}

// Store is implemented by memStore and diskStore.
type Store interface{ Put(k string) }

type memStore struct{ keys []string }

func (m *memStore) Put(k string) { m.keys = append(m.keys, k) }

type diskStore struct{ n int }

func (d *diskStore) Put(k string) { d.n++ }

func save(s Store) { s.Put("x") }

func worker(a, b *Account, done chan bool) {
	Transfer(a, b, 1)
	done <- true
}
