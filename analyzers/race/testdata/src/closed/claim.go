package closed

import (
	"errors"
	"sync"
)

var errConnClosed = errors.New("closed")

// A Conn's Close claims it: it sets closed holding mu since it found it
// clear, and only then drops the buffer without the lock. Write and
// Flush touch the buffer only holding mu since they found closed clear,
// so they come before the claim: silent.
type Conn struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

// Close closes the connection once.
func (c *Conn) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	c.mu.Unlock()
	c.release()
	return nil
}

func (c *Conn) release() {
	c.buf = nil
}

// Write buffers b.
func (c *Conn) Write(b []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return errConnClosed
	}
	c.buf = append(c.buf, b...)
	return nil
}

// Flush empties the buffer.
func (c *Conn) Flush() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return 0
	}
	n := len(c.buf)
	c.buf = c.buf[:0]
	return n
}

// A Pipe's Close claims it the same way, but Reset empties the buffer
// under the lock without checking closed, after the claim as well as
// before: the release races with it.
type Pipe struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

// Close closes the pipe once.
func (p *Pipe) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	p.mu.Unlock()
	p.release()
}

func (p *Pipe) release() {
	p.buf = nil // want `possible data race: \(\*closed.Pipe\).release writes \(closed.Pipe\).buf without holding \(closed.Pipe\).mu; \(\*closed.Pipe\).Reset writes it holding`
}

// Write buffers b.
func (p *Pipe) Write(b []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	p.buf = append(p.buf, b...)
}

// Reset empties the buffer.
func (p *Pipe) Reset() {
	p.mu.Lock()
	p.buf = p.buf[:0]
	p.mu.Unlock()
}

// A Sink sets closed under its lock without checking it first: two
// Closes can run the release at once, and Len reads the buffer under the
// lock without checking closed: reported.
type Sink struct {
	mu     sync.Mutex
	closed bool
	buf    []byte
}

// Close closes the sink.
func (s *Sink) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.buf = nil // want `possible data race: \(\*closed.Sink\).Close writes \(closed.Sink\).buf without holding \(closed.Sink\).mu`
}

// Write buffers b.
func (s *Sink) Write(b []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.buf = append(s.buf, b...)
}

// Len returns the buffered length.
func (s *Sink) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.buf)
}
