package tallybad

import (
	"sync"
	"testing"
)

func TestAddN(t *testing.T) {
	tl := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		tl.Add(1)
	}()
	go func() {
		defer wg.Done()
		_ = tl.N()
	}()
	wg.Wait()
	if n := tl.N(); n != 1 {
		t.Errorf("N = %d, want 1", n)
	}
}
