// Package chanlocks holds the fixtures for locks that are not package
// sync's: a channel of capacity 1 used as a mutex (coder/websocket's mu)
// and an atomic flag taken by compare-and-swap (go-datastructures'
// palm tree), each beside a twin without the exclusion, still reported.
package chanlocks

import (
	"context"
	"errors"
	"sync/atomic"
)

// mu is a mutex built from a channel of capacity 1: a send locks it, a
// receive unlocks it.
type mu struct {
	closed chan struct{}
	ch     chan struct{}
}

func newMu(closed chan struct{}) *mu {
	return &mu{closed: closed, ch: make(chan struct{}, 1)}
}

func (m *mu) forceLock() { m.ch <- struct{}{} }

func (m *mu) tryLock() bool {
	select {
	case m.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

// lock returns nil only where its send won: it holds the lock then.
func (m *mu) lock(ctx context.Context) error {
	select {
	case <-m.closed:
		return errors.New("closed")
	case <-ctx.Done():
		return ctx.Err()
	case m.ch <- struct{}{}:
		select {
		case <-m.closed:
			m.unlock()
			return errors.New("closed")
		default:
		}
		return nil
	}
}

func (m *mu) unlock() {
	select {
	case <-m.ch:
	default:
	}
}

// Conn writes its messages under its channel mutex.
type Conn struct {
	closed chan struct{}
	mu     *mu
	opcode int
	count  int
	flags  int
	last   int
}

func NewConn() *Conn {
	c := &Conn{closed: make(chan struct{})}
	c.mu = newMu(c.closed)
	return c
}

func (c *Conn) reset(ctx context.Context, op int) error {
	err := c.mu.lock(ctx)
	if err != nil {
		return err
	}
	c.opcode = op
	return nil
}

func (c *Conn) Write(ctx context.Context, op int) error {
	if err := c.reset(ctx, op); err != nil {
		return err
	}
	defer c.mu.unlock()
	c.count += c.opcode
	return nil
}

func (c *Conn) TryWrite() bool {
	if !c.mu.tryLock() {
		return false
	}
	c.flags++
	c.mu.unlock()
	return true
}

func (c *Conn) Close() {
	c.mu.forceLock()
	c.flags = 0
	c.mu.unlock()
}

// ConcurrentWrites writes from many goroutines: the channel mutex
// excludes them from one another (coder/websocket's concurrentWrite
// test).
func ConcurrentWrites(ctx context.Context, c *Conn) {
	for i := 0; i < 10; i++ {
		go func() {
			_ = c.Write(ctx, i)
			c.TryWrite()
			c.Close()
		}()
	}
}

// WriteAfterUnlock: the same mutex, released before the write.
func (c *Conn) WriteAfterUnlock(ctx context.Context) error {
	if err := c.mu.lock(ctx); err != nil {
		return err
	}
	c.mu.unlock()
	c.last++ // want `possible data race: \(chanlocks.Conn\).last is written by goroutine chanlocks.ConcurrentUnlocked\$1 and written by another instance of chanlocks.ConcurrentUnlocked\$1`
	return nil
}

func ConcurrentUnlocked(ctx context.Context, c *Conn) {
	for i := 0; i < 10; i++ {
		go func() { _ = c.WriteAfterUnlock(ctx) }()
	}
}

// sem is the same code with a channel of capacity 2: a semaphore two
// goroutines hold at once.
type sem struct{ ch chan struct{} }

func (s *sem) lock()   { s.ch <- struct{}{} }
func (s *sem) unlock() { <-s.ch }

type Pool struct {
	sem  *sem
	busy int
}

func NewPool() *Pool { return &Pool{sem: &sem{ch: make(chan struct{}, 2)}} }

func (p *Pool) Run() {
	p.sem.lock()
	defer p.sem.unlock()
	p.busy++ // want `possible data race: \(chanlocks.Pool\).busy is written by goroutine chanlocks.ConcurrentRuns\$1 and written by another instance of chanlocks.ConcurrentRuns\$1`
}

func ConcurrentRuns(p *Pool) {
	for i := 0; i < 10; i++ {
		go func() { p.Run() }()
	}
}

// Notifier's channel of capacity 1 is a coalescing signal, not a
// mutex: producers send without waiting, the worker receives; no
// function sends and then receives.
type Notifier struct {
	notify  chan struct{}
	pending int
}

func NewNotifier() *Notifier { return &Notifier{notify: make(chan struct{}, 1)} }

func (n *Notifier) Kick() {
	select {
	case n.notify <- struct{}{}:
		n.pending++ // want `possible data race: \(chanlocks.Notifier\).pending is written by goroutine chanlocks.ConcurrentKicks\$1 and written by another instance of chanlocks.ConcurrentKicks\$1`
	default:
	}
}

func (n *Notifier) Work() {
	for range 3 {
		<-n.notify
	}
}

func ConcurrentKicks(n *Notifier) {
	go n.Work()
	for i := 0; i < 10; i++ {
		go func() { n.Kick() }()
	}
}

// tree runs its batches under a flag taken by compare-and-swap and
// released by storing 0 back, sometimes by the goroutine it hands the
// batch to (go-datastructures' palm tree).
type tree struct {
	running uint64
	cache   []int
	queue   []int
}

func (t *tree) checkAndRun(v int) {
	if atomic.CompareAndSwapUint64(&t.running, 0, 1) {
		t.cache = append(t.cache, v)
		if len(t.cache) > 8 {
			go t.run(t.cache)
			return
		}
		t.reset()
	}
}

func (t *tree) run(batch []int) {
	_ = batch
	t.reset()
}

func (t *tree) reset() {
	t.cache = t.cache[:0]
	atomic.StoreUint64(&t.running, 0)
}

// enqueue appends without taking the flag: the twin of checkAndRun.
func (t *tree) enqueue(v int) {
	if atomic.LoadUint64(&t.running) == 0 {
		t.queue = append(t.queue, v) // want `possible data race: \(chanlocks.tree\).queue is written by goroutine chanlocks.ConcurrentInserts\$1 and written by another instance of chanlocks.ConcurrentInserts\$1` `\(chanlocks.tree\).queue is read by goroutine chanlocks.ConcurrentInserts\$1 and written by another instance`
	}
}

func ConcurrentInserts(t *tree) {
	for i := 0; i < 10; i++ {
		go func() {
			t.checkAndRun(i)
			t.enqueue(i)
		}()
	}
}

// A boolean flag of sync/atomic's own type, taken in a loop.
type gate struct {
	busy  atomic.Bool
	value int
}

func (g *gate) Set(v int) {
	for !g.busy.CompareAndSwap(false, true) {
	}
	g.value = v
	g.busy.Store(false)
}

func ConcurrentSets(g *gate) {
	for i := 0; i < 10; i++ {
		go func() { g.Set(i) }()
	}
}

// A counter updated by compare-and-swap from a value it loaded is no
// flag: its operands are not constants.
type counter struct {
	n    int64
	seen int
}

func (c *counter) Inc() {
	for {
		old := atomic.LoadInt64(&c.n)
		if atomic.CompareAndSwapInt64(&c.n, old, old+1) {
			c.seen++ // want `possible data race: \(chanlocks.counter\).seen is written by goroutine chanlocks.ConcurrentIncs\$1 and written by another instance of chanlocks.ConcurrentIncs\$1`
			return
		}
	}
}

func ConcurrentIncs(c *counter) {
	for i := 0; i < 10; i++ {
		go func() { c.Inc() }()
	}
}
