// Package sumfixed is the correct twin of sum: Go calls wg.Add(1) before the
// go statement, so Wait cannot return before every worker is done.
package sumfixed

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
	b.wg.Add(1)
	go func() {
		close(started)
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
