package cockroach3710

import (
	"sync"
	"testing"
)

type RangeID int64

type Replica struct {
	RangeID RangeID
	store   *Store

	mu             sync.Mutex
	raftLogSize    int64
	lastIndex      uint64
	truncatedIndex uint64
}

func (r *Replica) GetRaftLogSize() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.raftLogSize
}

func (r *Replica) getTruncatableIndexes() (uint64, uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lastIndex - r.truncatedIndex, r.truncatedIndex
}

type raftLogQueue struct {
	store *Store
	mu    sync.Mutex
	queue []*Replica
}

func newRaftLogQueue(store *Store) *raftLogQueue {
	return &raftLogQueue{store: store}
}

const raftLogQueueStaleThreshold = 100

func (rlq *raftLogQueue) shouldQueue(r *Replica) (bool, float64) {
	truncatable, _ := r.getTruncatableIndexes()
	replicaCount := rlq.store.ReplicaCount()
	if replicaCount == 0 {
		return false, 0
	}
	return truncatable >= raftLogQueueStaleThreshold, float64(truncatable) / float64(replicaCount)
}

func (rlq *raftLogQueue) MaybeAdd(r *Replica) {
	should, _ := rlq.shouldQueue(r)
	if !should {
		return
	}
	rlq.mu.Lock()
	rlq.queue = append(rlq.queue, r)
	rlq.mu.Unlock()
}

type Store struct {
	mu           sync.RWMutex
	replicas     map[RangeID]*Replica
	raftLogQueue *raftLogQueue
}

func NewStore() *Store {
	s := &Store{replicas: make(map[RangeID]*Replica)}
	s.raftLogQueue = newRaftLogQueue(s)
	return s
}

func (s *Store) AddReplica(r *Replica) {
	s.mu.Lock() // deadlock
	defer s.mu.Unlock()
	r.store = s
	s.replicas[r.RangeID] = r
}

func (s *Store) ReplicaCount() int {
	s.mu.RLock() // deadlock
	defer s.mu.RUnlock()
	return len(s.replicas)
}

func (s *Store) ForceRaftLogScanAndProcess() {
	s.mu.RLock() // deadlock
	for _, r := range s.replicas {
		s.raftLogQueue.MaybeAdd(r)
	}
	s.mu.RUnlock()
}

func TestCockroach3710(t *testing.T) {
	s := NewStore()
	for i := RangeID(1); i <= 3; i++ {
		s.AddReplica(&Replica{RangeID: i, lastIndex: 150, truncatedIndex: 10})
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.ForceRaftLogScanAndProcess()
	}()
	go func() {
		defer wg.Done()
		s.AddReplica(&Replica{RangeID: 4})
	}()
	wg.Wait()
}
