package app

import (
	"testing"

	"example.com/dep"
)

func TestInc(t *testing.T) {
	var s S
	done := make(chan bool)
	go func() { s.Inc(); done <- true }()
	s.Inc()
	<-done
	if s.n != 4 {
		t.Fatal(s.n)
	}
	var x T
	x.Set()
}

func TestFresh(t *testing.T) { Fresh() }

func TestLockGuarded(t *testing.T) {
	var g dep.Guarded
	LockGuarded(&g)
}
