package locks

import "sync"

// Queue leaks its lock on the empty path of Pop.
type Queue struct {
	mu    sync.Mutex
	items []int
}

func (q *Queue) Pop() (int, bool) {
	q.mu.Lock()
	if len(q.items) == 0 {
		return 0, false
	}
	x := q.items[0]
	q.items = q.items[1:]
	q.mu.Unlock()
	return x, true
}

func (q *Queue) Push(x int) {
	q.mu.Lock()
	q.items = append(q.items, x)
	q.mu.Unlock()
}
