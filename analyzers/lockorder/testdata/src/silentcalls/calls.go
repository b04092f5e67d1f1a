package silentcalls // want package:`orders\{\(silentcalls.batchTx\).Mutex->\(silentcalls.KVStore\).mu \(silentcalls.Informer\).mu->\(silentcalls.FIFO\).lock\}`

import (
	"context"
	"sync"
)

// As a.Leases, a.KVStore and a.FIFO, each releasing its lock before the
// call that takes the other: the Leases value calls its checkpointer
// after Unlock.
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
	l.mu.Lock()
	ids := append([]int(nil), l.queue...)
	cp := l.cp
	l.mu.Unlock()
	for _, id := range ids {
		cp(id)
	}
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

// Compact locks the transaction after it released the store.
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
	s.mu.Lock()
	tx := s.tx
	s.rev++
	s.mu.Unlock()
	tx.Lock()
	tx.Put("compact")
	tx.Unlock()
}

func NewKVStore() *KVStore {
	t := &batchTx{}
	s := &KVStore{tx: t}
	t.hooks = &storeHooks{s: s}
	go t.Commit()
	return s
}

// Pop calls process without the lock.
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
	f.lock.Unlock()
	process(item)
	f.lock.Lock()
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
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.fifo.Len() == 0
}

// A Conn reads through an interface while it holds its lock; the
// reader it installs enqueues a reply, locking the Conn only when asked
// to, and the read under the lock does not ask (nats' websocket reader).
type Reader interface{ Read() int }

type Conn struct {
	mu      sync.Mutex
	br      *bufReader
	pending []int
}

type bufReader struct{ r Reader }

func (b *bufReader) next() int { return b.r.Read() }

type wsReader struct {
	nc *Conn
	nl bool
}

func (w *wsReader) Read() int {
	w.nc.enqueue(w.nl, 1)
	return 1
}

func (nc *Conn) enqueue(needsLock bool, v int) {
	if needsLock {
		nc.mu.Lock()
		defer nc.mu.Unlock()
	}
	nc.pending = append(nc.pending, v)
}

func (nc *Conn) Connect() int {
	nc.mu.Lock()
	defer nc.mu.Unlock()
	nc.br = &bufReader{r: &wsReader{nc: nc}}
	return nc.br.next()
}

// As a.Pool, releasing the read lock before returning the context's
// error.
type Pool struct {
	mu   sync.RWMutex
	conn int
}

func (p *Pool) acquire(ctx context.Context) error {
	for {
		p.mu.RLock()
		if p.conn != 0 {
			return nil
		}
		p.mu.RUnlock()
		if err := ctx.Err(); err != nil {
			return err
		}
	}
}

func (p *Pool) release() { p.mu.RUnlock() }

func (p *Pool) Get(ctx context.Context) (int, error) {
	if err := p.acquire(ctx); err != nil {
		return 0, err
	}
	defer p.release()
	return p.conn, nil
}
