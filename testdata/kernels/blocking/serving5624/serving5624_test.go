package serving5624

import (
	"sync"
	"testing"
)

type NamespacedName struct {
	Namespace string
	Name      string
}

type revisionDestsUpdate struct {
	Rev   NamespacedName
	Dests []string
}

type podTracker struct {
	dest string
}

type Breaker struct {
	mu       sync.Mutex
	capacity int
}

func (b *Breaker) UpdateConcurrency(size int) {
	b.mu.Lock()
	b.capacity = size
	b.mu.Unlock()
}

type revisionThrottler struct {
	revID                NamespacedName
	containerConcurrency int

	mux          sync.RWMutex
	podTrackers  []*podTracker
	backendCount int
	breaker      *Breaker
	throttler    *Throttler
}

func newRevisionThrottler(revID NamespacedName, cc int, t *Throttler) *revisionThrottler {
	return &revisionThrottler{
		revID:                revID,
		containerConcurrency: cc,
		breaker:              &Breaker{},
		throttler:            t,
	}
}

func (rt *revisionThrottler) calculateCapacity(backendCount, numActivators int) int {
	if numActivators == 0 {
		numActivators = 1
	}
	targetCapacity := rt.containerConcurrency * backendCount
	if targetCapacity > 0 && targetCapacity < numActivators {
		return 1
	}
	return targetCapacity / numActivators
}

func (rt *revisionThrottler) updateCapacity(numActivators int) {
	rt.mux.Lock() // deadlock
	defer rt.mux.Unlock()
	rt.breaker.UpdateConcurrency(rt.calculateCapacity(rt.backendCount, numActivators))
}

func (rt *revisionThrottler) handleUpdate(update revisionDestsUpdate) {
	rt.mux.Lock() // deadlock
	defer rt.mux.Unlock()
	trackers := make([]*podTracker, 0, len(update.Dests))
	for _, d := range update.Dests {
		trackers = append(trackers, &podTracker{dest: d})
	}
	rt.podTrackers = trackers
	rt.backendCount = len(trackers)
	rt.breaker.UpdateConcurrency(rt.calculateCapacity(rt.backendCount, rt.throttler.activatorCount()))
}

type Throttler struct {
	revisionThrottlersMutex sync.RWMutex
	revisionThrottlers      map[NamespacedName]*revisionThrottler
	numActivators           int
	doneCh                  chan struct{}
}

func NewThrottler(updateCh <-chan revisionDestsUpdate) *Throttler {
	t := &Throttler{
		revisionThrottlers: make(map[NamespacedName]*revisionThrottler),
		doneCh:             make(chan struct{}),
	}
	go t.run(updateCh)
	return t
}

func (t *Throttler) run(updateCh <-chan revisionDestsUpdate) {
	defer close(t.doneCh)
	for update := range updateCh {
		t.handleUpdate(update)
	}
}

func (t *Throttler) getOrCreateRevisionThrottler(revID NamespacedName) *revisionThrottler {
	t.revisionThrottlersMutex.Lock()
	defer t.revisionThrottlersMutex.Unlock()
	revThrottler, ok := t.revisionThrottlers[revID]
	if !ok {
		revThrottler = newRevisionThrottler(revID, 10, t)
		t.revisionThrottlers[revID] = revThrottler
	}
	return revThrottler
}

func (t *Throttler) handleUpdate(update revisionDestsUpdate) {
	rt := t.getOrCreateRevisionThrottler(update.Rev)
	rt.handleUpdate(update)
}

func (t *Throttler) activatorCount() int {
	t.revisionThrottlersMutex.RLock() // deadlock
	defer t.revisionThrottlersMutex.RUnlock()
	return t.numActivators
}

func (t *Throttler) activatorEndpointsUpdated(numActivators int) {
	t.revisionThrottlersMutex.Lock() // deadlock
	defer t.revisionThrottlersMutex.Unlock()
	t.numActivators = numActivators
	for _, rt := range t.revisionThrottlers {
		rt.updateCapacity(numActivators)
	}
}

func TestServing5624(t *testing.T) {
	updateCh := make(chan revisionDestsUpdate)
	throttler := NewThrottler(updateCh)
	rev := NamespacedName{Namespace: "default", Name: "helloworld-go-00001"}
	throttler.getOrCreateRevisionThrottler(rev)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		updateCh <- revisionDestsUpdate{Rev: rev, Dests: []string{"10.0.0.5:8012", "10.0.0.6:8012"}}
		close(updateCh)
	}()
	go func() {
		defer wg.Done()
		throttler.activatorEndpointsUpdated(3)
	}()
	wg.Wait()
	<-throttler.doneCh
}
