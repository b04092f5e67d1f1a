package tickers

import "sync"

// A Buffer's batches are read and written under its mutex. Its helpers
// (trigger, fail) say "must be called while locked", and every caller
// does: through a deferred call that runs before the deferred Unlock,
// reached only after an early return that released the lock itself, and
// through a callback that eachLocked captures in a function literal and
// calls under the lock.
type Buffer struct {
	mu      sync.Mutex
	batches []int
	drained int
}

func (b *Buffer) Add(n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.batches = append(b.batches, n)
	b.trigger()
}

func (b *Buffer) Reset() {
	b.mu.Lock()
	b.batches = nil
	b.drained = 0
	b.mu.Unlock()
}

// Merge returns early, unlocking by hand, before it defers trigger: the
// deferred call runs only at the returns after it, under the lock.
func (b *Buffer) Merge() {
	b.mu.Lock()
	if len(b.batches) < 2 {
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()

	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.trigger()
	b.batches = b.batches[:1]
}

// Must be called while locked.
func (b *Buffer) trigger() {
	if b.drained < len(b.batches) {
		b.drained++
	}
}

// Must be called while locked.
func (b *Buffer) fail() {
	b.batches = b.batches[:0]
	b.drained = 0
}

type buffers []*Buffer

func (bs buffers) each(fn func(*Buffer)) {
	for _, b := range bs {
		fn(b)
	}
}

// eachLocked's literal captures fn and calls it under each buffer's lock.
func (bs buffers) eachLocked(fn func(*Buffer)) {
	bs.each(func(b *Buffer) {
		b.mu.Lock()
		defer b.mu.Unlock()
		fn(b)
	})
}

func FailAll(bs []*Buffer) {
	buffers(bs).eachLocked(func(b *Buffer) {
		b.fail()
	})
}

// ClearAll hands its callback to each, which does not lock.
func ClearAll(bs []*Buffer) {
	buffers(bs).each(func(b *Buffer) {
		b.drained = 0 // want `possible data race: tickers.ClearAll\$1 writes \(tickers.Buffer\).drained without holding \(tickers.Buffer\).mu`
	})
}
