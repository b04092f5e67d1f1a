// Package writeloops holds connections whose write loop starts before the
// connection is set up: the loop reads the connection only for what is
// queued on its outbound channel, and nothing can queue anything until
// the connection is published.
package writeloops

import "sync"

type packet struct{ body string }

type Conn struct {
	ID       string
	Greeting string
	Owner    string
	outbound chan *packet
	done     chan struct{}
	sent     int
}

func newConn() *Conn {
	return &Conn{outbound: make(chan *packet, 8), done: make(chan struct{})}
}

// writeLoop reads c.ID only once a packet arrives.
func (c *Conn) writeLoop() {
	for {
		select {
		case p := <-c.outbound:
			println(c.ID, p.body)
			println(c.Greeting) // want `possible data race: \(writeloops.Conn\).Greeting is read by goroutine \(\*writeloops.Conn\).writeLoop and written by \(\*writeloops.Server\).AcceptGreeted`
			println(c.Owner)    // want `possible data race: \(writeloops.Conn\).Owner is read by goroutine \(\*writeloops.Conn\).writeLoop and written by \(\*writeloops.Server\).AcceptShared`
		case <-c.done:
			return
		}
	}
}

// pollLoop reads c.ID on every round, before any packet.
func (c *Conn) pollLoop() {
	for {
		println(c.ID) // want `possible data race: \(writeloops.Conn\).ID is read by goroutine \(\*writeloops.Conn\).pollLoop and written by \(\*writeloops.Server\).attachPolled`
		select {
		case p := <-c.outbound:
			println(p.body)
		case <-c.done:
			return
		}
	}
}

type Server struct {
	mu      sync.Mutex
	clients map[string]*Conn
}

// Accept makes the connection and attaches it.
func (s *Server) Accept(id string) {
	s.attach(newConn(), id)
}

// attach starts the write loop, then names the connection: only
// publishing it lets anyone queue a packet.
func (s *Server) attach(c *Conn, id string) {
	go c.writeLoop()
	c.setID(id)
	s.mu.Lock()
	s.clients[c.ID] = c
	s.mu.Unlock()
}

func (c *Conn) setID(id string) { c.ID = id }

// AcceptPolled does the same for a loop that does not wait for a packet.
func (s *Server) AcceptPolled(id string) {
	s.attachPolled(newConn(), id)
}

func (s *Server) attachPolled(c *Conn, id string) {
	go c.pollLoop()
	c.ID = id
	s.mu.Lock()
	s.clients[c.ID] = c
	s.mu.Unlock()
}

// AcceptGreeted queues a greeting before it names the connection.
func (s *Server) AcceptGreeted(id string) {
	c := newConn()
	go c.writeLoop()
	c.outbound <- &packet{body: "hello"}
	c.Greeting = id
	s.mu.Lock()
	s.clients[c.ID] = c
	s.mu.Unlock()
}

// AcceptShared publishes the connection before it names it.
func (s *Server) AcceptShared(id string) {
	c := newConn()
	go c.writeLoop()
	s.register(c)
	c.Owner = id
}

func (s *Server) register(c *Conn) {
	s.mu.Lock()
	s.clients["pending"] = c
	s.mu.Unlock()
}

// Send queues a packet on a published connection.
func (s *Server) Send(id, body string) {
	s.mu.Lock()
	c := s.clients[id]
	s.mu.Unlock()
	if c != nil {
		c.outbound <- &packet{body: body}
	}
}
