package silent // want package:`orders\{silent.muA->silent.muB \(silent.buffered\).mu->\(silent.locked\).Mutex \(silent.locked\).Mutex->\(silent.buffered\).mu \(silent.Mirror\).mu->\(silent.Source\).mu \(silent.Ledger\).rw->\(silent.Ledger\).meta \(silent.Catalog\).schema->\(silent.Catalog\).tableA \(silent.Catalog\).schema->\(silent.Catalog\).tableB \(silent.Catalog\).tableA->\(silent.Catalog\).tableB \(silent.Catalog\).tableB->\(silent.Catalog\).tableA \(silent.Catalog\).tableB->\(silent.Catalog\).tableC \(silent.Catalog\).schema->\(silent.Catalog\).tableC \(silent.Catalog\).tableC->\(silent.Catalog\).tableA silent.catalogs->\(silent.Catalog\).tableA \(silent.Depot\).intake->\(silent.Depot\).shelf \(silent.Depot\).intake->\(silent.Depot\).bin \(silent.Depot\).shelf->\(silent.Depot\).bin \(silent.Depot\).audit->\(silent.Depot\).bin \(silent.Depot\).audit->\(silent.Depot\).crt \(silent.Depot\).bin->\(silent.Depot\).crt \(silent.Depot\).audit->\(silent.Depot\).shelf \(silent.Depot\).crt->\(silent.Depot\).shelf \(silent.Depot\).intake->\(silent.Depot\).crt \(silent.Venue\).mu->\(silent.Room\).mu \(silent.Room\).mu->\(silent.Seat\).mu \(silent.Seat\).mu->\(silent.Venue\).mu \(silent.Roster\).mu->\(silent.Entrant\).mu \(silent.Lane\).stateLock->\(silent.Mux\).muxLock \(silent.Mux\).muxLock->\(silent.Lane\).stateLock\}`

import (
	"errors"
	"sync"
	"unsafe"
)

// Consistent ordering: always A before B.

var muA, muB sync.Mutex

func first() {
	muA.Lock()
	defer muA.Unlock()
	muB.Lock()
	defer muB.Unlock()
}

func second() {
	muA.Lock()
	muB.Lock()
	muB.Unlock()
	muA.Unlock()
}

// Ordering two instances of one class by id.

type Account struct {
	id      int
	mu      sync.Mutex
	balance int
}

func Transfer(from, to *Account, n int) {
	if from.id < to.id {
		from.mu.Lock()
		to.mu.Lock()
	} else {
		to.mu.Lock()
		from.mu.Lock()
	}
	from.balance -= n
	to.balance += n
	from.mu.Unlock()
	to.mu.Unlock()
}

// A balance check, then the order decided by the instances' ids, or by
// their addresses.

func (a *Account) ID() int { return a.id }

