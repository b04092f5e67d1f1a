package bank

import "testing"

func TestDeadlock(t *testing.T) {
	if got := Run(&Account{bal: 5}, &Account{bal: 5}, Transfer); got != 10 {
		t.Errorf("total %d", got)
	}
}

func TestOrdered(t *testing.T) {
	a, b := &Account{bal: 5}, &Account{bal: 5}
	order := func(x, y *Account, n int) {
		if x == a {
			Ordered(x, y, n)
		} else {
			Ordered(y, x, -n)
		}
	}
	if got := Run(a, b, order); got != 10 {
		t.Errorf("total %d", got)
	}
}

func TestRace(t *testing.T) {
	var h Hits
	done := make(chan bool)
	go func() { h.Inc(); done <- true }()
	h.Inc()
	<-done
}

func TestSubtestRace(t *testing.T) {
	for _, name := range []string{"a", "b"} {
		t.Run(name, func(t *testing.T) {
			var h Hits
			done := make(chan bool)
			go func() { h.Inc(); done <- true }()
			h.Inc()
			<-done
		})
	}
}
