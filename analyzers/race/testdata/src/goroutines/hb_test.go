package goroutines

import (
	"context"
	"testing"
	"testing/synctest"
)

// synctest.Wait returns once the bubble's other goroutines are blocked
// or gone: the goroutine's write comes before the read. Silent.
func TestBubbleWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var err error
		go func() {
			err = context.Canceled
		}()
		synctest.Wait()
		if err == nil {
			t.Fatal("no error")
		}
	})
}

// Without the Wait, the read races with the write.
func TestBubbleNoWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var err error
		go func() {
			err = context.Canceled // want `possible data race`
		}()
		if err == nil {
			t.Log("no error yet")
		}
	})
}

// A named result returned as it is is not written.
func harness() (cancel context.CancelFunc) {
	_, cancel = context.WithCancel(context.Background())
	go func() {
		defer cancel()
	}()
	return cancel
}