func TransferChecked(from, to *Account, n int) bool {
	if from.balance < n {
		return false
	}
	first, second := from, to
	if to.ID() < from.ID() {
		first, second = to, from
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= n
	to.balance += n
	return true
}

func TransferByAddress(from, to *Account, n int) {
	if uintptr(unsafe.Pointer(from)) < uintptr(unsafe.Pointer(to)) {
		from.mu.Lock()
		if from.balance < n {
			from.mu.Unlock()
			return
		}
		to.mu.Lock()
	} else {
		to.mu.Lock()
		from.mu.Lock()
	}
	from.balance -= n
	to.balance += n
	from.mu.Unlock()
	to.mu.Unlock()
}

func TransferSwap(from, to *Account, n int) {
	first, second := from, to
	if second.id < first.id {
		first, second = second, first
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	from.balance -= n
	to.balance += n
}

// Lock, copy, unlock, then work on the copy.

type Registry struct {
	mu    sync.RWMutex
	names map[string]int
}

func (r *Registry) Snapshot() map[string]int {
	r.mu.RLock()
	cp := make(map[string]int, len(r.names))
	for k, v := range r.names {
		cp[k] = v
	}
	r.mu.RUnlock()
	return cp
}

func (r *Registry) Add(name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.names[name] = len(r.names)
}

// Initialisation under sync.Once.

var (
	once   sync.Once
	confMu sync.Mutex
	conf   map[string]string
)

func Config() map[string]string {
	once.Do(func() {
		confMu.Lock()
		conf = map[string]string{}
		confMu.Unlock()
	})
	return conf
}

// The mutex is released before the callbacks run.

type Bus struct {
	mu   sync.Mutex
	subs []func()
}

func (b *Bus) Subscribe(f func()) {
	b.mu.Lock()
	b.subs = append(b.subs, f)
	b.mu.Unlock()
}

func (b *Bus) Publish() {
	b.mu.Lock()
	subs := append([]func(){}, b.subs...)
	b.mu.Unlock()
	for _, f := range subs {
		f()
	}
}

func Wire(b *Bus) {
	b.Subscribe(func() {
		b.mu.Lock()
		b.mu.Unlock()
	})
	b.Publish()
}

// Lock helpers balanced by every caller.

type Store struct {
	mu   sync.Mutex
	data map[string]int
}

func (s *Store) lock()   { s.mu.Lock() }
func (s *Store) unlock() { s.mu.Unlock() }

func (s *Store) Put(k string, v int) {
	s.lock()
	defer s.unlock()
	s.data[k] = v
}

func (s *Store) Len() int {
	s.lock()
	n := len(s.data)
	s.unlock()
	return n
}

// Only called with s.mu held: no double lock, no leak.
func (s *Store) putLocked(k string, v int) { s.data[k] = v }

func (s *Store) PutTwo(k string, v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.putLocked(k, v)
	s.putLocked(k+"'", v)
}

// Read locks taken one after the other, never nested.

func (r *Registry) Both(a, b string) int {
	return r.get(a) + r.get(b)
}

func (r *Registry) get(k string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.names[k]
}

// TryLock does not block: no cycle, no double lock.

func TryBoth() bool {
	muB.Lock()
	defer muB.Unlock()
	if muA.TryLock() {
		muA.Unlock()
		return true
	}
	return false
}

// A conditional lock helper (last result bool) and the unlock it hands out.

func acquireIf(c bool) bool {
	if c {
		muA.Lock()
		return true
	}
	return false
}

func lockAndUnlocker(s *Store) func() {
	s.mu.Lock()
	return s.mu.Unlock
}

func useUnlocker(s *Store) {
	unlock := lockAndUnlocker(s)
	defer unlock()
	s.data["x"] = 1
}

func afterUnlocker(s *Store) {
	useUnlocker(s)
	s.mu.Lock() // the deferred unlock() released it
	s.mu.Unlock()
}

// Cond.Wait releases and re-acquires its lock.

type Pool struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

func NewPool() *Pool {
	p := &Pool{}
	p.cond = sync.NewCond(&p.mu)
	return p
}

func (p *Pool) Take() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.items) == 0 {
		p.cond.Wait()
	}
	v := p.items[0]
	p.items = p.items[1:]
	return v
}

// A lock held on success only, released by the caller.

type Conn struct {
	closemu sync.RWMutex
	done    bool
}

var errDone = errorString("done")

type errorString string

func (e errorString) Error() string { return string(e) }

func (c *Conn) grab() (*Conn, error) {
	c.closemu.RLock()
	if c.done {
		c.closemu.RUnlock()
		return nil, errDone
	}
	return c, nil
}

func (c *Conn) Use() error {
	x, err := c.grab()
	if err != nil {
		return err
	}
	defer c.closemu.RUnlock()
	_ = x
	return nil
}

func (c *Conn) Close() {
	c.closemu.Lock()
	c.done = true
	c.closemu.Unlock()
}

// Callbacks are analyzed per call: the one run under muS by callerTwo
// takes no lock.

var muS sync.Mutex

func run(f func()) { f() }

func callerOne() {
	run(func() {
		muS.Lock()
		muS.Unlock()
	})
}

func callerTwo() {
	muS.Lock()
	defer muS.Unlock()
	run(func() {})
}

// The lock is released around the callback (as go/token.FileSet.Iterate
// does) and taken again when it returns.

