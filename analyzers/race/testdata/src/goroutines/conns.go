package goroutines

import (
	"net"
	"sync"
)

// An IMAPServer starts one goroutine per accepted connection, each on a
// new IMAPConn: the connection's commands run on it, one at a time, and
// read its caps without the lock the setters take for readers on other
// goroutines (Caps). Silent.
type IMAPServer struct {
	mu    sync.Mutex
	conns int
}

type IMAPConn struct {
	mu     sync.Mutex
	caps   map[string]bool
	server *IMAPServer
	nc     net.Conn
}

func newIMAPConn(nc net.Conn, s *IMAPServer) *IMAPConn {
	return &IMAPConn{caps: map[string]bool{}, server: s, nc: nc}
}

// Serve accepts connections until the listener fails.
func (s *IMAPServer) Serve(l net.Listener) error {
	for {
		nc, err := l.Accept()
		if err != nil {
			return err
		}
		s.addConn()
		go newIMAPConn(nc, s).serve()
	}
}

func (c *IMAPConn) serve() {
	defer func() { c.nc.Close() }() // captures c: go/ssa spills it to a variable
	buf := make([]byte, 1)
	for {
		if _, err := c.nc.Read(buf); err != nil {
			c.reset()
			c.server.dropConn()
			return
		}
		switch buf[0] {
		case 'e':
			c.enable("x")
		case 'd':
			c.disable("x")
		case 's':
			c.search()
		case 'c':
			c.count()
		}
	}
}

func (c *IMAPConn) enable(cap string) {
	c.mu.Lock()
	c.caps[cap] = true
	c.mu.Unlock()
}

func (c *IMAPConn) disable(cap string) {
	c.mu.Lock()
	delete(c.caps, cap)
	c.mu.Unlock()
}

func (c *IMAPConn) reset() {
	c.mu.Lock()
	c.caps = nil
	c.mu.Unlock()
}

// Caps reads the caps from another goroutine, under the lock.
func (c *IMAPConn) Caps() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.caps)
}

func (c *IMAPConn) search() bool {
	return c.caps["x"]
}

// count updates the server's count, which every connection's goroutine
// shares: reported.
func (c *IMAPConn) count() {
	c.server.conns++ // want `possible data race: \(\*goroutines.IMAPConn\).count writes \(goroutines.IMAPServer\).conns without holding \(goroutines.IMAPServer\).mu`
}

func (s *IMAPServer) Conns() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conns
}

func (s *IMAPServer) addConn() {
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
}

func (s *IMAPServer) dropConn() {
	s.mu.Lock()
	s.conns--
	s.mu.Unlock()
}

// A Siphon's goroutines, one per source, all run on the one Siphon that
// StartSiphons made before its loop: they share it, and pump's unlocked
// read races with the others' locked writes.
type Siphon struct {
	mu   sync.Mutex
	seen int
}

func StartSiphons(srcs []chan int) *Siphon {
	p := &Siphon{}
	for _, src := range srcs {
		go p.draw(src)
	}
	return p
}

func (p *Siphon) draw(src chan int) {
	for v := range src {
		if p.seen < v { // want `possible data race: \(\*goroutines.Siphon\).draw reads \(goroutines.Siphon\).seen without holding \(goroutines.Siphon\).mu`
			p.raise(v)
		} else {
			p.lower(v)
		}
	}
	p.clear()
}

func (p *Siphon) raise(v int) {
	p.mu.Lock()
	p.seen = v
	p.mu.Unlock()
}

func (p *Siphon) lower(v int) {
	p.mu.Lock()
	p.seen = v - 1
	p.mu.Unlock()
}

func (p *Siphon) clear() {
	p.mu.Lock()
	p.seen = 0 // want `possible data race: \(goroutines.Siphon\).seen is written by goroutine \(\*goroutines.Siphon\).draw and read by another instance of \(\*goroutines.Siphon\).draw`
	p.mu.Unlock()
}
