// Package dialed keeps connections a user's Dial function makes; the
// package's own Conn, which wraps a pooled connection, is handed to the
// user and never dialed.
package dialed

import "sync"

// A Conn is a connection.
type Conn interface {
	Send(cmd string) error
	Close() error
}

// A Pool hands out connections made by Dial.
type Pool struct {
	Dial func() (Conn, error)

	mu     sync.Mutex
	idle   *pooled
	closed bool
}

type pooled struct {
	c    Conn
	next *pooled
}

// Get returns a connection of the pool.
func (p *Pool) Get() Conn {
	p.mu.Lock()
	pc := p.idle
	if pc != nil {
		p.idle = pc.next
	}
	p.mu.Unlock()
	if pc == nil {
		c, err := p.Dial()
		if err != nil {
			return nil
		}
		pc = &pooled{c: c}
	}
	return &active{p: p, pc: pc}
}

func (p *Pool) put(pc *pooled) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		pc.c.Close()
		return
	}
	pc.next = p.idle
	p.idle = pc
	p.mu.Unlock()
}

// Close closes the idle connections. The list is detached under the
// lock: walking it afterwards races with nothing.
func (p *Pool) Close() {
	p.mu.Lock()
	pc := p.idle
	p.idle = nil
	p.closed = true
	p.mu.Unlock()
	for ; pc != nil; pc = pc.next {
		pc.c.Close()
	}
}

// Ping sends on the first idle connection twice at once. The
// connections are dialed, never the package's active ones.
func (p *Pool) Ping() {
	p.mu.Lock()
	pc := p.idle
	p.mu.Unlock()
	if pc != nil {
		go pc.c.Send("PING")
		pc.c.Send("PING")
	}
}

// Drain closes the idle connections but leaves them on the list.
func (p *Pool) Drain() {
	p.mu.Lock()
	pc := p.idle
	p.mu.Unlock()
	for ; pc != nil; pc = pc.next { // want `possible data race: \(\*dialed.Pool\).Drain reads \(dialed.pooled\).next without holding \(dialed.Pool\).mu`
		pc.c.Close()
	}
}

// active is the connection Get hands out: its methods send on the
// dialed connection, which is never an active one.
type active struct {
	p     *Pool
	pc    *pooled
	state int
}

func (a *active) Send(cmd string) error {
	a.state++
	return a.pc.c.Send(cmd)
}

func (a *active) Close() error {
	pc := a.pc
	if pc == nil {
		return nil
	}
	a.pc = nil
	a.state = 0
	pc.c.Send("RESET")
	a.p.put(pc)
	return nil
}
