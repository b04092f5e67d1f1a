// Package warmfixed keeps a value fresh: a background goroutine refreshes it
// on a timer, each refresh under a context deadline and after a random
// jitter. The refresh writes the value under the lock Value reads it
// under.
package warmfixed

import (
	"context"
	"math/rand"
	"sync"
	"time"
)

// A Cache holds a value that a background goroutine refreshes.
type Cache struct {
	mu  sync.Mutex
	val int
}

// Start refreshes c every period until ctx is done.
func (c *Cache) Start(ctx context.Context, period time.Duration) {
	go func() {
		t := time.NewTimer(period)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				rctx, cancel := context.WithTimeout(ctx, period/2)
				c.refresh(rctx)
				cancel()
				t.Reset(period)
			case <-ctx.Done():
				return
			}
		}
	}()
}

// refresh waits a random jitter, unless its deadline passes first, and
// bumps the value.
func (c *Cache) refresh(ctx context.Context) {
	jitter := time.Duration(rand.Intn(4)) * time.Millisecond
	select {
	case <-time.After(jitter):
	case <-ctx.Done():
		return
	}
	c.mu.Lock()
	c.val++
	c.mu.Unlock()
}

// Value returns the current value.
func (c *Cache) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.val
}
