package leak

import (
	"sync"
	"testing"
)

func TestWithdrawDeposit(t *testing.T) {
	var a Account
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _ = a.Withdraw(5) }()
	go func() { defer wg.Done(); a.Deposit(10) }()
	wg.Wait()
}
