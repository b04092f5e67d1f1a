// Package bank has an AB-BA deadlock, reached only through channels and a
// select, and its fixed twin.
package bank

import "sync"

// Account is guarded by its mutex.
type Account struct {
	mu  sync.Mutex
	bal int
}

// Transfer locks from, then to: opposite transfers deadlock.
func Transfer(from, to *Account, n int) {
	from.mu.Lock()
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.bal -= n
	to.bal += n
}

// Ordered locks in a fixed order (a before b), so it cannot deadlock.
func Ordered(a, b *Account, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	a.bal -= n
	b.bal += n
}

// Run starts the two transfers through a request channel and waits for
// both with a select loop.
func Run(a, b *Account, transfer func(x, y *Account, n int)) int {
	reqs := make(chan [2]*Account)
	done := make(chan int, 2)
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range reqs {
				transfer(r[0], r[1], 1)
				done <- 1
			}
		}()
	}
	reqs <- [2]*Account{a, b}
	reqs <- [2]*Account{b, a}
	close(reqs)
	sum := 0
	for sum < 2 {
		select {
		case n := <-done:
			sum += n
		}
	}
	wg.Wait()
	return a.bal + b.bal
}

// Hits counts without a lock.
type Hits struct{ n int }

// Inc increments the count: a data race when called concurrently.
func (h *Hits) Inc() { h.n++ }
