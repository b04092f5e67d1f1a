package basic

import "testing"

func TestTricky(t *testing.T) {
	in, out := make(chan int, 4), make(chan int, 1)
	in <- 7 // consumed by go record(...)
	got := Tricky(in, out)
	// i=0: sends 0, receives 0 into m["k"]; i=1: sends 10, receives it,
	// continue; i=2: sends 20, receives 20 into m["k"]; then go adds 20+len.
	if len(got) != 2 || got[0] != 7 || got[1] != 20+1 {
		t.Errorf("got %v", got)
	}
}
