package accounts

import "testing"

func TestTransfer(t *testing.T) {
	a, b := New(1, 10), New(2, 0)
	a.Transfer(b, 5)
	if a.balance != 5 || b.balance != 5 {
		t.Fatalf("balances %d, %d", a.balance, b.balance)
	}
}
