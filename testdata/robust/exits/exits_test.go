package exits

import (
	"sync"
	"testing"
)

// TestStop exits when the goroutine it starts runs before the test sets
// stopped: an interleaving, not the serial schedule, shows it.
func TestStop(t *testing.T) {
	var mu sync.Mutex
	stopped := false
	go func() {
		mu.Lock()
		defer mu.Unlock()
		if !stopped {
			Stop()
		}
	}()
	mu.Lock()
	stopped = true
	mu.Unlock()
}

func TestStopInDependency(t *testing.T) {
	StopInDependency()
}
