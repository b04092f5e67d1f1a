package a // want package:`orders\{a.muA->a.muB .*\(b.Store\).mu->b.Mu .*a.muK->a.muJ .*a.muM->a.muL b.Mu->a.muN a.muN->b.Mu .*\}`

import (
	"b"
	"errors"
	"sync"
)

// A plain AB-BA cycle between two package locks.

var muA, muB sync.Mutex

func ab() {
	muA.Lock() // want `lock-order cycle: a.ab acquires a.muB while holding a.muA, but a.ba acquires a.muA while holding a.muB`
	muB.Lock()
	muB.Unlock()
	muA.Unlock()
}

func ba() {
	muB.Lock()
	muA.Lock()
	muA.Unlock()
	muB.Unlock()
}

// A cycle through call chains and defer.

type Bank struct {
	mu    sync.Mutex
	accts []*Account
}

type Account struct {
	mu      sync.Mutex
	balance int
}

func (bk *Bank) Total() int {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	t := 0
	for _, a := range bk.accts {
		t += a.Balance()
	}
	return t
}

func (a *Account) Balance() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.balance
}

func (a *Account) Audit(bk *Bank) int {
	a.mu.Lock() // want `lock-order cycle: \(\*a.Account\).Audit acquires \(a.Bank\).mu while holding \(a.Account\).mu, but \(\*a.Bank\).Total acquires \(a.Account\).mu while holding \(a.Bank\).mu`
	defer a.mu.Unlock()
	return bk.count()
}

func (bk *Bank) count() int {
	bk.mu.Lock()
	defer bk.mu.Unlock()
	return len(bk.accts)
}

// A lock helper that returns with its lock held.

var muC, muD sync.Mutex

func lockC() { muC.Lock() }

func helperOrder() {
	lockC() // want `lock-order cycle: a.helperOrder acquires a.muD while holding a.muC, but a.helperReverse acquires a.muC while holding a.muD`
	muD.Lock()
	muD.Unlock()
	muC.Unlock()
}

func helperReverse() {
	muD.Lock()
	lockC()
	muC.Unlock()
	muD.Unlock()
}

// A cycle through a method called on an interface.

type Notifier interface{ Notify() }

type logger struct{ mu sync.Mutex }

func (l *logger) Notify() {
	l.mu.Lock()
	l.mu.Unlock()
}

type Hub struct {
	mu sync.Mutex
	n  Notifier
}

func NewHub() (*Hub, *logger) {
	l := &logger{}
	return &Hub{n: l}, l
}

func (h *Hub) Publish() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n.Notify()
}

func (l *logger) Flush(h *Hub) {
	l.mu.Lock() // want `lock-order cycle: \(\*a.logger\).Flush acquires \(a.Hub\).mu while holding \(a.logger\).mu, but \(\*a.Hub\).Publish acquires \(a.logger\).mu while holding \(a.Hub\).mu`
	defer l.mu.Unlock()
	h.mu.Lock()
	h.mu.Unlock()
}

// Closures: called directly they run under the caller's locks; started
// by a go statement they start with none.

var muE, muF, muG, muH sync.Mutex

func closureOrder() {
	muE.Lock() // want `lock-order cycle: a.closureOrder acquires a.muF while holding a.muE, but a.closureReverse acquires a.muE while holding a.muF`
	f := func() {
		muF.Lock()
		muF.Unlock()
	}
	f()
	muE.Unlock()
}

func closureReverse() {
	muF.Lock()
	defer muF.Unlock()
	func() {
		muE.Lock()
		defer muE.Unlock()
	}()
}

func goStartsEmpty() {
	muG.Lock()
	go func() {
		muH.Lock()
		muH.Unlock()
	}()
	muG.Unlock()
}

func hThenG() {
	muH.Lock()
	muG.Lock()
	muG.Unlock()
	muH.Unlock()
}

// Two instances of one class nested without an order.

func transfer(from, to *Account, n int) {
	from.mu.Lock() // want `lock-order cycle: a.transfer locks to.mu \(\(a.Account\).mu\) while holding from.mu of the same class`
	defer from.mu.Unlock()
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
}

// Double locking, directly and through a call chain.

func (a *Account) Deposit(n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.balance += n
}

func (a *Account) DepositTwice(n int) {
	a.mu.Lock() // want `double lock: \(\*a.Account\).DepositTwice locks a.mu via \(\*a.Account\).Deposit while already holding it`
	defer a.mu.Unlock()
	a.Deposit(n)
}

var muI sync.Mutex

func relockAfterEarlyUnlock(c bool) {
	muI.Lock() // want `double lock: a.relockAfterEarlyUnlock locks a.muI while already holding it`
	if c {
		muI.Unlock()
		return
	}
	muI.Lock()
	muI.Unlock()
	muI.Unlock()
}

func suppressed() {
	muI.Lock() //nolint:lockorder // proves suppression works
	muI.Lock()
	muI.Unlock()
}

