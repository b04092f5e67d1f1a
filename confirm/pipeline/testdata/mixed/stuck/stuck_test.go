package stuck

import (
	"sync"
	"testing"

	"example.com/mixeddep/block"
)

func TestPeek(t *testing.T) {
	block.Forever()
	var c Counter
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.Inc()
	}()
	_ = c.Peek()
	wg.Wait()
	if c.Get() != 1 {
		t.Fatal("lost an increment")
	}
}
