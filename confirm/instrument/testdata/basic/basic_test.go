package basic

import (
	"runtime"
	"testing"
	"time"
)

func TestAccount(t *testing.T) {
	t.Parallel()
	var a Account
	done := make(chan bool)
	for i := 0; i < 4; i++ {
		go func() { a.Deposit(1); done <- true }()
	}
	for i := 0; i < 4; i++ {
		<-done
	}
	if got := a.Balance(); got != 4 {
		t.Errorf("balance %d", got)
	}
	WithLocker(&a, func() {})
	var c Counter
	c.Inc()
	if c.Get() != 1 || c.hits.Load() != 1 {
		t.Error("counter")
	}
	runtime.Gosched()
}

func TestChannels(t *testing.T) {
	ch := make(chan int, 5)
	ch <- 1
	ch <- -1
	ch <- 2
	ch <- 7
	ch <- 3
	if s := Sum(ch, 7); s != 3 {
		t.Errorf("sum %d", s)
	}
	if total != 3 {
		t.Errorf("total %d", total)
	}
	close(ch)
	if n := Drain(ch); n != 1 {
		t.Errorf("drain %d", n)
	}
	a, b := make(chan string, 1), make(chan string)
	a <- "x"
	if s, err := First(a, b, time.Second); s != "a:x" || err != nil {
		t.Errorf("first %q %v", s, err)
	}
	close(b)
	if _, err := First(nil, b, time.Second); err == nil || err.Error() != "b closed" {
		t.Errorf("first closed %v", err)
	}
	if _, err := First(nil, nil, time.Millisecond); err == nil {
		t.Error("no timeout")
	}
	one := make(chan int, 1)
	if !TryPut(one, 1) || TryPut(one, 2) {
		t.Error("tryput")
	}
	if v, ok := <-one; !ok || v != 1 {
		t.Error("recv2")
	}
	in, quit := make(chan int, 10), make(chan struct{})
	for _, v := range []int{2, 3, 4, 100, 6} {
		in <- v
	}
	close(in)
	if n := Loop(in, quit); n != 3 {
		t.Errorf("loop %d", n)
	}
	in2 := make(chan int)
	close(quit)
	if n := Loop(in2, quit); n != 0 {
		t.Errorf("loop quit %d", n)
	}
	j := NewJobs()
	j <- 1
	if cap(j) != 2 || <-j != 1 {
		t.Error("jobs")
	}
	if Errs().Error() != "x" {
		t.Error("errs")
	}
}

func TestSpawn(t *testing.T) {
	got := Spawn()
	sum := 0
	for _, v := range got {
		sum += v
	}
	if len(got) != 5 || sum != 1+20+30+40+26 {
		t.Errorf("spawn %v", got)
	}
	if Cond() != 1 {
		t.Error("cond")
	}
}

func TestSubtests(t *testing.T) {
	for _, n := range []int{1, 2} {
		t.Run("chan", func(t *testing.T) {
			t.Parallel()
			ch := make(chan int, n)
			go func() { ch <- n }()
			if got := <-ch; got != n {
				t.Errorf("got %d", got)
			}
		})
	}
}