func suppressedIgnore() {
	muI.Lock() //confirm:ignore intended for the test
	muI.Lock()
	muI.Unlock()
}

// Recursive read locking while a writer may wait in between.

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[k]
}

func (c *Cache) Set(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func (c *Cache) GetBoth(k1, k2 string) int {
	c.mu.RLock() // want `recursive read lock: \(\*a.Cache\).GetBoth read-locks c.mu via \(\*a.Cache\).Get while already holding its read lock`
	defer c.mu.RUnlock()
	return c.m[k1] + c.Get(k2)
}

func (c *Cache) ViaRLocker(k string) int {
	l := c.mu.RLocker()
	l.Lock() // want `recursive read lock: \(\*a.Cache\).ViaRLocker read-locks c.mu via \(\*a.Cache\).Get`
	defer l.Unlock()
	return c.Get(k)
}

type Queue struct {
	mu    sync.RWMutex
	cond  *sync.Cond
	items []int
}

func NewQueue() *Queue {
	q := &Queue{}
	q.cond = sync.NewCond(q.mu.RLocker())
	return q
}

func (q *Queue) size() int {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return len(q.items)
}

func (q *Queue) Peek() int {
	q.cond.L.Lock() // want `recursive read lock: \(\*a.Queue\).Peek read-locks q.mu via \(\*a.Queue\).size`
	defer q.cond.L.Unlock()
	return q.size()
}

func (q *Queue) Push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	q.cond.Broadcast()
}

// Leaked locks.

var errMissing = errors.New("missing")

func (c *Cache) Lookup(k string) (int, error) {
	c.mu.RLock() // want `lock leak: \(\*a.Cache\).Lookup returns with \(a.Cache\).mu still held on this path but not on others \(missing RUnlock\?\)`
	v, ok := c.m[k]
	if !ok {
		return 0, errMissing
	}
	c.mu.RUnlock()
	return v, nil
}

func leakViaHelper(fail bool) error {
	lockC() // want `lock leak: a.leakViaHelper returns with a.muC still held`
	if fail {
		return errMissing
	}
	muC.Unlock()
	return nil
}

// Across packages: b's edge b.Mu -> (b.Store).mu and a's reverse edge;
// b's helpers and writer.

func crossCycle(s *b.Store) {
	s.Lock() // want `lock-order cycle: a.crossCycle acquires b.Mu while holding \(b.Store\).mu, but \(\*b.Store\).Sync acquires \(b.Store\).mu while holding b.Mu`
	b.LockMu()
	b.UnlockMu()
	s.Unlock()
}

func crossDouble() {
	b.LockMu() // want `double lock: a.crossDouble locks b.Mu via b.LockMu while already holding it`
	b.LockMu()
	b.UnlockMu()
}

func crossRWR() int {
	b.RW.RLock() // want `recursive read lock: a.crossRWR read-locks b.RW via b.ReadRW`
	defer b.RW.RUnlock()
	return b.ReadRW()
}

// Callbacks run under the locks of the function that calls them, in the
// context of each call.

var muJ, muK sync.Mutex

func withJ(f func()) {
	muJ.Lock()
	defer muJ.Unlock()
	f()
}

func callbackOrder() {
	withJ(func() { // want `lock-order cycle: a.callbackOrder acquires a.muK while holding a.muJ, but a.kThenJ acquires a.muJ while holding a.muK`
		muK.Lock()
		muK.Unlock()
	})
}

func kThenJ() {
	muK.Lock()
	defer muK.Unlock()
	withJ(func() {})
}

func callbackDouble() {
	withJ(func() { // want `double lock: a.callbackDouble locks a.muJ via a.withJ -> a.callbackDouble\$1 while already holding it`
		muJ.Lock()
		muJ.Unlock()
	})
}

// A goroutine's own lock order counts like any function's.

var muL, muM sync.Mutex

func spawn() {
	go func() {
		muL.Lock() // want `lock-order cycle: a.spawn\$1 acquires a.muM while holding a.muL, but a.mThenL acquires a.muL while holding a.muM`
		muM.Lock()
		muM.Unlock()
		muL.Unlock()
	}()
}

func mThenL() {
	muM.Lock()
	muL.Lock()
	muL.Unlock()
	muM.Unlock()
}

// A callback run under a lock of another package (ParamCalls in b's
// summary fact).

var muN sync.Mutex

func underB() {
	b.WithMu(func() {
		muN.Lock()
		muN.Unlock()
	})
}

func nThenB() {
	muN.Lock() // want `lock-order cycle: a.nThenB acquires b.Mu while holding a.muN, but a.underB acquires a.muN while holding b.Mu`
	b.LockMu()
	b.UnlockMu()
	muN.Unlock()
}

// A comparison that involves one instance only (a balance check before
// the second lock) does not decide an order.

