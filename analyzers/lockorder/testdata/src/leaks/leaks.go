package leaks

import (
	"errors"
	"sync"
)

var errClosed = errors.New("closed")

// A lock taken in a loop and still held on a break out of it: the paths
// merge before the one return, so no return holds it on every path
// (cockroach584).

type Gossip struct {
	mu     sync.Mutex
	closed bool
	n      int
}

func (g *Gossip) bootstrap() {
	for {
		g.mu.Lock() // want `lock leak: \(\*leaks.Gossip\).bootstrap returns with \(leaks.Gossip\).mu still held on the path through line \d+ but not on others: it is not held on every path through here \(at line \d+, where the paths merge before the return; missing Unlock\?\)`
		if g.closed {
			break
		}
		g.mu.Unlock()
		break
	}
	g.n++
}

// Its twin unlocks before the break.
func (g *Gossip) bootstrapFixed() {
	for {
		g.mu.Lock()
		if g.closed {
			g.mu.Unlock()
			break
		}
		g.mu.Unlock()
		break
	}
	g.n++
}

// Locked under a condition, released under the same condition: silent.
func (g *Gossip) count(lock bool) {
	if lock {
		g.mu.Lock()
	}
	g.n++
	if lock {
		g.mu.Unlock()
	}
}

func (g *Gossip) countIfPositive(d int) {
	if d > 0 {
		g.mu.Lock()
	}
	g.n += d
	if d > 0 {
		g.mu.Unlock()
	}
}

// A TryLock tested twice: silent.
func (g *Gossip) poll() {
	locked := g.mu.TryLock()
	if locked {
		g.n++
	}
	if locked {
		g.mu.Unlock()
	}
}

// A deferred Unlock registered on the path that locks: silent.
func (g *Gossip) maybe(c bool) {
	if c {
		g.mu.Lock()
		defer g.mu.Unlock()
	}
	g.n++
}

func (g *Gossip) Manage() {
	g.bootstrap()
	g.bootstrapFixed()
	g.count(true)
	g.countIfPositive(1)
	g.maybe(true)
	g.poll()
	g.mu.Lock()
	g.mu.Unlock()
}

// A function returning a nil error still holding its lock, where no
// caller ever releases it: not a lock helper but a leak (moby17176).

type DeviceSet struct {
	mu      sync.Mutex
	deleted int
}

func (d *DeviceSet) cleanupDeleted() error {
	d.mu.Lock() // want `lock leak: \(\*leaks.DeviceSet\).cleanupDeleted returns with \(leaks.DeviceSet\).mu still held on this path but not on others, and no caller in the package releases it \(missing Unlock\?\)`
	if d.deleted == 0 {
		return nil
	}
	d.mu.Unlock()
	return errClosed
}

func (d *DeviceSet) Cleanup() {
	_ = d.cleanupDeleted()
	go func() {
		d.mu.Lock()
		d.mu.Unlock()
	}()
}

// A function holding its lock on its only return, an endless loop's
// exit, where no caller ever releases it (etcd5509); its callers, which
// return holding it too, are not reported again.

type Remote struct {
	mu     sync.RWMutex
	closed bool
}

func (r *Remote) acquire() error {
	for {
		r.mu.RLock() // want `lock leak: \(\*leaks.Remote\).acquire returns with \(leaks.Remote\).mu still held on every path, and no caller in the package releases it \(missing RUnlock\?\)`
		if r.closed {
			return errClosed
		}
		r.mu.RUnlock()
	}
}

func (r *Remote) Get() error { return r.acquire() }

func (r *Remote) Close() {
	r.mu.Lock()
	r.closed = true
	r.mu.Unlock()
}

// The twins: lock helpers whose callers release what they return holding.

type Pool struct {
	mu     sync.RWMutex
	closed bool
	n      int
}

// acquire holds the read lock on every return; Get releases it.
func (p *Pool) acquire() error {
	for {
		p.mu.RLock()
		if p.closed {
			return errClosed
		}
		p.mu.RUnlock()
	}
}

func (p *Pool) Get() error {
	err := p.acquire()
	defer p.mu.RUnlock()
	return err
}

// reserve holds the lock on success; Put releases it through release.
func (p *Pool) reserve() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errClosed
	}
	return nil
}

func (p *Pool) release() { p.mu.Unlock() }

func (p *Pool) Put() error {
	if err := p.reserve(); err != nil {
		return err
	}
	defer p.release()
	p.n++
	return nil
}

// lock is a plain lock helper.
type Table struct {
	mu   sync.Mutex
	rows int
}

func (t *Table) lock() { t.mu.Lock() }

func (t *Table) Add() {
	t.lock()
	t.rows++
	t.mu.Unlock()
}

