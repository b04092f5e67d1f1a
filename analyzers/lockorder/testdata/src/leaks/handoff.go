package leaks

import "sync"

// A Committer holds its commit lock until the commit it starts is done:
// Commit locks, then hands a callback that unlocks (in a deferred call)
// to send, which queues it for the loop that makes the commits.
// The lock is released by the callback, not leaked on the early return.
// Silent.
type Committer struct {
	commitMu sync.Mutex
	pending  []int
	requests chan commitRequest
}

type commitRequest struct {
	offsets []int
	done    func(error)
}

func (c *Committer) Commit(offsets []int, onDone func(error)) {
	done := make(chan struct{})
	defer func() { <-done }()
	if len(offsets) == 0 {
		onDone(nil)
		close(done)
		return
	}
	c.commitMu.Lock()
	unblock := func(err error) {
		defer close(done)
		defer c.commitMu.Unlock()
		onDone(err)
	}
	count := func(err error) {
		unblock(err)
		c.pending = c.pending[:0]
	}
	c.send(offsets, count)
}

func (c *Committer) send(offsets []int, done func(error)) {
	c.requests <- commitRequest{offsets, done}
}

func (c *Committer) loop() {
	for r := range c.requests {
		r.done(nil)
	}
}

// A Flusher's callback unlocks nothing: the flush lock leaks on the path
// that takes it.
type Flusher struct {
	flushMu sync.Mutex
}

func (f *Flusher) Flush(n int, onDone func(error)) {
	if n == 0 {
		onDone(nil)
		return
	}
	f.flushMu.Lock() // want `lock leak: \(\*leaks.Flusher\).Flush returns with \(leaks.Flusher\).flushMu still held`
	unblock := func(err error) {
		onDone(err)
	}
	f.send(n, unblock)
}

func (f *Flusher) send(n int, done func(error)) {
	go func() { done(nil) }()
}
