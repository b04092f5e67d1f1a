package tally

import (
	"sync"
	"testing"
)

func TestAddConcurrently(t *testing.T) {
	total := 0
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total = Add(total, i)
		}()
	}
	wg.Wait()
	if total == 0 {
		t.Fatal("nothing added")
	}
}