type Ints struct {
	mu    sync.RWMutex
	items []int
}

func each(xs []int, f func(int) bool) {
	for _, x := range xs {
		if !f(x) {
			return
		}
	}
}

func (s *Ints) Iterate(yield func(int) bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	each(s.items, func(x int) bool {
		s.mu.RUnlock()
		defer s.mu.RLock()
		return yield(x)
	})
}

func (s *Ints) Add(x int) {
	s.mu.Lock()
	s.items = append(s.items, x)
	s.mu.Unlock()
}

// The order of two instances is decided by the callers of lockBoth.

func lockBoth(first, second *Account) {
	first.mu.Lock()
	second.mu.Lock()
}

func TransferVia(from, to *Account, n int) {
	if from.id < to.id {
		lockBoth(from, to)
	} else {
		lockBoth(to, from)
	}
	from.balance -= n
	to.balance += n
	from.mu.Unlock()
	to.mu.Unlock()
}

// Hand-over-hand up a tree: the child, then its parent.

type Node struct {
	mu     sync.Mutex
	parent *Node
	n      int
}

func (n *Node) AddUp() {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.parent != nil {
		n.parent.mu.Lock()
		n.parent.n += n.n
		n.parent.mu.Unlock()
	}
}

// Decorators wrapping an interface value that comes from elsewhere: each
// holds its own lock while calling the next one, in whatever order the
// caller composed them.

type Handler interface{ Serve() }

type logged struct {
	mu   sync.Mutex
	next Handler
}

func (l *logged) Serve() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.next.Serve()
}

type counted struct {
	mu   sync.Mutex
	n    int
	next Handler
}

func (c *counted) Serve() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	c.next.Serve()
}

func Wrap(h Handler, log bool) Handler {
	if log {
		return &logged{next: h}
	}
	return &counted{next: h}
}

// Decorators whose wrapped value VTA can see: each locks its own mutex and
// calls the inner one through the interface. Only composing them both
// ways round could deadlock.

type Syncer interface{ Sync() }

type buffered struct {
	mu sync.Mutex
	ws Syncer
}

func (b *buffered) Sync() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ws.Sync()
}

type locked struct {
	sync.Mutex
	ws Syncer
}

func (l *locked) Sync() {
	l.Lock()
	l.ws.Sync()
	l.Unlock()
}

func Compose(s Syncer) Syncer {
	return &buffered{ws: &locked{ws: &buffered{ws: s}}}
}

// Unlocking before continue; locking once behind a flag.

type Queue struct {
	mu    sync.Mutex
	items []int
}

func (q *Queue) Drain(n int) {
	for i := 0; i < n; i++ {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.mu.Unlock()
			continue
		}
		q.items = q.items[1:]
		q.mu.Unlock()
	}
}

func (q *Queue) DrainLocked(n int) {
	locked := false
	for i := 0; i < n; i++ {
		if !locked {
			q.mu.Lock()
			locked = true
		}
		q.items = q.items[1:]
	}
	if locked {
		q.mu.Unlock()
	}
}

// Channel operations under a lock that their peers can complete.

type Pipe struct {
	mu   sync.Mutex
	ch   chan int
	buf  chan int
	done chan struct{}
	v    int
}

func NewPipe() *Pipe {
	return &Pipe{ch: make(chan int), buf: make(chan int, 8), done: make(chan struct{})}
}

// Put counts under the lock and sends after releasing it: Loop, which
// locks between receives, can always take the lock.
func (p *Pipe) Put(v int) {
	p.mu.Lock()
	p.v++
	p.mu.Unlock()
	p.ch <- v
}

func (p *Pipe) Loop() {
	for v := range p.ch {
		p.mu.Lock()
		p.v = v
		p.mu.Unlock()
	}
}

// A Relay's loop locks only for some values: a send holding the lock can
// be completed while the loop does not need it (not every path locks).
type Relay struct {
	mu sync.Mutex
	ch chan int
	n  int
}

func NewRelay() *Relay {
	r := &Relay{ch: make(chan int)}
	go r.loop()
	return r
}

