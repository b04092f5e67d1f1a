package tallyfixed

import (
	"sync"
	"testing"
)

func TestAddConcurrently(t *testing.T) {
	var mu sync.Mutex
	total := 0
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			total = Add(total, i)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total == 0 {
		t.Fatal("nothing added")
	}
}
