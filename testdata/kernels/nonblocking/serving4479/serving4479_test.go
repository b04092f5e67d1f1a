package serving4479

import (
	"sync"
	"testing"
)

type RevisionID struct {
	Namespace string
	Name      string
}

type EndpointAddress struct{ IP string }

type Endpoints struct {
	Name      string
	Addresses []EndpointAddress
}

type Revision struct {
	ID                   RevisionID
	ContainerConcurrency int
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
	revID                RevisionID
	containerConcurrency int
	backendCount         int
	breaker              *Breaker
}

func minOneOrValue(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

func (rt *revisionThrottler) updateCapacity(activatorCount int) {
	capacity := rt.containerConcurrency * rt.backendCount / minOneOrValue(activatorCount)
	rt.breaker.UpdateConcurrency(minOneOrValue(capacity))
}

type Throttler struct {
	revisionThrottlersMutex sync.RWMutex
	revisionThrottlers      map[RevisionID]*revisionThrottler
	numActivators           int
}

func NewThrottler() *Throttler {
	return &Throttler{revisionThrottlers: make(map[RevisionID]*revisionThrottler), numActivators: 1}
}

func (t *Throttler) activatorEndpointsUpdated(newObj interface{}) {
	endpoints := newObj.(*Endpoints)
	t.revisionThrottlersMutex.RLock()
	defer t.revisionThrottlersMutex.RUnlock()
	t.numActivators = len(endpoints.Addresses) // race
	for _, rt := range t.revisionThrottlers {
		rt.updateCapacity(len(endpoints.Addresses))
	}
}

func (t *Throttler) revisionUpdated(obj interface{}) {
	rev := obj.(*Revision)
	t.revisionThrottlersMutex.RLock()
	rt, ok := t.revisionThrottlers[rev.ID]
	activatorCount := t.numActivators // race
	t.revisionThrottlersMutex.RUnlock()
	if !ok {
		return
	}
	rt.updateCapacity(activatorCount)
}

func TestThrottlerActivatorEndpointsAndRevisionUpdates(t *testing.T) {
	throttler := NewThrottler()
	revID := RevisionID{Namespace: "default", Name: "helloworld-go-00001"}
	throttler.revisionThrottlers[revID] = &revisionThrottler{
		revID:                revID,
		containerConcurrency: 10,
		backendCount:         3,
		breaker:              &Breaker{capacity: 1},
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		throttler.activatorEndpointsUpdated(&Endpoints{
			Name:      "activator-service",
			Addresses: []EndpointAddress{{IP: "10.0.0.1"}, {IP: "10.0.0.2"}},
		})
	}()
	go func() {
		defer wg.Done()
		throttler.revisionUpdated(&Revision{ID: revID, ContainerConcurrency: 10})
	}()
	wg.Wait()
}
