package cockroach10214

import (
	"sync"
	"testing"
	"time"
)

type RangeID int64
type NodeID int32
type ReplicaID int32

type RaftHeartbeat struct {
	RangeID       RangeID
	FromReplicaID ReplicaID
	ToReplicaID   ReplicaID
	Term          uint64
	Commit        uint64
}

type RaftMessageRequest struct {
	ToNode     NodeID
	Heartbeats []RaftHeartbeat
}

type Stopper struct {
	stopper chan struct{}
	wg      sync.WaitGroup
}

func NewStopper() *Stopper {
	return &Stopper{stopper: make(chan struct{})}
}

func (s *Stopper) RunWorker(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

func (s *Stopper) ShouldStop() <-chan struct{} { return s.stopper }

func (s *Stopper) Stop() {
	close(s.stopper)
	s.wg.Wait()
}

type RaftTransport struct {
	mu   sync.Mutex
	sent int
}

func (t *RaftTransport) SendAsync(req *RaftMessageRequest) bool {
	t.mu.Lock()
	t.sent += len(req.Heartbeats)
	t.mu.Unlock()
	return true
}

type StoreConfig struct {
	RaftTickInterval            time.Duration
	CoalescedHeartbeatsInterval time.Duration
}

type Store struct {
	cfg       StoreConfig
	transport *RaftTransport
	stopper   *Stopper

	mu struct {
		sync.Mutex
		replicas map[RangeID]*Replica
	}

	coalescedMu struct {
		sync.Mutex
		heartbeats map[NodeID][]RaftHeartbeat
	}
}

type Replica struct {
	RangeID RangeID
	store   *Store

	mu struct {
		sync.Mutex
		replicaID         ReplicaID
		term              uint64
		commit            uint64
		ticks             int
		quiescent         bool
		lastHeartbeatSent time.Time
	}
}

func NewStore(cfg StoreConfig, transport *RaftTransport) *Store {
	s := &Store{cfg: cfg, transport: transport}
	s.mu.replicas = make(map[RangeID]*Replica)
	s.coalescedMu.heartbeats = make(map[NodeID][]RaftHeartbeat)
	return s
}

func (s *Store) addReplica(rangeID RangeID) *Replica {
	r := &Replica{RangeID: rangeID, store: s}
	r.mu.replicaID = 1
	r.mu.term = 5
	s.mu.Lock()
	s.mu.replicas[rangeID] = r
	s.mu.Unlock()
	return r
}

func (s *Store) GetReplica(rangeID RangeID) *Replica {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.replicas[rangeID]
}

func (s *Store) Start(stopper *Stopper) {
	s.stopper = stopper
	s.startRaftTickLoop()
	s.startCoalescedHeartbeatsLoop()
}

func (s *Store) startRaftTickLoop() {
	s.stopper.RunWorker(func() {
		ticker := time.NewTicker(s.cfg.RaftTickInterval)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				s.mu.Lock()
				replicas := make([]*Replica, 0, len(s.mu.replicas))
				for _, r := range s.mu.replicas {
					replicas = append(replicas, r)
				}
				s.mu.Unlock()
				for _, r := range replicas {
					r.tick()
				}
			case <-s.stopper.ShouldStop():
				return
			}
		}
	})
}

func (s *Store) startCoalescedHeartbeatsLoop() {
	s.stopper.RunWorker(func() {
		ticker := time.NewTicker(s.cfg.CoalescedHeartbeatsInterval)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				s.sendQueuedHeartbeats()
			case <-s.stopper.ShouldStop():
				return
			}
		}
	})
}

func (s *Store) coalescedHeartbeat(toNode NodeID, hb RaftHeartbeat) {
	s.coalescedMu.Lock() // deadlock
	s.coalescedMu.heartbeats[toNode] = append(s.coalescedMu.heartbeats[toNode], hb)
	s.coalescedMu.Unlock()
}

func (s *Store) sendQueuedHeartbeats() {
	s.coalescedMu.Lock() // deadlock
	defer s.coalescedMu.Unlock()
	for to, beats := range s.coalescedMu.heartbeats {
		if len(beats) == 0 {
			continue
		}
		if s.transport.SendAsync(&RaftMessageRequest{ToNode: to, Heartbeats: beats}) {
			for _, hb := range beats {
				if r := s.GetReplica(hb.RangeID); r != nil {
					r.heartbeatSent(time.Now())
				}
			}
		}
		delete(s.coalescedMu.heartbeats, to)
	}
}

func (r *Replica) heartbeatSent(now time.Time) {
	r.mu.Lock() // deadlock
	r.mu.lastHeartbeatSent = now
	r.mu.Unlock()
}

func (r *Replica) tick() {
	r.mu.Lock() // deadlock
	defer r.mu.Unlock()
	r.mu.ticks++
	if r.mu.quiescent {
		return
	}
	if r.mu.ticks%2 == 0 {
		r.sendHeartbeatsLocked()
	}
}

func (r *Replica) sendHeartbeatsLocked() {
	for _, peer := range []NodeID{2, 3} {
		r.store.coalescedHeartbeat(peer, RaftHeartbeat{
			RangeID:       r.RangeID,
			FromReplicaID: r.mu.replicaID,
			ToReplicaID:   ReplicaID(peer),
			Term:          r.mu.term,
			Commit:        r.mu.commit,
		})
	}
}

func TestCockroach10214(t *testing.T) {
	s := NewStore(StoreConfig{
		RaftTickInterval:            time.Millisecond,
		CoalescedHeartbeatsInterval: time.Millisecond,
	}, &RaftTransport{})
	for i := RangeID(1); i <= 3; i++ {
		s.addReplica(i)
	}
	stopper := NewStopper()
	s.Start(stopper)
	time.Sleep(20 * time.Millisecond)
	stopper.Stop()
}
