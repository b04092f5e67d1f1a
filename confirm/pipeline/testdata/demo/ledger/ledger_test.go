package ledger

import (
	"sync"
	"testing"
)

func TestAdd(t *testing.T) {
	var l Ledger
	var wg sync.WaitGroup
	for _, a := range []int{1, 2} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Add(a)
		}()
	}
	wg.Wait()
	if got := l.Sum(); got != 3 {
		t.Errorf("sum = %d, want 3", got)
	}
}
