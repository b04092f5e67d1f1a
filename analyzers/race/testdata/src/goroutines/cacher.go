package goroutines

import "sync"

// A cacher's constructor leaves its dispatch loop running.
type cacher struct {
	sync.RWMutex
	buffer []int
}

func (c *cacher) startDispatching() {
	c.Lock()
	defer c.Unlock()
	c.buffer = c.buffer[:0] // want `possible data race: \(goroutines.cacher\).buffer is written by goroutine \(\*goroutines.cacher\).dispatchLoop and read by goroutine goroutines.WatchDispatch\$1`
}

func (c *cacher) dispatch() {
	c.startDispatching()
	for range c.buffer { // want `possible data race: \(goroutines.cacher\).buffer is read by goroutine \(\*goroutines.cacher\).dispatchLoop and written by goroutine goroutines.WatchDispatch\$1`
	}
}

func (c *cacher) dispatchLoop() {
	for {
		c.dispatch()
	}
}

func (c *cacher) size() int {
	c.RLock()
	defer c.RUnlock()
	return len(c.buffer)
}

func newCacher() *cacher {
	c := &cacher{}
	go c.dispatchLoop()
	return c
}

// WatchDispatch dispatches from a goroutine of its own while the
// cacher's loop dispatches too.
func WatchDispatch() {
	c := newCacher()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.dispatch()
	}()
	wg.Wait()
}

// WatchSize reads the size under the read lock. Silent.
func WatchSize() int {
	c := newCacher()
	var wg sync.WaitGroup
	wg.Add(1)
	n := 0
	go func() {
		defer wg.Done()
		n = c.size()
	}()
	wg.Wait()
	return n
}
