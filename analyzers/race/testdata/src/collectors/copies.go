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
