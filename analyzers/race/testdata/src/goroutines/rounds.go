package goroutines

import "sync"

// A Session reconnects in a loop: each round starts its receiver and
// waits for it before the next round starts another, so two receivers
// never run at once. Silent.
type Session struct {
	lastID int
	conns  chan int
}

func (s *Session) Loop() {
	for c := range s.conns {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.lastID = c
		}()
		wg.Wait()
	}
}

// A Listener starts a handler per connection without waiting for it:
// the handlers share lastID.
type Listener struct {
	lastID int
	conns  chan int
}

func (l *Listener) Loop() {
	for c := range l.conns {
		go func() {
			l.lastID = c // want `possible data race: \(goroutines.Listener\).lastID is written by goroutine \(\*goroutines.Listener\).Loop\$1 and written by another instance`
		}()
	}
}
