// Package cgouse uses cgo; the race analyzer must not fail on it.
package cgouse

/*
static int twice(int x) { return 2 * x; }
*/
import "C"

import "sync"

type Acc struct {
	mu sync.Mutex
	n  int
}

func (a *Acc) Add(x int) {
	a.mu.Lock()
	a.n += int(C.twice(C.int(x)))
	a.mu.Unlock()
}

func (a *Acc) Get() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.n
}
