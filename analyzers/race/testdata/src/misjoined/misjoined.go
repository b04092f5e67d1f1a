// Package misjoined holds waits that look like joins and are not: a
// context's Done that closes for other reasons or after the first of
// several cancels, one receive for two goroutines that each end with a
// send, a send that is not the sender's last, and a connection's
// goroutine writing another connection. Each race is reported.
package misjoined

import (
	"context"
	"net"
	"sync"
	"time"
)

func compute() int { return 1 }

// A: WithTimeout's Done fires on the deadline, not only on cancel.
func Timeout() int {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	n := 0
	go func() {
		n = compute() // want `captured variable n`
		cancel()
	}()
	<-ctx.Done()
	return n
}

// A2: the parent may be cancelled by the caller.
func Parent(parent context.Context) int {
	ctx, cancel := context.WithCancel(parent)
	n := 0
	go func() {
		n = compute() // want `captured variable n`
		cancel()
	}()
	<-ctx.Done()
	return n
}

// A3: cancel before the write.
func CancelFirst() int {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	go func() {
		cancel()
		n = compute() // want `captured variable n`
	}()
	<-ctx.Done()
	return n
}

// B: two loops each send on done as their last act; Close receives once.
type batcher struct {
	in      chan int
	stopIn  chan struct{}
	stopOut chan struct{}
	done    chan struct{}
	buf     []int
	sent    int
}

func newBatcher() *batcher {
	b := &batcher{in: make(chan int), stopIn: make(chan struct{}), stopOut: make(chan struct{}), done: make(chan struct{})}
	go b.collect()
	go b.send()
	return b
}

func (b *batcher) collect() {
	for {
		select {
		case v := <-b.in:
			b.buf = append(b.buf, v)
		case <-b.stopIn:
			b.done <- struct{}{}
			return
		}
	}
}

func (b *batcher) send() {
	for {
		select {
		case <-b.in:
			b.sent++
		case <-b.stopOut:
			b.done <- struct{}{}
			return
		}
	}
}

func (b *batcher) Close() int {
	close(b.stopIn)
	<-b.done
	return b.sent // want `\(misjoined.batcher\).sent is read by misjoined.CloseBatcher and written by goroutine \(\*misjoined.batcher\).send`
}

func CloseBatcher() int {
	b := newBatcher()
	b.in <- 1
	return b.Close()
}

// C: a producer whose last act is a send on the channel its consumer
// ranges over: the consumer's first receive is not the producer's exit.
type pipe struct {
	out chan int
	buf []int
}

func (p *pipe) produce() {
	for i := 0; i < 10; i++ {
		p.buf = append(p.buf, i) // want `buf`
		p.out <- i
	}
	p.out <- -1
}

func (p *pipe) consume() int {
	n := 0
	for v := range p.out {
		if v < 0 {
			break
		}
		n += len(p.buf)
	}
	return n
}

func RunPipe() int {
	p := &pipe{out: make(chan int)}
	go p.produce()
	return p.consume()
}

// D: a connection's goroutine writes another connection's field.
type Server struct {
	mu    sync.Mutex
	conns []*Conn
}

type Conn struct {
	mu     sync.Mutex
	unread int
	srv    *Server
	nc     net.Conn
}

func (s *Server) Serve(l net.Listener) error {
	for {
		nc, err := l.Accept()
		if err != nil {
			return err
		}
		c := &Conn{srv: s, nc: nc}
		s.mu.Lock()
		s.conns = append(s.conns, c)
		s.mu.Unlock()
		go c.serve()
	}
}

func (c *Conn) serve() {
	buf := make([]byte, 1)
	for {
		if _, err := c.nc.Read(buf); err != nil {
			return
		}
		switch buf[0] {
		case 'b':
			c.broadcast()
		case 'r':
			c.readAll()
		case 'x':
			c.bump()
		}
	}
}

func (c *Conn) broadcast() {
	c.srv.mu.Lock()
	for _, o := range c.srv.conns {
		o.mu.Lock()
		o.unread++
		o.mu.Unlock()
	}
	c.srv.mu.Unlock()
}

func (c *Conn) bump() {
	c.mu.Lock()
	c.unread++
	c.mu.Unlock()
}

func (c *Conn) readAll() {
	c.unread = 0 // want `unread`
}

// A4: two goroutines share one cancel: Done returns after the first.
func FirstWins() (int, int) {
	ctx, cancel := context.WithCancel(context.Background())
	a, b := 0, 0
	go func() {
		a = compute() // want `captured variable a`
		cancel()
	}()
	go func() {
		b = compute() // want `captured variable b`
		cancel()
	}()
	<-ctx.Done()
	return a, b
}
