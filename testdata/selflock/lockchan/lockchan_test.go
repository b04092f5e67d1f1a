package lockchan

import (
	"sync"
	"testing"
)

// TestHandOff deadlocks only when Take locks before Put's second Lock.
func TestHandOff(t *testing.T) {
	m := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); m.Put("hello") }()
	go func() {
		defer wg.Done()
		if got := m.Take(); got != "hello" {
			t.Errorf("Take() = %q, want hello", got)
		}
	}()
	wg.Wait()
}
