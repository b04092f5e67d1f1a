// Package closed holds fields published by closing a channel: written
// before close(ch), read only after a receive from ch has returned.
package closed

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

// A Session records why it ended once, then closes done; readers of err
// wait for done first. Every write of err is made only while err is nil,
// under errMu, and Close sets it before closing done: once done is
// closed, err is never written again.
type Session struct {
	mu     sync.Mutex
	closed bool
	errMu  sync.Mutex
	err    error
	done   chan struct{}
	in     chan int
}

func NewSession() *Session {
	return &Session{done: make(chan struct{}), in: make(chan int)}
}

func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.errMu.Lock()
	if s.err == nil {
		s.err = errClosed
	}
	s.errMu.Unlock()
	close(s.done)
	return nil
}

// fail records the first error and closes the session.
func (s *Session) fail(err error) {
	s.errMu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.errMu.Unlock()
	s.Close()
}

// Accept waits for input or for the end of the session.
func (s *Session) Accept() (int, error) {
	select {
	case v := <-s.in:
		return v, nil
	case <-s.done:
		return 0, s.err
	}
}

// Wait waits for the end of the session.
func (s *Session) Wait() error {
	<-s.done
	return s.err
}

// Done returns done to wait on; the caller can only receive from it.
func (s *Session) Done() <-chan struct{} { return s.done }

// Run feeds the session until it fails.
func (s *Session) Run(src func() (int, error)) {
	for {
		v, err := src()
		if err != nil {
			s.fail(err)
			return
		}
		s.in <- v
	}
}

// A Future is computed by a goroutine that closes done when it has
// stored the value; Get waits for done.
type Future struct {
	mu    sync.Mutex
	calls int
	val   int
	done  chan struct{}
}

func (f *Future) Start(compute func() int) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	go func() {
		f.val = compute() // want `\(closed.Future\).val is written by goroutine \(\*closed.Future\).Start\$1 and read by \(\*closed.Future\).Peek`
		close(f.done)
	}()
}

func (f *Future) Get() int {
	<-f.done
	return f.val
}

// Peek does not wait.
func (f *Future) Peek() int {
	return f.val
}

// A Leaky session writes err also where it may already be set (Reset
// clears it), so a reader after done can meet a later write.
type Leaky struct {
	mu   sync.Mutex
	err  error
	done chan struct{}
}

func (l *Leaky) Close() {
	l.mu.Lock()
	if l.err == nil {
		l.err = errClosed
	}
	l.mu.Unlock()
	close(l.done)
}

func (l *Leaky) Reset() {
	l.mu.Lock()
	l.err = nil
	l.mu.Unlock()
}

func (l *Leaky) Err() error {
	<-l.done
	return l.err // want `possible data race: \(\*closed.Leaky\).Err reads \(closed.Leaky\).err without holding \(closed.Leaky\).mu`
}

// A Signalled session also sends on done, so a receive does not mean
// the close happened.
type Signalled struct {
	mu   sync.Mutex
	err  error
	done chan struct{}
}

func (s *Signalled) Close() {
	s.mu.Lock()
	if s.err == nil {
		s.err = errClosed
	}
	s.mu.Unlock()
	close(s.done)
}

func (s *Signalled) Fail(err error) {
	s.mu.Lock()
	if s.err == nil {
		s.err = err
	}
	s.mu.Unlock()
}

func (s *Signalled) Poke() { s.done <- struct{}{} }

func (s *Signalled) Err() error {
	<-s.done
	return s.err // want `possible data race: \(\*closed.Signalled\).Err reads \(closed.Signalled\).err without holding \(closed.Signalled\).mu`
}

// An Early session closes done before it sets err.
type Early struct {
	mu   sync.Mutex
	err  error
	done chan struct{}
}

func (e *Early) Close() {
	close(e.done)
	e.mu.Lock()
	if e.err == nil {
		e.err = errClosed
	}
	e.mu.Unlock()
}

func (e *Early) Fail(err error) {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
}

func (e *Early) Err() error {
	<-e.done
	return e.err // want `possible data race: \(\*closed.Early\).Err reads \(closed.Early\).err without holding \(closed.Early\).mu`
}

// An Exposed session hands its done channel out as a channel callers can
// send on.
type Exposed struct {
	mu   sync.Mutex
	err  error
	done chan struct{}
}

func (e *Exposed) Close() {
	e.mu.Lock()
	if e.err == nil {
		e.err = errClosed
	}
	e.mu.Unlock()
	close(e.done)
}

func (e *Exposed) Fail(err error) {
	e.mu.Lock()
	if e.err == nil {
		e.err = err
	}
	e.mu.Unlock()
}

func (e *Exposed) Done() chan struct{} { return e.done }

func (e *Exposed) Err() error {
	<-e.done
	return e.err // want `possible data race: \(\*closed.Exposed\).Err reads \(closed.Exposed\).err without holding \(closed.Exposed\).mu`
}
