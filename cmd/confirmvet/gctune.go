package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// gcSlack is how far tuneGC lets a small heap grow past what is live
// between two collections.
const gcSlack = 64 << 20

// maxGCPercent bounds the collector's target that tuneGC sets.
const maxGCPercent = 1000

// tuneGC lets a heap that is small grow by up to slack bytes between
// collections (at most maxGCPercent/100 times what is live), instead of
// by what is live (GOGC=100), and leaves a heap of slack bytes or more at
// the default. go vet runs one process per package, most of them small:
// at GOGC=100 they collected heaps of a few tens of megabytes so often
// that the collector took a fifth of the tree's CPU time (nats.go), while
// the memory the tree needs is that of its largest unit, which the slack
// does not touch, and a small unit grows by at most slack bytes. After
// each collection the target is set again from the heap then live, until
// stop is called. An explicit GOGC or GOMEMLIMIT in the environment wins:
// tuneGC then does nothing.
func tuneGC(slack uint64) (stop func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	var stopped atomic.Bool
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	set := func() {
		metrics.Read(sample)
		debug.SetGCPercent(gcPercent(sample[0].Value.Uint64(), slack))
	}
	set()
	// A finalizer runs after the collection that finds its object
	// unreachable; setting it again keeps it for the next one.
	var rearm func(*gcSentinel)
	rearm = func(s *gcSentinel) {
		if stopped.Load() {
			return
		}
		set()
		runtime.SetFinalizer(s, rearm)
	}
	runtime.SetFinalizer(&gcSentinel{}, rearm)
	return func() { stopped.Store(true) }
}

// A gcSentinel is an object only its finalizer refers to, large enough
// for an allocation of its own (the allocator packs smaller objects
// without pointers together, and gives all objects of size zero one
// address).
type gcSentinel struct{ _ [16]byte }

// gcPercent returns the GOGC value whose heap goal is live plus slack
// bytes, for a live heap of live bytes: at least 100 (the goal is then
// twice what is live), at most maxGCPercent.
func gcPercent(live, slack uint64) int {
	const minLive = 4 << 20 // before the first collection, and tiny heaps
	live = max(live, minLive)
	if slack <= live {
		return 100
	}
	return int(min(slack*100/live, maxGCPercent))
}