func transferChecked(from, to *Account, n int) bool {
	from.mu.Lock() // want `lock-order cycle: a.transferChecked locks to.mu \(\(a.Account\).mu\) while holding from.mu of the same class`
	defer from.mu.Unlock()
	if from.balance < n {
		return false
	}
	to.mu.Lock()
	defer to.mu.Unlock()
	from.balance -= n
	to.balance += n
	return true
}

// A continue that skips the Unlock: the next iteration locks again.

type Queue2 struct {
	mu    sync.Mutex
	items []int
}

func (q *Queue2) Drain(n int) {
	for i := 0; i < n; i++ {
		q.mu.Lock() // want `double lock: \(\*a.Queue2\).Drain locks q.mu again while the path through line \d+ still holds it \(a continue, break or branch that skips the Unlock\?\)`
		if len(q.items) == 0 {
			continue
		}
		q.items = q.items[1:]
		q.mu.Unlock()
	}
}

// A lock deferred in a loop body is held until the function returns.

func (q *Queue2) DrainDeferred(n int) {
	for i := 0; i < n; i++ {
		q.mu.Lock() // want `double lock: \(\*a.Queue2\).DrainDeferred locks q.mu again while the path through line \d+ still holds it`
		defer q.mu.Unlock()
		q.items = q.items[1:]
	}
}

// A lock held across a channel operation whose peer needs the lock.

type Pipe struct {
	mu   sync.Mutex
	ch   chan int
	done chan struct{}
	v    int
}

func NewPipe() *Pipe {
	return &Pipe{ch: make(chan int), done: make(chan struct{})}
}

func (p *Pipe) Put(v int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ch <- v
}

func (p *Pipe) Take() {
	p.mu.Lock() // want `lock held across a channel receive: \(\*a.Pipe\).Take receives from p.ch holding p.mu, and every send and close on \(a.Pipe\).ch \(\(\*a.Pipe\).Put\) holds \(a.Pipe\).mu too`
	p.v = <-p.ch
	p.mu.Unlock()
}

func (p *Pipe) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done <- struct{}{}
}

func (p *Pipe) wait() {
	p.mu.Lock() // want `lock held across a channel receive: \(\*a.Pipe\).wait receives from p.done holding p.mu, and every send and close on \(a.Pipe\).done \(\(\*a.Pipe\).Stop\) holds \(a.Pipe\).mu too`
	defer p.mu.Unlock()
	for range p.done {
		p.v++
	}
}

// A loop that locks between receives: a second Publish, holding the lock,
// waits for the loop, which waits for the lock.
type Feed struct {
	mu sync.Mutex
	ch chan int
	n  int
}

func NewFeed() *Feed {
	f := &Feed{ch: make(chan int)}
	go f.loop()
	return f
}

func (f *Feed) loop() {
	for v := range f.ch {
		f.mu.Lock()
		f.n += v
		f.mu.Unlock()
	}
}

func (f *Feed) Publish(v int) {
	f.mu.Lock() // want `lock held across a channel send: \(\*a.Feed\).Publish sends on f.ch holding f.mu, and every receive on \(a.Feed\).ch \(\(\*a.Feed\).loop\) locks \(a.Feed\).mu before the next one`
	defer f.mu.Unlock()
	f.ch <- v
}

// A callback stored in a field of the value it captures, called while
// that value's lock is held.

type Bus struct {
	mu      sync.Mutex
	onEvent func()
	n       int
}

func NewBus() *Bus {
	b := &Bus{}
	b.onEvent = func() { b.Count() }
	return b
}

func (b *Bus) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n
}

func (b *Bus) Publish() {
	b.mu.Lock() // want `double lock: \(\*a.Bus\).Publish locks b.mu via a.NewBus\$1 -> \(\*a.Bus\).Count while already holding it`
	defer b.mu.Unlock()
	b.n++
	b.onEvent()
}

// A method value of the owner stored in its field, called under the
// owner's lock.
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
	l.mu.Lock() // want `double lock: \(\*a.Lessor\).Renew locks l.mu via method value \(\*a.Lessor\).checkpoint -> \(\*a.Lessor\).checkpoint while already holding it`
	defer l.mu.Unlock()
	l.cp(id)
}

// A delegate field that only ever holds its owner, called under the
// owner's lock; a lock released by a closure deferred through another.

type Getter interface{ Get() int }

type Store struct {
	mu sync.Mutex
	n  int
	g  Getter
}

func NewStore() *Store {
	s := &Store{}
	s.g = s
	return s
}

func (s *Store) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *Store) Sync() {
	s.mu.Lock() // want `double lock: \(\*a.Store\).Sync locks s.mu via \(\*a.Store\).Get while already holding it`
	defer s.mu.Unlock()
	s.n = s.g.Get()
}

func (s *Store) Update() {
	s.mu.Lock() // want `double lock: \(\*a.Store\).Update locks s.mu via \(\*a.Store\).Get while already holding it`
	unlock := func() { s.mu.Unlock() }
	defer func() { unlock() }()
	s.n = s.Get()
}
