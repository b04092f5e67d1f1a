package poolfixed

import (
	"sync"
	"testing"
)

func TestGetPut(t *testing.T) {
	p := New(4)
	first, _ := p.Get()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		p.Put(first)
	}()
	go func() {
		defer wg.Done()
		if _, ok := p.Get(); !ok {
			t.Error("Get: no idle connection")
		}
	}()
	wg.Wait()
	if got := p.InUse(); got != 1 {
		t.Errorf("in use = %d, want 1", got)
	}
}
