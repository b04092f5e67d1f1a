package bank

import "testing"

func TestDeposit(t *testing.T) {
	var a Account
	a.Deposit(1)
}

func TestDeep(t *testing.T) {
	var a Account
	depositTwice(&a)
}

func TestBoth(t *testing.T) {
	var a Account
	a.Deposit(2)
	a.Withdraw(1)
}

func TestNothing(t *testing.T) {
	if 1+1 != 2 {
		t.Fatal("math")
	}
}

func TestSub(t *testing.T) {
	t.Run("withdraw", func(t *testing.T) {
		var a Account
		a.Withdraw(1)
	})
}

func TestGo(t *testing.T) {
	var a, b Account
	done := make(chan bool)
	go worker(&a, &b, done)
	<-done
}

func TestIface(t *testing.T) {
	save(&memStore{})
}

func helperNotATest(t *testing.T) {}

func TestTotal(t *testing.T) {
	if Total([]int{1, 2}) != 3 {
		t.Fatal("sum")
	}
}
