// Package flags holds loops whose state the other methods touch directly
// only while a running flag, set under the lock before the loop starts,
// says the loop is not running.
package flags

import "sync"

// Sched stops its loop with an unbuffered send: once Stop returns, the
// loop has returned too, and running is false again.
type Sched struct {
	mu      sync.Mutex
	running bool
	items   []int
	add     chan int
	stop    chan struct{}
}

func New() *Sched {
	return &Sched{add: make(chan int), stop: make(chan struct{}), running: false}
}

func (s *Sched) Add(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		s.items = append(s.items, v)
	} else {
		s.add <- v
	}
}

func (s *Sched) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return
	}
	s.running = true
	go s.loop()
}

func (s *Sched) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		s.stop <- struct{}{}
		s.running = false
	}
}

func (s *Sched) loop() {
	for {
		select {
		case v := <-s.add:
			s.items = append(s.items, v)
		case <-s.stop:
			return
		}
	}
}

// Leaky stops its loop with a send into a buffer: Stop may return, and
// Add write items, while the loop still appends.
type Leaky struct {
	mu      sync.Mutex
	running bool
	items   []int
	add     chan int
	stop    chan struct{}
}

func NewLeaky() *Leaky {
	return &Leaky{add: make(chan int), stop: make(chan struct{}, 1)}
}

func (s *Leaky) Add(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.running {
		s.items = append(s.items, v)
	} else {
		s.add <- v
	}
}

func (s *Leaky) Start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		return
	}
	s.running = true
	go s.loop()
}

func (s *Leaky) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.running {
		s.stop <- struct{}{}
		s.running = false
	}
}

func (s *Leaky) loop() {
	for {
		select {
		case v := <-s.add:
			s.items = append(s.items, v) // want `possible data race: \(flags.Leaky\).items is written by goroutine \(\*flags.Leaky\).loop and read by \(\*flags.Leaky\).Add \(callable while the goroutine runs\)`
		case <-s.stop:
			return
		}
	}
}
