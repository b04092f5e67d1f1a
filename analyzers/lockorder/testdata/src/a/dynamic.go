package a

import "sync"

// A Leases value calls its checkpointer holding its lock; the checkpointer the
// program installs checkpoints back into the lessor (etcd 10492).
type Leases struct {
	mu    sync.Mutex
	cp    func(id int)
	ttl   map[int]int
	queue []int
}

func (l *Leases) SetCheckpointer(cp func(id int)) {
	l.mu.Lock()
	l.cp = cp
	l.mu.Unlock()
}

func (l *Leases) Checkpoint(id int) {
	l.mu.Lock()
	l.ttl[id]--
	l.mu.Unlock()
}

func (l *Leases) runCheckpoints() {
	l.mu.Lock() // want `double lock: \(\*a.Leases\).runCheckpoints locks \(a.Leases\).mu via .*Checkpoint while already holding it`
	for _, id := range l.queue {
		l.cp(id)
	}
	l.mu.Unlock()
}

type applier struct{ lessor *Leases }

func (a *applier) checkpoint(id int) { a.lessor.Checkpoint(id) }

func NewLeases() *Leases {
	l := &Leases{ttl: map[int]int{}}
	a := &applier{lessor: l}
	l.SetCheckpointer(a.checkpoint)
	go l.runCheckpoints()
	return l
}

// A BatchTx is locked through its interface; its commit calls hooks
// that read-lock the store, while the store's Compact locks the
// transaction holding the store's lock (etcd 8764).
type BatchTx interface {
	Lock()
	Unlock()
	Put(k string)
}

type Hooks interface{ OnPreCommit(tx BatchTx) }

type batchTx struct {
	sync.Mutex
	hooks   Hooks
	pending []string
}

func (t *batchTx) Put(k string) { t.pending = append(t.pending, k) }

func (t *batchTx) Commit() {
	t.Lock()
	t.hooks.OnPreCommit(t)
	t.pending = nil
	t.Unlock()
}

type KVStore struct {
	mu  sync.RWMutex
	tx  BatchTx
	rev int
}

type storeHooks struct{ s *KVStore }

func (h *storeHooks) OnPreCommit(tx BatchTx) {
	h.s.mu.RLock()
	tx.Put("rev")
	h.s.mu.RUnlock()
}

func (s *KVStore) Compact() {
	s.mu.Lock() // want `lock-order cycle: \(\*a.KVStore\).Compact acquires \(a.batchTx\).Mutex while holding \(a.KVStore\).mu`
	tx := s.tx
	tx.Lock()
	tx.Put("compact")
	tx.Unlock()
	s.mu.Unlock()
}

func NewKVStore() *KVStore {
	t := &batchTx{}
	s := &KVStore{tx: t}
	t.hooks = &storeHooks{s: s}
	go t.Commit()
	return s
}

// A FIFO's Pop waits on a Cond over its lock and calls process holding
// it; the informer's handler locks the informer, which holds its lock
// while it asks the queue (kubernetes 30872).
type FIFO struct {
	lock  sync.Mutex
	cond  sync.Cond
	items []int
}

func NewFIFO() *FIFO {
	f := &FIFO{}
	f.cond.L = &f.lock
	return f
}

func (f *FIFO) Len() int {
	f.lock.Lock()
	defer f.lock.Unlock()
	return len(f.items)
}

// A ProcessFunc handles an item a ItemQueue pops.
type ProcessFunc func(int)

// An ItemQueue is what an Informer reads from.
type ItemQueue interface {
	Pop(process ProcessFunc)
	Len() int
}

func (f *FIFO) Pop(process ProcessFunc) {
	f.lock.Lock()
	defer f.lock.Unlock()
	for len(f.items) == 0 {
		f.cond.Wait()
	}
	item := f.items[0]
	f.items = f.items[1:]
	process(item)
}

type Informer struct {
	mu       sync.Mutex
	fifo     ItemQueue
	clusters map[int]bool
}

func (in *Informer) run() {
	for {
		in.fifo.Pop(func(c int) {
			in.mu.Lock()
			in.clusters[c] = true
			in.mu.Unlock()
		})
	}
}

func NewInformer() *Informer {
	in := &Informer{fifo: NewFIFO(), clusters: map[int]bool{}}
	go in.run()
	return in
}

func (in *Informer) Synced() bool {
	in.mu.Lock() // want `lock-order cycle: \(\*a.Informer\).Synced acquires \(a.FIFO\).lock while holding \(a.Informer\).mu, but \(\*a.Informer\).run acquires \(a.Informer\).mu while holding \(a.FIFO\).lock`
	defer in.mu.Unlock()
	return in.fifo.Len() == 0
}
