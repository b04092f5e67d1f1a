// Package c holds locks that are not package sync's: channels of
// capacity 1 used as mutexes, and atomic flags used as try-locks.
package c

import (
	"context"
	"errors"
	"sync/atomic"
)

func probe() {}

// Mu is a mutex built from a channel of capacity 1 (coder/websocket).
type Mu struct {
	closed chan struct{}
	ch     chan struct{}
}

func NewMu() *Mu { return &Mu{closed: make(chan struct{}), ch: make(chan struct{}, 1)} }

func (m *Mu) ForceLock() { m.ch <- struct{}{} }

func (m *Mu) TryLock() bool {
	select {
	case m.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

// Lock returns nil only where its send won.
func (m *Mu) Lock(ctx context.Context) error {
	select {
	case <-m.closed:
		return errors.New("closed")
	case <-ctx.Done():
		return ctx.Err()
	case m.ch <- struct{}{}:
		select {
		case <-m.closed:
			m.Unlock()
			return errors.New("closed")
		default:
		}
		probe() // want `held: \(c.Mu\).ch`
		return nil
	}
}

func (m *Mu) Unlock() {
	select {
	case <-m.ch:
	default:
	}
}

// Relay passes its callee's conditional acquisition on.
func (m *Mu) Relay(ctx context.Context) error { return m.Lock(ctx) }

type Writer struct {
	mu *Mu
	n  int
}

func (w *Writer) reset(ctx context.Context) error {
	err := w.mu.Lock(ctx)
	if err != nil {
		probe() // want `held: $`
		return err
	}
	probe() // want `held: \(c.Mu\).ch`
	return nil
}

func (w *Writer) Write(ctx context.Context) error {
	if err := w.reset(ctx); err != nil {
		return err
	}
	defer w.mu.Unlock()
	probe() // want `held: \(c.Mu\).ch`
	return nil
}

func (w *Writer) Relayed(ctx context.Context) error {
	if err := w.mu.Relay(ctx); err == nil {
		probe() // want `held: \(c.Mu\).ch`
		w.mu.Unlock()
	}
	probe() // want `held: $`
	return nil
}

func (w *Writer) Try() {
	if w.mu.TryLock() {
		probe() // want `held: \(c.Mu\).ch`
		w.mu.Unlock()
	}
	probe() // want `held: $`
	w.mu.ForceLock()
	probe() // want `held: \(c.Mu\).ch`
	w.mu.Unlock()
	probe() // want `held: $`
}

// sem has the same code with capacity 2: a semaphore, not a mutex.
type sem struct{ ch chan struct{} }

func newSem() *sem { return &sem{ch: make(chan struct{}, 2)} }

func (s *sem) run() {
	s.ch <- struct{}{}
	probe() // want `held: $`
	<-s.ch
}

// notifier's channel is a coalescing signal: no function sends on it
// and then receives.
type notifier struct{ notify chan struct{} }

func newNotifier() *notifier { return &notifier{notify: make(chan struct{}, 1)} }

func (n *notifier) kick() {
	select {
	case n.notify <- struct{}{}:
		probe() // want `held: $`
	default:
	}
}

func (n *notifier) work() {
	for {
		<-n.notify
		probe() // want `held: $`
	}
}

// closing's channel is closed: not a mutex.
type closing struct{ ch chan struct{} }

func newClosing() *closing { return &closing{ch: make(chan struct{}, 1)} }

func (c *closing) use() {
	c.ch <- struct{}{}
	probe() // want `held: $`
	<-c.ch
	close(c.ch)
}

// Tree runs a batch under a flag taken by compare-and-swap, released by
// storing 0 back, possibly by the goroutine it hands the batch to.
type Tree struct {
	running uint64
	n       int
}

func (t *Tree) CheckAndRun() {
	if atomic.CompareAndSwapUint64(&t.running, 0, 1) {
		probe() // want `held: \(c.Tree\).running`
		if t.n > 8 {
			go t.run()
			probe() // want `held: $`
			return
		}
		t.reset()
		probe() // want `held: $`
	}
	probe() // want `held: $`
}

func (t *Tree) run() {
	probe() // want `held: \(c.Tree\).running \[assumed \(c.Tree\).running\]`
	t.reset()
}

func (t *Tree) reset() { atomic.StoreUint64(&t.running, 0) }

// TryRun returns the compare-and-swap's result: held where it is true.
func (t *Tree) TryRun() bool { return atomic.CompareAndSwapUint64(&t.running, 0, 1) }

func (t *Tree) Spin() {
	for !t.TryRun() {
	}
	probe() // want `held: \(c.Tree\).running`
	t.reset()
}

// Gate is a flag of sync/atomic's Bool type.
type Gate struct{ busy atomic.Bool }

func (g *Gate) Do() {
	if !g.busy.CompareAndSwap(false, true) {
		probe() // want `held: $`
		return
	}
	probe() // want `held: \(c.Gate\).busy`
	defer g.busy.Store(false)
}

// state moves between three values: a state machine, not a flag.
type machine struct{ state int32 }

func (m *machine) start() {
	if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
		probe() // want `held: $`
	}
	if atomic.CompareAndSwapInt32(&m.state, 1, 2) {
		probe() // want `held: $`
	}
	atomic.StoreInt32(&m.state, 0)
}

// once's flag is never stored back: nothing releases it.
type once struct{ done uint32 }

func (o *once) do() {
	if atomic.CompareAndSwapUint32(&o.done, 0, 1) {
		probe() // want `held: $`
	}
}

// Conn's opened flag is a state Open moves to and Close moves back from:
// Close, which the package's users call without holding it, does not run
// holding it, and Open's callers do not hold it where it returns nil.
type Conn struct{ opened atomic.Bool }

func (c *Conn) Open() error {
	if !c.opened.CompareAndSwap(false, true) {
		return errors.New("already open")
	}
	probe() // want `held: \(c.Conn\).opened`
	return nil
}

func (c *Conn) Close() {
	probe() // want `held: $`
	c.opened.Store(false)
}

func (c *Conn) reopen() {
	c.Close()
	if err := c.Open(); err != nil {
		return
	}
	probe() // want `held: $`
}
