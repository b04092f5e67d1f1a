package nomad12098

import (
	"context"
	"sync"
	"testing"
	"time"
)

type Allocation struct {
	ID           string
	JobID        string
	NodeID       string
	ClientStatus string
	CreateIndex  uint64
	ModifyIndex  uint64
}

type StateSnapshot struct {
	allocs map[string]*Allocation
	index  uint64
}

type StateStore struct {
	mu      sync.RWMutex
	allocs  map[string]*Allocation
	index   uint64
	watchCh chan struct{}
}

func NewStateStore() *StateStore {
	return &StateStore{allocs: make(map[string]*Allocation), watchCh: make(chan struct{})}
}

func (s *StateStore) UpsertAllocs(index uint64, allocs []*Allocation) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, alloc := range allocs {
		if existing, ok := s.allocs[alloc.ID]; ok {
			alloc.CreateIndex = existing.CreateIndex
		} else {
			alloc.CreateIndex = index
		}
		alloc.ModifyIndex = index // race
		s.allocs[alloc.ID] = alloc
	}
	s.index = index
	close(s.watchCh)
	s.watchCh = make(chan struct{})
	return nil
}

type QueryFn func(snap *StateSnapshot) (interface{}, uint64, error)

func (s *StateStore) BlockingQuery(run QueryFn, minIndex uint64, ctx context.Context) (interface{}, uint64, error) {
	for {
		s.mu.RLock()
		snap := &StateSnapshot{allocs: make(map[string]*Allocation, len(s.allocs)), index: s.index}
		for id, a := range s.allocs {
			snap.allocs[id] = a
		}
		ch := s.watchCh
		s.mu.RUnlock()

		if snap.index > minIndex {
			return run(snap)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

type drainingJobWatcher struct {
	ctx   context.Context
	state *StateStore
	jobID string
	seen  map[string]uint64
}

func (w *drainingJobWatcher) getJobAllocsImpl(snap *StateSnapshot) (interface{}, uint64, error) {
	changed := make(map[string]*Allocation)
	for id, a := range snap.allocs {
		if a.JobID != w.jobID {
			continue
		}
		if idx := a.ModifyIndex; idx > w.seen[id] { // race
			changed[id] = a
			w.seen[id] = idx
		}
	}
	return changed, snap.index, nil
}

func (w *drainingJobWatcher) watch() {
	var index uint64
	for {
		_, newIndex, err := w.state.BlockingQuery(w.getJobAllocsImpl, index, w.ctx)
		if err != nil {
			return
		}
		index = newIndex
	}
}

func TestDrainingJobWatcher_DrainJobs(t *testing.T) {
	state := NewStateStore()
	ctx, cancel := context.WithCancel(context.Background())
	w := &drainingJobWatcher{ctx: ctx, state: state, jobID: "example", seen: make(map[string]uint64)}
	done := make(chan struct{})
	go func() {
		w.watch()
		close(done)
	}()

	var allocs []*Allocation
	for i := 0; i < 10; i++ {
		allocs = append(allocs, &Allocation{
			ID:           string(rune('a' + i)),
			JobID:        "example",
			NodeID:       "node-1",
			ClientStatus: "running",
		})
	}
	index := uint64(1000)
	for i := 0; i < 50; i++ {
		index++
		if err := state.UpsertAllocs(index, allocs); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(time.Millisecond)
	cancel()
	<-done
}
