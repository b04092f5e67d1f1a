package hits

import (
	"sync"
	"testing"
)

func TestRecord(t *testing.T) {
	c := NewCounter()
	var wg sync.WaitGroup
	for _, p := range []string{"/a", "/b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Record(p)
		}()
	}
	wg.Wait()
	if got := c.Total(); got != 2 {
		t.Errorf("total = %d, want 2", got)
	}
	if got := c.Count("/a"); got != 1 {
		t.Errorf("count(/a) = %d, want 1", got)
	}
}
