// Package cells has methods whose receiver a function literal captures:
// Go keeps the receiver in a cell, which holds the caller's value, not
// memory the method made.
package cells

import "sync"

// A Conn's IsAsync is called by Close on the connection Close was
// called on, which a callback captures: not a value the package is still
// building, so IsAsync is no setup method, and other packages may call
// it while the flusher runs.
type Conn struct {
	mu    sync.Mutex
	queue []int
	after func()
}

func (c *Conn) IsAsync() bool {
	return c.queue != nil
}

func (c *Conn) Close() {
	c.after = func() { c.flush() }
	if c.IsAsync() {
		c.after()
	}
}

// Start runs the flusher.
func (c *Conn) Start() {
	go c.flushLoop()
}

func (c *Conn) flushLoop() {
	for {
		c.flush()
	}
}

func (c *Conn) flush() {
	c.mu.Lock()
	c.queue = c.queue[:0] // want `\(cells.Conn\).queue is written by goroutine \(\*cells.Conn\).flushLoop and read by \(\*cells.Conn\).IsAsync \(callable while the goroutine runs\)`
	c.mu.Unlock()
}
