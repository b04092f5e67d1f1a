package goroutines

import (
	"sync/atomic"
	"testing"
)

// A test reading plainly the counter its goroutine adds to atomically,
// in the message of a failing check, is left alone. Silent.
func TestTicks(t *testing.T) {
	var n int32
	done := make(chan bool)
	go func() {
		atomic.AddInt32(&n, 1)
		done <- true
	}()
	if atomic.LoadInt32(&n) > 1 {
		t.Fatalf("expected at most 1, got %d", n)
	}
	<-done
}
