package goroutines

import (
	"sync"
	"sync/atomic"
)

type stats struct {
	writes uint64
	reads  uint64
}

type statCache struct {
	stats stats
}

func (c *statCache) set() {
	atomic.AddUint64(&c.stats.writes, 1) // want `possible data race: \(goroutines.stats\).writes is atomically written by goroutine goroutines.MixedAtomics\$1 and read by goroutine goroutines.MixedAtomics\$2`
}

func (c *statCache) get() {
	atomic.AddUint64(&c.stats.reads, 1)
}

func (c *statCache) snapshot() stats {
	return c.stats
}

func (c *statCache) loadReads() uint64 {
	return atomic.LoadUint64(&c.stats.reads)
}

// MixedAtomics adds to a counter atomically while another goroutine
// copies the counters plainly: the Go memory model makes that a race.
func MixedAtomics() stats {
	c := &statCache{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.set()
	}()
	var s stats
	go func() {
		defer wg.Done()
		s = c.snapshot()
	}()
	wg.Wait()
	return s
}

// OnlyAtomics reads and adds atomically on both sides. Silent.
func OnlyAtomics() uint64 {
	c := &statCache{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		c.get()
	}()
	var n uint64
	go func() {
		defer wg.Done()
		n = c.loadReads()
	}()
	wg.Wait()
	return n + c.stats.reads
}
