package panics

import (
	"sync"
	"testing"
)

// TestFirst panics only when the goroutine that empties the slice runs
// before First: an interleaving, not the serial schedule, shows it.
func TestFirst(t *testing.T) {
	var mu sync.Mutex
	xs := []int{1}
	done := make(chan bool)
	go func() {
		mu.Lock()
		xs = xs[:0]
		mu.Unlock()
		done <- true
	}()
	mu.Lock()
	got := First(xs)
	mu.Unlock()
	<-done
	if got != 1 {
		t.Errorf("First = %d, want 1", got)
	}
}
