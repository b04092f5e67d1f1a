package a

import (
	"sync"
	"sync/atomic"
)

// A Transport's keepalive loop waits, holding the transport's lock, for a
// stream to wake it; the only wake-up is a non-blocking send made under
// the same lock, which cannot be reached while the loop holds it.
type Transport struct {
	mu     sync.Mutex
	active int
	awaken chan struct{}
}

// NewTransport returns a transport.
func NewTransport() *Transport {
	return &Transport{awaken: make(chan struct{})}
}

func (t *Transport) keepalive() {
	t.mu.Lock() // want `lock held across a channel receive: \(\*a.Transport\).keepalive receives from t.awaken holding t.mu`
	if t.active == 0 {
		<-t.awaken
	}
	t.mu.Unlock()
}

// NewStream counts a stream and wakes the keepalive loop.
func (t *Transport) NewStream() {
	t.mu.Lock()
	t.active++
	select {
	case t.awaken <- struct{}{}:
	default:
	}
	t.mu.Unlock()
}

// A Session wakes its loop after counting under the lock: NewStream
// cannot get past its Lock while the loop waits holding it.
type Session struct {
	mu     sync.Mutex
	active int
	awaken chan struct{}
}

// NewSession returns a session.
func NewSession() *Session {
	return &Session{awaken: make(chan struct{})}
}

func (s *Session) keepalive() {
	s.mu.Lock() // want `lock held across a channel receive: \(\*a.Session\).keepalive receives from s.awaken holding s.mu, and every send and close on \(a.Session\).awaken \(\(\*a.Session\).NewStream\) locks \(a.Session\).mu on its way to it`
	if s.active == 0 {
		<-s.awaken
	}
	s.mu.Unlock()
}

// NewStream counts a stream, then wakes the loop.
func (s *Session) NewStream() {
	s.mu.Lock()
	s.active++
	s.mu.Unlock()
	select {
	case s.awaken <- struct{}{}:
	default:
	}
}

// A Conn counts atomically and wakes its loop without the lock. Silent.
type Conn struct {
	mu     sync.Mutex
	active atomic.Int32
	awaken chan struct{}
}

// NewConn returns a connection.
func NewConn() *Conn {
	return &Conn{awaken: make(chan struct{})}
}

func (c *Conn) keepalive() {
	c.mu.Lock()
	if c.active.Load() == 0 {
		<-c.awaken
	}
	c.mu.Unlock()
}

// NewStream counts a stream, then wakes the loop.
func (c *Conn) NewStream() {
	c.active.Add(1)
	select {
	case c.awaken <- struct{}{}:
	default:
	}
}
