package etcd9812

import (
	"sync"
	"testing"
	"time"
)

type FollowerLatency struct {
	Current float64
	Minimum float64
	Maximum float64
}

type CountsStats struct {
	Fail    uint64
	Success uint64
}

type FollowerStats struct {
	sync.Mutex
	Latency FollowerLatency
	Counts  CountsStats
}

func (fs *FollowerStats) Succ(d time.Duration) {
	fs.Lock()
	defer fs.Unlock()
	current := float64(d) / float64(time.Millisecond)
	fs.Latency.Current = current
	if current > fs.Latency.Maximum {
		fs.Latency.Maximum = current
	}
	if fs.Latency.Minimum == 0 || current < fs.Latency.Minimum {
		fs.Latency.Minimum = current
	}
	fs.Counts.Success++ // race
}

type LeaderStats struct {
	sync.Mutex
	Leader    string
	Followers map[string]*FollowerStats
}

func NewLeaderStats(id string) *LeaderStats {
	return &LeaderStats{Leader: id, Followers: make(map[string]*FollowerStats)}
}

func (ls *LeaderStats) Follower(name string) *FollowerStats {
	ls.Lock()
	defer ls.Unlock()
	fs, ok := ls.Followers[name]
	if !ok {
		fs = &FollowerStats{}
		ls.Followers[name] = fs
	}
	return fs
}

type followerSummary struct {
	Name   string
	Counts CountsStats
}

func (ls *LeaderStats) Summary() []followerSummary {
	ls.Lock()
	defer ls.Unlock()
	out := make([]followerSummary, 0, len(ls.Followers))
	for name, fs := range ls.Followers {
		out = append(out, followerSummary{Name: name, Counts: fs.Counts}) // race
	}
	return out
}

type peer struct {
	id     string
	fs     *FollowerStats
	stopc  chan struct{}
	donec  chan struct{}
	period time.Duration
}

func startPeer(id string, fs *FollowerStats, period time.Duration) *peer {
	p := &peer{id: id, fs: fs, stopc: make(chan struct{}), donec: make(chan struct{}), period: period}
	go p.sendLoop()
	return p
}

func (p *peer) sendLoop() {
	defer close(p.donec)
	ticker := time.NewTicker(p.period)
	defer ticker.Stop()
	for {
		select {
		case <-p.stopc:
			return
		case <-ticker.C:
			start := time.Now()
			p.fs.Succ(time.Since(start))
		}
	}
}

func (p *peer) stop() {
	close(p.stopc)
	<-p.donec
}

func TestLeaderStatsSummary(t *testing.T) {
	ls := NewLeaderStats("8e9e05c52164694d")
	var peers []*peer
	for _, id := range []string{"91bc3c398fb3c146", "fd422379fda50e48"} {
		peers = append(peers, startPeer(id, ls.Follower(id), 100*time.Microsecond))
	}
	for i := 0; i < 10; i++ {
		if s := ls.Summary(); len(s) != 2 {
			t.Errorf("expected 2 followers, got %d", len(s))
		}
		time.Sleep(200 * time.Microsecond)
	}
	for _, p := range peers {
		p.stop()
	}
}
