// Package beliefs holds objects that two functions lock around: a weak
// belief that the lock guards them.
package beliefs

import (
	"errors"
	"net"
	"sync"
)

var errTooLarge = errors.New("size too large")

// A Server defaults its settings under the lock as it starts, then
// starts the goroutines that read them. Only the package's own init
// writes them, and a restart finds them set: two functions locking
// around them are too weak a belief for the unlocked reads. Silent.
type Server struct {
	lock    sync.Mutex
	size    int
	onError func(error)
	ln      net.Listener
}

func (s *Server) init() {
	if s.size == 0 {
		s.size = 512
	}
	if s.onError == nil {
		s.onError = func(error) {}
	}
}

// ListenAndServe starts serving on ln.
func (s *Server) ListenAndServe(ln net.Listener) error {
	s.lock.Lock()
	s.init()
	s.ln = ln
	if s.size > 64<<10 {
		s.lock.Unlock()
		return errTooLarge
	}
	s.lock.Unlock()
	return s.serve(ln)
}

// Restart serves again on the listener.
func (s *Server) Restart() error {
	s.lock.Lock()
	s.init()
	ln := s.ln
	s.lock.Unlock()
	return s.serve(ln)
}

func (s *Server) serve(ln net.Listener) error {
	for {
		c, err := ln.Accept()
		if err != nil {
			return err
		}
		go s.handle(c)
	}
}

func (s *Server) handle(c net.Conn) {
	buf := make([]byte, s.size)
	if _, err := c.Read(buf); err != nil {
		s.onError(err)
	}
}

// A Table's exported Set and Reset write under the lock, which callers
// may do at any time: an unlocked read races with them.
type Table struct {
	mu sync.Mutex
	n  int
}

// Set sets n.
func (t *Table) Set(n int) {
	t.mu.Lock()
	t.n = n
	t.mu.Unlock()
}

// Reset clears n.
func (t *Table) Reset() {
	t.mu.Lock()
	t.n = 0
	t.mu.Unlock()
}

// Len reads n without the lock.
func (t *Table) Len() int {
	return t.n // want `possible data race: \(\*beliefs.Table\).Len reads \(beliefs.Table\).n without holding \(beliefs.Table\).mu`
}

// A Sink is written under the lock only by the package's own functions,
// but Drain reads it after releasing the lock it took: the code shows
// it meant to hold the lock there.
type Sink struct {
	mu      sync.Mutex
	pending []int
	notify  func(int)
}

func (k *Sink) setNotify(f func(int)) {
	k.mu.Lock()
	k.notify = f
	k.mu.Unlock()
}

func (k *Sink) clear() {
	k.mu.Lock()
	k.notify = nil
	k.pending = nil
	k.mu.Unlock()
}

// Drain empties the sink and notifies.
func (k *Sink) Drain() {
	k.mu.Lock()
	p := k.pending
	k.pending = nil
	k.mu.Unlock()
	for _, v := range p {
		k.notify(v) // want `possible data race: \(\*beliefs.Sink\).Drain reads \(beliefs.Sink\).notify without holding \(beliefs.Sink\).mu`
	}
}

// A Gauge is written under the lock by the package's own functions, and
// written without it by reset: an unguarded write is reported on any
// belief.
type Gauge struct {
	mu  sync.Mutex
	val int
}

func (g *Gauge) add(d int) {
	g.mu.Lock()
	g.val += d
	g.mu.Unlock()
}

func (g *Gauge) get() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.val
}

func (g *Gauge) reset() {
	g.val = 0 // want `possible data race: \(\*beliefs.Gauge\).reset writes \(beliefs.Gauge\).val without holding \(beliefs.Gauge\).mu`
}

// Use calls the gauge's methods.
func Use(g *Gauge) int {
	g.add(1)
	g.reset()
	return g.get()
}

// Use calls the sink's methods.
func UseSink(k *Sink) {
	k.setNotify(func(int) {})
	k.Drain()
	k.clear()
}