func (r *Relay) loop() {
	for v := range r.ch {
		if v < 0 {
			r.mu.Lock()
			r.n = 0
			r.mu.Unlock()
		}
	}
}

func (r *Relay) Send(v int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ch <- v
}

// Take receives after releasing the lock.
func (p *Pipe) Take() int {
	p.mu.Lock()
	ch := p.ch
	p.mu.Unlock()
	return <-ch
}

// Queue sends on a buffered channel under the lock.
func (p *Pipe) Queue(v int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.buf <- v
}

func (p *Pipe) Drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.buf) > 0 {
		p.v += <-p.buf
	}
}

// Wait gives up when the pipe is closed.
func (p *Pipe) Wait() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case v := <-p.ch:
		return v
	case <-p.done:
		return 0
	}
}

// The callback runs after the lock is released.

type Notifier struct {
	mu      sync.Mutex
	onEvent func()
	n       int
}

func NewNotifier() *Notifier {
	b := &Notifier{}
	b.onEvent = func() { b.Count() }
	return b
}

func (b *Notifier) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

func (b *Notifier) Publish() {
	b.mu.Lock()
	b.n++
	b.mu.Unlock()
	b.onEvent()
}

// A delegate field set to values of other types.

type Getter interface{ Get() int }

type Source struct {
	mu sync.Mutex
	n  int
}

func (s *Source) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

type Mirror struct {
	mu sync.Mutex
	n  int
	g  Getter
}

func (m *Mirror) Get() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.n
}

func NewMirror(src *Source) *Mirror { return &Mirror{g: src} }

func (m *Mirror) Sync() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.n = m.g.Get()
}

// A method value of the owner stored in its field, called after the lock
// is released.
type Lessor struct {
	mu  sync.Mutex
	cp  func(id int)
	ids map[int]bool
}

func NewLessor() *Lessor {
	l := &Lessor{ids: map[int]bool{}}
	l.cp = l.checkpoint
	return l
}

func (l *Lessor) checkpoint(id int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ids[id] = true
}

func (l *Lessor) Renew(id int) {
	l.mu.Lock()
	due := len(l.ids) > 0
	l.mu.Unlock()
	if due {
		l.cp(id)
	}
}

// A lock handed to the goroutine that unlocks it is not leaked.
type Hub struct {
	mu   sync.Mutex
	subs []int
}

func (h *Hub) Subscribe() {
	h.mu.Lock()
	go func() {
		defer h.mu.Unlock()
		h.subs = append(h.subs, 1)
	}()
}

// A lock type's own RLock returns holding its inner lock on one path on
// purpose.
type BiasedMutex struct {
	rw   sync.RWMutex
	fast bool
}

func (m *BiasedMutex) RLock() bool {
	if m.fast {
		return true
	}
	m.rw.RLock()
	return false
}

func (m *BiasedMutex) RUnlock(fast bool) {
	if !fast {
		m.rw.RUnlock()
	}
}

// A distributed locker's Lock(key) and Unlock(key) are not sync.Locker's:
// the error path of Lock holds nothing.
type Locker interface {
	Lock(key string) error
	Unlock(key string) error
}

type Job struct{ locker Locker }

func (j *Job) Run(key string, f func()) error {
	if err := j.locker.Lock(key); err != nil {
		return err
	}
	f()
	return j.locker.Unlock(key)
}

// WithLocker sets the job's locker.
func WithLocker(l Locker) func(*Job) {
	return func(j *Job) { j.locker = l }
}

// A Ledger's Begin hands its writer lock to the transaction it returns:
// it is held on the nil-error return, also when Begin defers an Unlock
// of another lock (the results then pass through their slots).
type Ledger struct {
	rw, meta sync.Mutex
	open     bool
}

type LedgerTx struct{ s *Ledger }

func (s *Ledger) Begin() (*LedgerTx, error) {
	s.rw.Lock()
	s.meta.Lock()
	defer s.meta.Unlock()
	if !s.open {
		s.rw.Unlock()
		return nil, errors.New("closed")
	}
	return &LedgerTx{s}, nil
}

func (tx *LedgerTx) Commit() { tx.s.rw.Unlock() }
