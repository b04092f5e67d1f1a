package lines

import "testing"

func TestErrorf(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1
	select {
	case <-ch:
	}
	go func() {}()
	t.Errorf("reported here") // LINE:errorf
}

func TestPanic(t *testing.T) {
	ch := make(chan int, 1)
	ch <- 1
	Boom(ch)
}

func TestSelectPanic(t *testing.T) {
	SelectBoom(5)
}

func TestGoPanic(t *testing.T) {
	GoBoom(make(chan bool))
}
