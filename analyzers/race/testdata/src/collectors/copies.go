package collectors

import "sync"

// Server is copied whole under the replicator's lock; its fields are
// only ever written one by one on fresh configurations, outside it. The
// copies guard the field holding the struct, and are no evidence that
// the replicator's lock guards Address: silent.
type Server struct {
	ID      string
	Address string
}

type Replicator struct {
	mu   sync.RWMutex
	peer Server
}

func (r *Replicator) Current() Server {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.peer
}

func (r *Replicator) Set(s Server) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.peer = s
}

func (r *Replicator) Address() string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	p := r.peer
	return p.Address
}

// Renamed returns a changed copy of servers.
func Renamed(servers []Server, addr string) []Server {
	out := append([]Server(nil), servers...)
	for i := range out {
		out[i].Address = addr
	}
	return out
}

// A Batch is locked around by its callers when they call the methods
// named Unsafe (etcd's convention): silent.
type Batch struct {
	sync.Mutex
	pending int
}

// UnsafePut is called with the batch locked.
func (b *Batch) UnsafePut() { b.pending++ }

func (b *Batch) Commit() {
	b.Lock()
	defer b.Unlock()
	b.pending = 0
}

func (b *Batch) Size() int {
	b.Lock()
	defer b.Unlock()
	return b.pending
}

// Tally copies each peer's counts whole under the board's lock, while
// each peer's goroutine increments one count under the peer's own lock.
type Counts struct {
	Fail, Success int
}

type peerStats struct {
	mu     sync.Mutex
	counts Counts
}

func (p *peerStats) succ() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.counts.Success++
}

// A Board holds the peers' stats.
type Board struct {
	mu    sync.Mutex
	peers []*peerStats
}

// Start runs a goroutine per peer.
func (b *Board) Start(stop chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.peers {
		go func() {
			for {
				select {
				case <-stop:
					return
				default:
					p.succ()
				}
			}
		}()
	}
}

// Tally sums the counts.
func (b *Board) Tally() (n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.peers {
		c := p.counts // want `possible data race: \(\*collectors.Board\).Tally reads \(collectors.Counts\).Success holding \(collectors.Board\).mu, but \(\*collectors.peerStats\).succ writes it holding \(collectors.peerStats\).mu; the locksets do not intersect`
		n += c.Success
	}
	return n
}
