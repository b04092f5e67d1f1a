package goroutines

import (
	"context"
	"sync"
)

// An Engine's Shutdown runs Stop in a goroutine and waits for it, or for
// its context: the goroutine runs within Shutdown's call, and Start's
// writes are not paired with it. Silent.
type Engine struct {
	mu      sync.Mutex
	pollers []int
	conns   int
}

// Conns returns the number of connections.
func (e *Engine) Conns() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.conns
}

// Start makes the pollers.
func (e *Engine) Start() {
	e.pollers = make([]int, 4)
}

// Stop stops the pollers.
func (e *Engine) Stop() {
	for i := range e.pollers {
		e.pollers[i] = 0
	}
}

// Shutdown stops the engine within ctx.
func (e *Engine) Shutdown(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		e.Stop()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A Reactor's Shutdown leaves Stop running: a Start called then races
// with it.
type Reactor struct {
	pollers []int
}

// Start makes the pollers.
func (r *Reactor) Start() {
	r.pollers = make([]int, 4)
}

// Stop stops the pollers.
func (r *Reactor) Stop() {
	for i := range r.pollers { // want `possible data race: \(goroutines.Reactor\).pollers is read by goroutine \(\*goroutines.Reactor\).Stop and written by \(\*goroutines.Reactor\).Start \(callable while the goroutine runs\)`
		r.pollers[i] = 0
	}
}

// Shutdown stops the reactor in the background.
func (r *Reactor) Shutdown() {
	go r.Stop()
}

// A Channel's loop, which Open runs in a goroutine, waits for its send
// goroutine each round; the loop runs all along, and so do the send
// goroutines it starts: SetLogger races with them.
type Channel struct {
	mu     sync.Mutex
	logger func(string)
	sent   int
}

// SetLogger sets the logger.
func (s *Channel) SetLogger(l func(string)) {
	s.logger = l
}

// Sent returns the number of rounds.
func (s *Channel) Sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sent
}

// Open starts the session.
func (s *Channel) Open() {
	go func() {
		s.loop()
	}()
}

func (s *Channel) loop() {
	for i := 0; i < 3; i++ {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.logger("send") // want `possible data race: \(goroutines.Channel\).logger is read by goroutine \(\*goroutines.Channel\).loop\$1 and written by \(\*goroutines.Channel\).SetLogger \(callable while the goroutine runs\)`
		}()
		wg.Wait()
		s.mu.Lock()
		s.sent++
		s.mu.Unlock()
	}
}

// A Stream's compression is set by NewStream on the stream it builds,
// before anything starts its keepalive: other packages are taken to call
// the setter so too. Silent.
type Stream struct {
	compress bool
	remote   bool
}

func NewStream(remote bool) *Stream {
	s := &Stream{remote: remote}
	s.EnableCompression(remote)
	return s
}

// EnableCompression turns compression on where the peer allows it.
func (s *Stream) EnableCompression(on bool) {
	if !on || s.remote {
		s.compress = on
	}
}

// Keepalive pings from a goroutine of its own.
func (s *Stream) Keepalive() {
	go s.ping()
}

func (s *Stream) ping() {
	if s.compress {
		println("ping")
	}
}