// An exported mutex an importer may release: LockRows hands it to its
// caller on success.
type Sheet struct {
	sync.Mutex
	rows int
}

func (s *Sheet) LockRows() error {
	s.Lock()
	if s.rows == 0 {
		s.Unlock()
		return errClosed
	}
	return nil
}

// A lock per key, released through a comma-ok lookup by unlock: lock is a
// lock helper, not a leak. unlock read-locks the table before it releases
// the key's lock, so a caller holding the key's lock orders the table
// after it, against lock's order (hugo3251).
type keyLocks struct {
	mu sync.RWMutex
	m  map[string]*sync.Mutex
}

func (l *keyLocks) lock(k string) {
	l.mu.Lock()
	if _, ok := l.m[k]; !ok {
		l.m[k] = &sync.Mutex{}
	}
	l.m[k].Lock()
	l.mu.Unlock()
}

func (l *keyLocks) unlock(k string) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if m, ok := l.m[k]; ok {
		m.Unlock()
	}
}

func fetch(l *keyLocks, k string) {
	l.lock(k) // want `lock-order cycle: leaks.fetch acquires \(leaks.keyLocks\).mu while holding \(leaks.keyLocks\).m\[\], but \(\*leaks.keyLocks\).lock acquires \(leaks.keyLocks\).m\[\] while holding \(leaks.keyLocks\).mu`
	defer l.unlock(k)
}

// Its twin takes the key's lock after releasing the table's.
type keyLocks2 struct {
	mu sync.RWMutex
	m  map[string]*sync.Mutex
}

func (l *keyLocks2) lock(k string) {
	l.mu.Lock()
	m, ok := l.m[k]
	if !ok {
		m = &sync.Mutex{}
		l.m[k] = m
	}
	l.mu.Unlock()
	m.Lock()
}

func (l *keyLocks2) unlock(k string) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if m, ok := l.m[k]; ok {
		m.Unlock()
	}
}

func fetch2(l *keyLocks2, k string) {
	l.lock(k)
	defer l.unlock(k)
}

// addLocked releases its caller's lock, then may run a check that locks
// it again and releases it: Add does not return holding it, and Value,
// which calls Add on one path, leaks nothing (cache2go's addInternal).
type Cache struct {
	mu    sync.Mutex
	items map[string]int
	full  bool
}

func (c *Cache) check() {
	c.mu.Lock()
	c.full = len(c.items) > 8
	c.mu.Unlock()
}

func (c *Cache) addLocked(k string) {
	c.items[k] = 1
	c.mu.Unlock()
	if len(k) > 3 {
		c.check()
	}
}

func (c *Cache) Add(k string) {
	c.mu.Lock()
	c.addLocked(k)
}

func (c *Cache) Value(k string) int {
	c.mu.Lock()
	v, ok := c.items[k]
	c.mu.Unlock()
	if !ok {
		c.Add(k)
		return 0
	}
	return v
}

// A lock type of the package whose TryLock and Unlock wrap an inner
// mutex: a TryLock that succeeds in a loop, then Unlock, leaks nothing
// (xsync's RBMutex).
type BiasedLock struct{ rw sync.RWMutex }

func newBiasedLock() *BiasedLock { return &BiasedLock{} }

func (m *BiasedLock) TryLock() bool { return m.rw.TryLock() }
func (m *BiasedLock) Lock()         { m.rw.Lock() }
func (m *BiasedLock) Unlock()       { m.rw.Unlock() }

func Spin(n int) int {
	mu := newBiasedLock()
	count := 0
	for i := 0; i < n; i++ {
		if mu.TryLock() {
			count++
			mu.Unlock()
		}
	}
	return count
}

// A Breakers registry looks a name up under the read lock and, when it
// is missing, trades it for the write lock to create it: each branch
// defers the release of the mode it holds. No leak.
type Breakers struct {
	mu sync.RWMutex
	m  map[string]int
}

// Get returns the breaker named name, creating it.
func (b *Breakers) Get(name string) int {
	b.mu.RLock()
	_, ok := b.m[name]
	if !ok {
		b.mu.RUnlock()
		b.mu.Lock()
		defer b.mu.Unlock()
		if v, ok := b.m[name]; ok {
			return v
		}
		b.m[name] = len(b.m)
	} else {
		defer b.mu.RUnlock()
	}
	return b.m[name]
}

// Peek forgets the release on the branch that finds the name.
func (b *Breakers) Peek(name string) int {
	b.mu.RLock() // want `lock leak: \(\*leaks.Breakers\).Peek returns with \(leaks.Breakers\).mu still held`
	_, ok := b.m[name]
	if !ok {
		b.mu.RUnlock()
		b.mu.Lock()
		defer b.mu.Unlock()
		b.m[name] = len(b.m)
	}
	return b.m[name]
}
