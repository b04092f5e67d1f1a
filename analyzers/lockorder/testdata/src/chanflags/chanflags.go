package chanflags // want package:`orders\{\}`

// Lockorder checks mutexes only. A channel of
// capacity 1 used as a mutex and an atomic flag used as a try-lock are
// locks to the lockset analysis (for the race analyzer), not here: the
// shapes below, reported with sync.Mutex (the twins at the end), are not
// reported with them.

import (
	"context"
	"sync"
	"sync/atomic"
)

type mu struct{ ch chan struct{} }

func newMu() *mu { return &mu{ch: make(chan struct{}, 1)} }

func (m *mu) lock(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case m.ch <- struct{}{}:
		return nil
	}
}

func (m *mu) unlock() { <-m.ch }

type writer struct {
	mu, writeMu *mu
	stats       sync.Mutex
	n           int
}

// The channel mutex and a sync.Mutex taken in both orders: no cycle
// (the channel mutex is not in the lock-order graph).
func (w *writer) count(ctx context.Context) {
	w.stats.Lock()
	defer w.stats.Unlock()
	if err := w.mu.lock(ctx); err == nil {
		w.n++
		w.mu.unlock()
	}
}

func (w *writer) flush(ctx context.Context) {
	if err := w.mu.lock(ctx); err != nil {
		return
	}
	defer w.mu.unlock()
	w.stats.Lock()
	w.n = 0
	w.stats.Unlock()
}

// Two instances of one channel mutex nested, and a return holding one on
// some paths only.
func (w *writer) write(ctx context.Context) error {
	if err := w.mu.lock(ctx); err != nil {
		return err
	}
	if err := w.writeMu.lock(ctx); err != nil {
		return err // still holding w.mu
	}
	w.n++
	w.writeMu.unlock()
	w.mu.unlock()
	return nil
}

type tree struct {
	running uint64
	n       int
}

// A flag taken by compare-and-swap, handed to a goroutine, or kept on a
// return.
func (t *tree) checkAndRun() {
	if atomic.CompareAndSwapUint64(&t.running, 0, 1) {
		if t.n > 8 {
			go t.run()
			return
		}
		if t.n < 0 {
			return
		}
		t.reset()
	}
}

func (t *tree) run() { t.reset() }

func (t *tree) reset() { atomic.StoreUint64(&t.running, 0) }

// The twins with a sync.Mutex.

type mwriter struct {
	mu sync.Mutex
	n  int
}

func (w *mwriter) write(fail bool) {
	w.mu.Lock() // want `lock leak: \(\*chanflags.mwriter\).write returns with \(chanflags.mwriter\).mu still held on this path but not on others`
	if fail {
		return
	}
	w.n++
	w.mu.Unlock()
}

type mtree struct {
	running sync.Mutex
	n       int
}

func (t *mtree) checkAndRun() {
	if t.running.TryLock() { // want `lock leak: \(\*chanflags.mtree\).checkAndRun returns with \(chanflags.mtree\).running still held on this path but not on others`
		if t.n < 0 {
			return
		}
		t.running.Unlock()
	}
}
