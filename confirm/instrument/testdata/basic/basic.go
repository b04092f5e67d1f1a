// Package basic exercises every construct the instrumenter rewrites.
package basic

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Account embeds its mutex.
type Account struct {
	sync.Mutex
	balance int
}

// Deposit locks through the embedded mutex.
func (a *Account) Deposit(n int) {
	a.Lock()
	defer a.Unlock()
	a.balance += n
}

// Balance reads under the lock, through a method value.
func (a *Account) Balance() int {
	lock, unlock := a.Lock, a.Unlock
	lock()
	defer unlock()
	return a.balance
}

// Counter counts with a RWMutex and an atomic.
type Counter struct {
	mu   sync.RWMutex
	n    int
	hits atomic.Int64
	old  int64
}

// Inc increments.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	c.hits.Add(1)
	atomic.AddInt64(&c.old, 1)
}

// Get reads.
func (c *Counter) Get() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.n
}

// WithLocker locks any Locker.
func WithLocker(l sync.Locker, f func()) {
	l.Lock()
	defer l.Unlock()
	f()
}

var total int

// Sum adds up a channel with range, labels and continue.
func Sum(ch <-chan int, stop int) int {
	s := 0
outer:
	for v := range ch {
		if v < 0 {
			continue outer
		}
		if v == stop {
			break outer
		}
		s += v
	}
	total = s
	return s
}

// Drain counts what is left in ch.
func Drain(ch chan int) (n int) {
	for range ch {
		n++
	}
	return n
}

// First returns the first of two channels to deliver, or a timeout.
func First(a, b <-chan string, d time.Duration) (string, error) {
	select {
	case s := <-a:
		return "a:" + s, nil
	case s, ok := <-b:
		if !ok {
			return "", errors.New("b closed")
		}
		return "b:" + s, nil
	case <-time.After(d):
		return "", errors.New("timeout")
	}
}

// TryPut sends without blocking.
func TryPut(ch chan<- int, v int) bool {
	select {
	case ch <- v:
		return true
	default:
		return false
	}
}

// Loop uses labelled break and continue inside a select inside a for.
func Loop(in <-chan int, quit <-chan struct{}) (evens int) {
	var errc chan error
loop:
	for {
	sel:
		select {
		case v, ok := <-in:
			if !ok {
				break loop
			}
			if v%2 == 1 {
				continue loop
			}
			if v == 100 {
				break sel
			}
			evens++
		case <-quit:
			break loop
		case err := <-errc: // nil channel: never ready
			panic(err)
		}
	}
	return evens
}

// Forever blocks; a function ending in select {} needs no return.
func Forever() int {
	select {}
}

// Pair is generic.
func Pair[T any](a, b T, out chan<- [2]T) { out <- [2]T{a, b} }

type worker struct{ out chan int }

func (w *worker) run(n int) { w.out <- n * 10 }

// Spawn starts goroutines in every form the rewrite handles.
func Spawn() []int {
	out := make(chan int, 10)
	pairs := make(chan [2]int, 1)
	w := &worker{out: out}
	var wg sync.WaitGroup
	wg.Add(3)
	go func(n int) { defer wg.Done(); out <- n }(1)
	go func() { defer wg.Done(); w.run(2) }()
	f := w.run
	go f(3)
	go w.run(4)
	go Pair[int](5, 6, pairs)
	go Pair(7, 8, pairs)
	go wg.Done()
	wg.Wait()
	var got []int
	for len(got) < 4 {
		got = append(got, <-out)
	}
	p := <-pairs
	q := <-pairs
	done := make(chan struct{})
	go close(done)
	<-done
	var once sync.Once
	once.Do(func() { got = append(got, p[0]+p[1]+q[0]+q[1]) })
	return got
}

// Errs sends a concrete value on an interface channel.
func Errs() error {
	ch := make(chan error, 1)
	ch <- errors.New("x")
	var e *myErr
	ch2 := make(chan error, 1)
	ch2 <- e
	return <-ch
}

type myErr struct{}

func (*myErr) Error() string { return "my" }

// Jobs is a named channel type.
type Jobs chan int

// NewJobs makes a named channel.
func NewJobs() Jobs { return make(Jobs, 2) }

// Cond waits on a condition.
func Cond() int {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := 0
	go func() {
		mu.Lock()
		ready = 1
		mu.Unlock()
		c.Broadcast()
	}()
	mu.Lock()
	for ready == 0 {
		c.Wait()
	}
	mu.Unlock()
	time.Sleep(time.Millisecond)
	return ready
}

// Bank indexes accounts.
type Bank struct{ accts []Account }

// Credit credits account i.
func (b *Bank) Credit(i, n int) { b.accts[i+1-1].balance += n }
