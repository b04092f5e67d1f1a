package indirect

import "sync"

// A retry loop whose first call releases the caller's lock through a
// callback, after taking another lock: the first time round, that lock
// is taken while the caller's is held.

type Cacher struct {
	mu    sync.Mutex
	watch *Watch
}

type Watch struct {
	mu        sync.Mutex
	onReplace func()
	onEvent   func()
}

func NewCacher() *Cacher {
	c := &Cacher{watch: &Watch{}}
	c.watch.onReplace = func() { c.mu.Unlock() }
	c.watch.onEvent = c.process
	return c
}

func (c *Cacher) process() {
	c.mu.Lock()
	defer c.mu.Unlock()
}

func (c *Cacher) StartCaching() {
	c.mu.Lock() // want `lock-order cycle: \(\*indirect.Cacher\).StartCaching acquires \(indirect.Watch\).mu while holding \(indirect.Cacher\).mu, but \(\*indirect.Watch\).Event acquires \(indirect.Cacher\).mu while holding \(indirect.Watch\).mu`
	for {
		if err := c.watch.replace(); err == nil {
			break
		}
	}
}

// StartAfter calls the callback before it locks: the caller's lock is
// gone before the Watch's is taken, on the first iteration too.
func (c *Cacher) StartAfter() {
	c.mu.Lock()
	for {
		if err := c.watch.replaceAfter(); err == nil {
			break
		}
	}
}

func (w *Watch) replace() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onReplace()
	return nil
}

func (w *Watch) replaceAfter() error {
	w.onReplace()
	w.mu.Lock()
	defer w.mu.Unlock()
	return nil
}

func (w *Watch) Event() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onEvent()
}
