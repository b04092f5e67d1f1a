package a

import "sync"

// An object kept by a constructor: NewView(c) stores c in the view it
// returns, and nothing else sets that field, so locking through the view
// locks c.

type Cluster struct {
	sync.RWMutex
	mode int
}

type Fetcher interface{ Get() }

type View struct {
	name   string
	client Fetcher
}

func NewView(c Fetcher) *View { return &View{name: "view", client: c} }

func (v *View) Leader() { v.client.Get() }

func (c *Cluster) Get() {
	c.RLock()
	c.RUnlock()
}

func (c *Cluster) Sync() {
	c.Lock() // want `double lock: \(\*a.Cluster\).Sync read-locks c.RWMutex via \(\*a.View\).Leader -> \(\*a.Cluster\).Get while already holding it`
	defer c.Unlock()
	NewView(c).Leader()
}

// A view whose client can be replaced holds whatever was set last.

type LeasePool struct {
	sync.Mutex
}

func (p *LeasePool) Get() {
	p.Lock()
	p.Unlock()
}

type Lease struct {
	owner Fetcher
}

func NewLease(p Fetcher) *Lease { return &Lease{owner: p} }

func (l *Lease) Renew()                 { l.owner.Get() }
func (l *Lease) Move(to Fetcher)        { l.owner = to }
func (p *LeasePool) Transfer(to *Lease) { to.Move(p) }

func (p *LeasePool) Refresh() {
	p.Lock()
	defer p.Unlock()
	NewLease(p).Renew() // the lease may have moved: no instance known
}

// An element's pointer back to the owner of the map it is kept in is that
// owner: r.store is s.

type RaftStore struct {
	mu       sync.RWMutex
	replicas map[int]*Replica
}

type Replica struct {
	store *RaftStore
}

func (s *RaftStore) Status() {
	s.mu.RLock()
	defer s.mu.RUnlock()
}

func (s *RaftStore) Scan() {
	s.mu.RLock() // want `recursive read lock: \(\*a.RaftStore\).Scan read-locks s.mu via a.replicaStatus -> \(\*a.RaftStore\).Status`
	defer s.mu.RUnlock()
	for _, r := range s.replicas {
		replicaStatus(r)
	}
}

func replicaStatus(r *Replica) { r.store.Status() }

func (s *RaftStore) Compact() {
	s.mu.Lock()
	defer s.mu.Unlock()
}

// The replicas of a list the function was given belong to no store it
// holds.
func (s *RaftStore) ScanOthers(others []*Replica) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, r := range others {
		replicaStatus(r)
	}
}

func NewRaftStore() *RaftStore {
	s := &RaftStore{replicas: map[int]*Replica{}}
	r := &Replica{store: s}
	s.replicas[1] = r
	return s
}

// A parent's router keeps child pipeliners of the parent's type, whose
// own router field is not the router that keeps them (a child has none):
// no back pointer.

type Pipeliner struct {
	router *ShardRouter
}

type ShardRouter struct {
	mu       sync.RWMutex
	children map[int]*Pipeliner
}

func NewPipeliner(sharded bool) *Pipeliner {
	p := &Pipeliner{}
	if sharded {
		p.router = &ShardRouter{children: map[int]*Pipeliner{}}
		p.router.children[0] = &Pipeliner{}
	}
	return p
}

func (p *Pipeliner) Depth() int {
	if p.router != nil {
		return p.router.size()
	}
	return 0
}

func (r *ShardRouter) size() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.children)
}

func (r *ShardRouter) Len() int {
	r.mu.RLock() // the children's routers are others (nil)
	defer r.mu.RUnlock()
	n := 0
	for _, c := range r.children {
		n += c.Depth()
	}
	return n
}

func (r *ShardRouter) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.children = nil
}
