// Package lockcycle acquires two package-level mutexes in opposite orders
// in two functions: the classic AB-BA lock-order cycle. Two goroutines
// running Transfer and Audit at the same time can deadlock.
package lockcycle

import "sync"

var (
	accountsMu sync.Mutex
	ledgerMu   sync.Mutex

	balance int
	entries []int
)

// Transfer locks accounts, then ledger.
func Transfer(amount int) {
	accountsMu.Lock() // expect lockorder
	defer accountsMu.Unlock()
	balance -= amount
	ledgerMu.Lock() // expect lockorder
	entries = append(entries, -amount)
	ledgerMu.Unlock()
}

// Audit locks ledger, then accounts: the opposite order.
func Audit() int {
	ledgerMu.Lock() // expect lockorder
	defer ledgerMu.Unlock()
	accountsMu.Lock() // expect lockorder
	defer accountsMu.Unlock()
	return balance + len(entries)
}

// Run starts both functions concurrently.
func Run() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); Transfer(1) }()
	go func() { defer wg.Done(); Audit() }()
	wg.Wait()
}
