package goroutines

import "sync"

// A socket's writer pool is an interface with several implementations,
// each guarding its own conns with its own mutex (zmq4's wpool: mwriter,
// routerMWriter). The reaper goroutine removes a connection through
// sck.w; Send writes through sck.w too. The conns of two
// implementations are different fields: no pairing across them. Silent.
type wpool interface {
	write(b []byte) error
	rmConn(c int)
}

type fanWriter struct {
	mu    sync.Mutex
	conns []int
}

func (w *fanWriter) write(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for range w.conns {
	}
	return nil
}

func (w *fanWriter) rmConn(c int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.conns = w.conns[:0]
}

type routeWriter struct {
	mu    sync.Mutex
	conns []int
}

func (w *routeWriter) write(b []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	for range w.conns {
	}
	return nil
}

func (w *routeWriter) rmConn(c int) {
	w.conns = w.conns[:0] // want `possible data race: \(goroutines.routeWriter\).conns is written by goroutine \(\*goroutines.Socket\).reap and read by \(\*goroutines.Socket\).Send \(callable while the goroutine runs\)`
}

type Socket struct {
	w    wpool
	dead chan int
}

func NewFanSocket() *Socket {
	return &Socket{w: &fanWriter{}, dead: make(chan int)}
}

func NewRouteSocket() *Socket {
	return &Socket{w: &routeWriter{}, dead: make(chan int)}
}

func (s *Socket) Start() {
	go s.reap()
}

func (s *Socket) reap() {
	for c := range s.dead {
		s.w.rmConn(c)
	}
}

func (s *Socket) Send(b []byte) error {
	return s.w.write(b)
}
