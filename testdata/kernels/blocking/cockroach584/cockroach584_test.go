package cockroach584

import (
	"sync"
	"testing"
	"time"
)

type Stopper struct {
	stopper chan struct{}
	stop    sync.WaitGroup
}

func NewStopper() *Stopper {
	return &Stopper{stopper: make(chan struct{})}
}

func (s *Stopper) RunWorker(f func()) {
	s.stop.Add(1)
	go func() {
		defer s.stop.Done()
		f()
	}()
}

func (s *Stopper) ShouldStop() <-chan struct{} {
	return s.stopper
}

func (s *Stopper) Stop() {
	close(s.stopper)
	s.stop.Wait()
}

type resolver interface {
	GetAddress() (string, error)
}

type nodeResolver struct {
	addr string
}

func (r *nodeResolver) GetAddress() (string, error) {
	return r.addr, nil
}

type Gossip struct {
	mu            sync.Mutex
	closed        bool
	stalled       chan struct{}
	resolvers     []resolver
	resolverIdx   int
	bootstrapping map[string]struct{}
	outgoing      map[string]struct{}
	stopper       *Stopper
}

func New(resolvers []resolver) *Gossip {
	return &Gossip{
		stalled:       make(chan struct{}, 1),
		resolvers:     resolvers,
		bootstrapping: make(map[string]struct{}),
		outgoing:      make(map[string]struct{}),
	}
}

func (g *Gossip) Start(stopper *Stopper) {
	g.stopper = stopper
	g.bootstrap()
	g.manage()
}

func (g *Gossip) getNextBootstrapAddress() string {
	for range g.resolvers {
		r := g.resolvers[g.resolverIdx]
		g.resolverIdx = (g.resolverIdx + 1) % len(g.resolvers)
		addr, err := r.GetAddress()
		if err != nil {
			continue
		}
		if _, ok := g.bootstrapping[addr]; !ok {
			g.bootstrapping[addr] = struct{}{}
			return addr
		}
	}
	return ""
}

func (g *Gossip) startClient(addr string) {
	g.outgoing[addr] = struct{}{}
}

func (g *Gossip) bootstrap() {
	g.stopper.RunWorker(func() {
		for {
			g.mu.Lock() // deadlock
			if g.closed {
				break
			}
			if addr := g.getNextBootstrapAddress(); addr != "" {
				g.startClient(addr)
			}
			g.mu.Unlock()

			select {
			case <-g.stalled:
			case <-g.stopper.ShouldStop():
				return
			}
		}
	})
}

func (g *Gossip) maybeSignalStalledLocked() {
	if len(g.outgoing) < 2 {
		select {
		case g.stalled <- struct{}{}:
		default:
		}
	}
}

func (g *Gossip) manage() {
	g.stopper.RunWorker(func() {
		ticker := time.NewTicker(time.Millisecond)
		defer ticker.Stop()
		for {
			select {
			case <-ticker.C:
				g.mu.Lock() // deadlock
				g.maybeSignalStalledLocked()
				g.mu.Unlock()
			case <-g.stopper.ShouldStop():
				return
			}
		}
	})
}

func (g *Gossip) Close() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
}

func TestCockroach584(t *testing.T) {
	stopper := NewStopper()
	g := New([]resolver{&nodeResolver{addr: "localhost:26257"}})
	g.Start(stopper)
	time.Sleep(5 * time.Millisecond)
	g.Close()
	time.Sleep(5 * time.Millisecond)
	stopper.Stop()
}
