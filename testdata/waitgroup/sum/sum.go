// Package sum adds numbers in parallel. Each worker signals that it started
// and only then calls wg.Add(1), inside its goroutine, so Wait can run
// between the signal and the Add and return while that worker's part is
// still missing.
package sum

import "sync"

// A Batch sums parts of a list in parallel.
type Batch struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	total int
}

// Go starts a worker that adds up part, and returns once it is running.
func (b *Batch) Go(part []int) {
	started := make(chan struct{})
	go func() {
		close(started)
		b.wg.Add(1)
		defer b.wg.Done()
		s := 0
		for _, x := range part {
			s += x
		}
		b.mu.Lock()
		b.total += s
		b.mu.Unlock()
	}()
	<-started
}

// Wait waits for every worker and returns the sum of all parts.
func (b *Batch) Wait() int {
	b.wg.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}
