// Package clean is the correct twin of lockcycle and counter: locks are
// always taken in the same order and the counter is always guarded.
package clean

import "sync"

var (
	accountsMu sync.Mutex
	ledgerMu   sync.Mutex

	balance int
	entries []int
)

// Transfer locks accounts, then ledger.
func Transfer(amount int) {
	accountsMu.Lock()
	defer accountsMu.Unlock()
	balance -= amount
	ledgerMu.Lock()
	entries = append(entries, -amount)
	ledgerMu.Unlock()
}

// Audit locks accounts, then ledger, like Transfer.
func Audit() int {
	accountsMu.Lock()
	defer accountsMu.Unlock()
	ledgerMu.Lock()
	defer ledgerMu.Unlock()
	return balance + len(entries)
}

// Counter counts events.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc increments the counter under the lock.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Add adds d under the lock.
func (c *Counter) Add(d int) {
	c.mu.Lock()
	c.n += d
	c.mu.Unlock()
}

// Value reads the counter under the lock.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Run uses everything from several goroutines.
func Run() int {
	var c Counter
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(3)
		go func() { defer wg.Done(); c.Inc(); Transfer(1) }()
		go func() { defer wg.Done(); c.Add(2); Audit() }()
		go func() { defer wg.Done(); _ = c.Value() }()
	}
	wg.Wait()
	return c.Value()
}
