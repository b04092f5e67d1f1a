package stopperfixed

import (
	"sync"
	"testing"
)

func TestStopTwice(t *testing.T) {
	w := Start()
	results := make(chan int, 1)
	if !w.Submit(func() { results <- 42 }) {
		t.Fatal("Submit: worker stopped")
	}
	if got := <-results; got != 42 {
		t.Errorf("job result = %d, want 42", got)
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		w.Stop()
	}()
	go func() {
		defer wg.Done()
		w.Stop()
	}()
	wg.Wait()
	if w.Submit(func() {}) {
		t.Error("Submit after Stop succeeded")
	}
}
