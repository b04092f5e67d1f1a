package basic_test

import (
	"sync"
	"testing"

	"example.com/basic"
)

func TestExternal(t *testing.T) {
	var wg sync.WaitGroup
	var a basic.Account
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.Deposit(2)
		}()
	}
	wg.Wait()
	if a.Balance() != 6 {
		t.Fatal("balance")
	}
}
