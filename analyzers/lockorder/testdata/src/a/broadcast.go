package a

import "sync"

// A Broadcasts' stop waits, holding the lock, for the loop to finish; the
// loop closes donec as it returns, after taking the lock for each update:
// the loop can be stuck on the lock, and stop on donec.
type Broadcasts struct {
	mu      sync.Mutex
	n       int
	updatec chan int
	donec   chan struct{}
}

// NewBroadcasts starts the loop.
func NewBroadcasts() *Broadcasts {
	b := &Broadcasts{updatec: make(chan int), donec: make(chan struct{})}
	go b.loop()
	return b
}

func (b *Broadcasts) loop() {
	defer close(b.donec)
	for v := range b.updatec {
		b.mu.Lock()
		b.n += v
		b.mu.Unlock()
	}
}

// Stop ends the loop.
func (b *Broadcasts) Stop() {
	b.mu.Lock() // want `lock held across a channel receive: \(\*a.Broadcasts\).Stop receives from b.donec holding b.mu, and every send and close on \(a.Broadcasts\).donec \(\(\*a.Broadcasts\).loop\) locks \(a.Broadcasts\).mu on its way to it`
	defer b.mu.Unlock()
	close(b.updatec)
	<-b.donec
}

// A Counter's loop needs no lock. Silent.
type Counter struct {
	mu      sync.Mutex
	n       int
	updatec chan int
	donec   chan struct{}
}

// NewCounter starts the loop.
func NewCounter() *Counter {
	c := &Counter{updatec: make(chan int), donec: make(chan struct{})}
	go c.loop()
	return c
}

func (c *Counter) loop() {
	defer close(c.donec)
	sum := 0
	for v := range c.updatec {
		sum += v
	}
	_ = sum
}

// Stop ends the loop.
func (c *Counter) Stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	close(c.updatec)
	<-c.donec
	c.n = 0
}
