package bank

import (
	"sync"
	"testing"
)

func TestTransfer(t *testing.T) {
	a, b := NewAccount(100), NewAccount(100)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		Transfer(a, b, 10)
	}()
	go func() {
		defer wg.Done()
		Transfer(b, a, 20)
	}()
	wg.Wait()
	if got := a.Balance() + b.Balance(); got != 200 {
		t.Errorf("total = %d, want 200", got)
	}
	if got := a.Balance(); got != 110 {
		t.Errorf("a = %d, want 110", got)
	}
}
