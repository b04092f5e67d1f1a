package etcd10492

import (
	"context"
	"sync"
	"testing"
	"time"
)

type LeaseID int64

type LeaseCheckpoint struct {
	ID           LeaseID
	RemainingTTL int64
}

type LeaseCheckpointRequest struct {
	Checkpoints []*LeaseCheckpoint
}

type Checkpointer func(ctx context.Context, lc *LeaseCheckpointRequest)

type Lease struct {
	ID           LeaseID
	ttl          int64
	remainingTTL int64
	expiry       time.Time
}

type LeaseWithTime struct {
	id   LeaseID
	time time.Time
}

type lessor struct {
	mu                  sync.RWMutex
	demotec             chan struct{}
	leaseMap            map[LeaseID]*Lease
	leaseCheckpointHeap []*LeaseWithTime
	cp                  Checkpointer
	checkpointInterval  time.Duration
	stopC               chan struct{}
	doneC               chan struct{}
}

func newLessor(checkpointInterval time.Duration) *lessor {
	l := &lessor{
		leaseMap:           make(map[LeaseID]*Lease),
		checkpointInterval: checkpointInterval,
		stopC:              make(chan struct{}),
		doneC:              make(chan struct{}),
	}
	go l.runLoop()
	return l
}

func (le *lessor) SetCheckpointer(cp Checkpointer) {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.cp = cp
}

func (le *lessor) isPrimary() bool {
	return le.demotec != nil
}

func (le *lessor) Promote() {
	le.mu.Lock()
	defer le.mu.Unlock()
	le.demotec = make(chan struct{})
	for _, l := range le.leaseMap {
		l.expiry = time.Now().Add(time.Duration(l.remainingTTL) * time.Second)
		le.scheduleCheckpointIfNeeded(l)
	}
}

func (le *lessor) Grant(id LeaseID, ttl int64) *Lease {
	l := &Lease{ID: id, ttl: ttl, remainingTTL: ttl}
	le.mu.Lock()
	defer le.mu.Unlock()
	le.leaseMap[id] = l
	if le.isPrimary() {
		l.expiry = time.Now().Add(time.Duration(ttl) * time.Second)
		le.scheduleCheckpointIfNeeded(l)
	}
	return l
}

func (le *lessor) Checkpoint(id LeaseID, remainingTTL int64) error {
	le.mu.Lock() // deadlock
	defer le.mu.Unlock()
	if l, ok := le.leaseMap[id]; ok {
		l.remainingTTL = remainingTTL
		if le.isPrimary() {
			le.scheduleCheckpointIfNeeded(l)
		}
	}
	return nil
}

func (le *lessor) scheduleCheckpointIfNeeded(lease *Lease) {
	if le.cp == nil {
		return
	}
	if lease.remainingTTL > int64(le.checkpointInterval.Seconds()) {
		le.leaseCheckpointHeap = append(le.leaseCheckpointHeap, &LeaseWithTime{
			id:   lease.ID,
			time: time.Now().Add(le.checkpointInterval),
		})
	}
}

func (le *lessor) findDueScheduledCheckpoints(limit int) []*LeaseCheckpoint {
	if le.cp == nil {
		return nil
	}
	now := time.Now()
	var cps []*LeaseCheckpoint
	for len(le.leaseCheckpointHeap) > 0 && len(cps) < limit {
		lt := le.leaseCheckpointHeap[0]
		if lt.time.After(now) {
			return cps
		}
		le.leaseCheckpointHeap = le.leaseCheckpointHeap[1:]
		l, ok := le.leaseMap[lt.id]
		if !ok {
			continue
		}
		remaining := int64(time.Until(l.expiry).Seconds())
		if remaining >= l.ttl {
			continue
		}
		cps = append(cps, &LeaseCheckpoint{ID: lt.id, RemainingTTL: remaining})
	}
	return cps
}

func (le *lessor) checkpointScheduledLeases() {
	var cps []*LeaseCheckpoint
	for i := 0; i < 3; i++ {
		le.mu.Lock() // deadlock
		if le.isPrimary() {
			cps = le.findDueScheduledCheckpoints(1000)
		}
		if len(cps) != 0 {
			le.cp(context.Background(), &LeaseCheckpointRequest{Checkpoints: cps})
		}
		le.mu.Unlock()
		if len(cps) < 1000 {
			return
		}
	}
}

func (le *lessor) runLoop() {
	defer close(le.doneC)
	ticker := time.NewTicker(time.Millisecond)
	defer ticker.Stop()
	for {
		le.checkpointScheduledLeases()
		select {
		case <-ticker.C:
		case <-le.stopC:
			return
		}
	}
}

func (le *lessor) Stop() {
	close(le.stopC)
	<-le.doneC
}

type raftApplier struct {
	lessor *lessor
}

func (a *raftApplier) LeaseCheckpoint(ctx context.Context, req *LeaseCheckpointRequest) {
	for _, c := range req.Checkpoints {
		a.lessor.Checkpoint(c.ID, c.RemainingTTL)
	}
}

func TestEtcd10492(t *testing.T) {
	le := newLessor(time.Millisecond)
	a := &raftApplier{lessor: le}
	le.SetCheckpointer(a.LeaseCheckpoint)

	le.Grant(1, 10)
	le.Promote()
	time.Sleep(10 * time.Millisecond)
	le.Stop()
}
