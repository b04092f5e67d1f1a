// Package drain has a queue whose Drain skips the Unlock when it finds
// the queue empty, and locks again in the next round.
package drain

import "sync"

// A Queue is a FIFO of ints.
type Queue struct {
	mu    sync.Mutex
	items []int
}

// Push appends v.
func (q *Queue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.items = append(q.items, v)
}

// Drain pops up to n items and returns their sum.
func (q *Queue) Drain(n int) int {
	sum := 0
	for i := 0; i < n; i++ {
		q.mu.Lock()
		if len(q.items) == 0 {
			continue // still holding q.mu: the next round locks it again
		}
		sum += q.items[0]
		q.items = q.items[1:]
		q.mu.Unlock()
	}
	return sum
}
