package consul3049

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type Member struct {
	Name   string
	Addr   string
	Status string
}

type Config struct {
	NodeName          string
	Bootstrap         bool
	ReconcileInterval time.Duration
}

type Raft struct {
	leaderCh chan bool
	state    int32
}

func newRaft(bootstrap bool) *Raft {
	r := &Raft{leaderCh: make(chan bool, 1)}
	go func() {
		if bootstrap {
			atomic.StoreInt32(&r.state, 2)
			r.leaderCh <- true
		}
	}()
	return r
}

func (r *Raft) LeaderCh() <-chan bool { return r.leaderCh }

type Server struct {
	config *Config

	raft     *Raft
	leaderCh <-chan bool

	reconcileCh chan Member

	readyForConsistentReads int32

	shutdownCh chan struct{}
	wg         sync.WaitGroup
}

func NewServer(config *Config) (*Server, error) {
	s := &Server{
		config:     config,
		shutdownCh: make(chan struct{}),
	}
	s.setupRaft()

	s.wg.Add(1)
	go s.monitorLeadership()

	s.reconcileCh = make(chan Member, 32) // race
	return s, nil
}

func (s *Server) setupRaft() {
	s.raft = newRaft(s.config.Bootstrap)
	s.leaderCh = s.raft.LeaderCh()
}

func (s *Server) monitorLeadership() {
	defer s.wg.Done()
	var stopCh chan struct{}
	var leaderWg sync.WaitGroup
	for {
		select {
		case isLeader := <-s.leaderCh:
			if isLeader {
				stopCh = make(chan struct{})
				leaderWg.Add(1)
				go func() {
					defer leaderWg.Done()
					s.leaderLoop(stopCh)
				}()
			} else if stopCh != nil {
				close(stopCh)
				leaderWg.Wait()
				stopCh = nil
			}
		case <-s.shutdownCh:
			if stopCh != nil {
				close(stopCh)
			}
			leaderWg.Wait()
			return
		}
	}
}

func (s *Server) leaderLoop(stopCh chan struct{}) {
	reconcileCh := s.reconcileCh // race
	atomic.StoreInt32(&s.readyForConsistentReads, 1)
	interval := time.NewTicker(s.config.ReconcileInterval)
	defer interval.Stop()
	for {
		select {
		case <-stopCh:
			return
		case <-interval.C:
		case member := <-reconcileCh:
			_ = member.Name
		}
	}
}

func (s *Server) isReadyForConsistentReads() bool {
	return atomic.LoadInt32(&s.readyForConsistentReads) == 1
}

func (s *Server) Shutdown() {
	close(s.shutdownCh)
	s.wg.Wait()
}

func TestLeader_Bootstrap(t *testing.T) {
	s, err := NewServer(&Config{NodeName: "node1", Bootstrap: true, ReconcileInterval: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown()
	deadline := time.Now().Add(time.Second)
	for !s.isReadyForConsistentReads() {
		if time.Now().After(deadline) {
			t.Fatal("leader not elected")
		}
		time.Sleep(100 * time.Microsecond)
	}
}
