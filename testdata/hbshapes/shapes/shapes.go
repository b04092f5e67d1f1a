// Package shapes holds happens-before shapes that `go test -race` finds
// clean: each function runs two goroutines whose accesses to a shared
// field are ordered by one kind of synchronization. A tool that records
// an access before the synchronization that orders it, or that does not
// see the synchronization, reports a race that is not there.
package shapes

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/semaphore"

	"example.com/hbshapes/spin"
)

// State is the shared memory.
type State struct {
	v, n int
	err  error
}

// Handoff writes s.v in a goroutine and then in the caller, after a
// receive that the goroutine's send orders after its write.
func Handoff(s *State) int {
	ch := make(chan int)
	go func() { s.v = 1; ch <- 2 }()
	s.v = <-ch
	return s.v
}

// waitAndGet waits for done and returns 3.
func waitAndGet(done chan struct{}) int {
	<-done
	return 3
}

// CallResult assigns the result of a call that blocks until the other
// goroutine's write is done.
func CallResult(s *State) int {
	done := make(chan struct{})
	go func() { s.v = 1; close(done) }()
	s.v = waitAndGet(done)
	return s.v
}

// A pool of one resource, a token in a channel.
type pool chan struct{}

func (p pool) acquire() (int, error) { <-p; return 1, nil }
func (p pool) release()              { p <- struct{}{} }

// MultiValue assigns two values from a call that blocks until the other
// goroutine released the pool of size 1.
func MultiValue(s *State) {
	p := make(pool, 1)
	p.release()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.v, s.err = p.acquire()
			s.n++
			p.release()
		}()
	}
	wg.Wait()
}

// SpinLock guards s.n with a spin lock of another package.
func SpinLock(s *State) {
	var l spin.Lock
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Lock()
			s.n++
			l.Unlock()
		}()
	}
	wg.Wait()
}

// Publish publishes s.v with an atomic flag.
func Publish(s *State) int {
	var ready atomic.Bool
	go func() { s.v = 42; ready.Store(true) }()
	for !ready.Load() {
	}
	return s.v
}

// Once initializes s.v once for two goroutines.
func Once(s *State) {
	var once sync.Once
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			once.Do(func() { s.v = 7 })
			_ = s.v
		}()
	}
	wg.Wait()
}

// Locker guards s.n with a mutex reached through a sync.Locker.
func Locker(s *State) {
	var mu sync.Mutex
	var l sync.Locker = &mu
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l.Lock()
			s.n++
			l.Unlock()
		}()
	}
	wg.Wait()
}

// Cond hands s.v over under a condition variable.
func Cond(s *State) int {
	var mu sync.Mutex
	c := sync.NewCond(&mu)
	ready := false
	go func() {
		s.v = 5
		mu.Lock()
		ready = true
		c.Signal()
		mu.Unlock()
	}()
	mu.Lock()
	for !ready {
		c.Wait()
	}
	mu.Unlock()
	return s.v
}

// WaitGroup reads s.v after waiting for its writer.
func WaitGroup(s *State) int {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { s.v = 9; wg.Done() }()
	wg.Wait()
	return s.v
}

// Close reads s.v after the close of a channel by its writer.
func Close(s *State) int {
	done := make(chan struct{})
	go func() { s.v = 11; close(done) }()
	<-done
	return s.v
}

// Cancel reads s.v after its writer cancelled the context it waits on.
func Cancel(s *State) int {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { s.v = 13; cancel() }()
	<-ctx.Done()
	return s.v
}

// Map publishes s.v through a sync.Map, whose Store synchronizes before
// the Load that observes it.
func Map(s *State) int {
	var m sync.Map
	go func() { s.v = 17; m.Store("v", true) }()
	for {
		if _, ok := m.Load("v"); ok {
			return s.v
		}
		runtime.Gosched()
	}
}

// Semaphore guards s.n with a semaphore of another module used as a lock.
func Semaphore(s *State) {
	sem := semaphore.NewWeighted(1)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = sem.Acquire(context.Background(), 1)
			s.n++
			sem.Release(1)
		}()
	}
	wg.Wait()
}
