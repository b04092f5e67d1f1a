// Package counter holds the lock-discipline fixtures of the race analyzer:
// fields whose guarding lock is inferred from the code.
package counter

import (
	"sort"
	"sync"
	"sync/atomic"
)

// Counter guards n with mu; Peek forgets to lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

// NewCounter initialises n before c escapes: not a race.
func NewCounter(start int) *Counter {
	c := &Counter{}
	c.n = start
	c.init()
	c.n++
	return c
}

func (c *Counter) init() {}

func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *Counter) Add(d int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n += d
}

func (c *Counter) Peek() int {
	return c.n // want `possible data race: \(\*counter.Counter\).Peek reads \(counter.Counter\).n without holding \(counter.Counter\).mu`
}

// Snapshot copies n under the lock and uses the copy afterwards: not a race.
func (c *Counter) Snapshot() int {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	return v * 2
}

// Reset writes n without the lock.
func (c *Counter) Reset() {
	c.n = 0 // want `possible data race: \(\*counter.Counter\).Reset writes \(counter.Counter\).n without holding \(counter.Counter\).mu`
}

// Debug reads n without the lock on purpose; both findings are
// suppressed, with //nolint on the line and //confirm:ignore above it.
func (c *Counter) Debug() (int, int) {
	a := c.n //nolint:race // approximate value is fine here
	//confirm:ignore benign read for logging
	b := c.n
	return a, b
}

// withLock runs f with c.mu held.
func (c *Counter) withLock(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f()
}

// Double runs a callback under the lock: not a race.
func (c *Counter) Double() {
	c.withLock(func() {
		c.n *= 2
	})
}

// Find searches under the lock with a closure that sort.Search calls
// synchronously: not a race.
func (c *Counter) Find(xs []int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return sort.Search(len(xs), func(i int) bool { return xs[i] >= c.n })
}

// Pair guards a with mu1 but b is touched under two different locks.
type Pair struct {
	mu1 sync.Mutex
	mu2 sync.Mutex
	a   int
	b   int
}

func (p *Pair) SetB(v int) {
	p.mu1.Lock()
	p.b = v
	p.a = v
	p.mu1.Unlock()
}

func (p *Pair) GetB() int {
	p.mu1.Lock()
	defer p.mu1.Unlock()
	return p.b
}

func (p *Pair) BumpB() {
	p.mu2.Lock()
	p.b++ // want `possible data race: \(\*counter.Pair\).BumpB writes \(counter.Pair\).b holding \(counter.Pair\).mu2, but .* holding \(counter.Pair\).mu1; the locksets do not intersect`
	p.mu2.Unlock()
}

func (p *Pair) GetA() int {
	p.mu1.Lock()
	defer p.mu1.Unlock()
	return p.a
}

// Hits uses atomics only: not a race.
type Hits struct {
	mu    sync.Mutex
	total int64
	n     atomic.Int64
	name  string
}

func (h *Hits) Hit() {
	atomic.AddInt64(&h.total, 1)
	h.n.Add(1)
}

func (h *Hits) Total() int64 {
	return atomic.LoadInt64(&h.total) + h.n.Load()
}

func (h *Hits) Rename(s string) {
	h.mu.Lock()
	h.name = s
	h.mu.Unlock()
}

func (h *Hits) Name() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.name
}

// Notifier releases its mutex before running the callback: not a race.
type Notifier struct {
	mu    sync.Mutex
	subs  []func(int)
	count int
}

func (n *Notifier) Subscribe(f func(int)) {
	n.mu.Lock()
	n.subs = append(n.subs, f)
	n.mu.Unlock()
}

func (n *Notifier) Notify() {
	n.mu.Lock()
	subs := n.subs
	n.count++
	c := n.count
	n.mu.Unlock()
	for _, f := range subs {
		f(c)
	}
}

// Registry protects its map with a read-write mutex.
type Registry struct {
	mu    sync.RWMutex
	names map[string]int
}

func (r *Registry) Lookup(k string) int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.names[k]
}

func (r *Registry) Set(k string, v int) {
	r.mu.Lock()
	r.names[k] = v
	r.mu.Unlock()
}

func (r *Registry) Replace(m map[string]int) {
	r.mu.Lock()
	r.names = m
	r.mu.Unlock()
}

// Touch writes the map under the read lock: other readers race with it.
func (r *Registry) Touch(k string) {
	r.mu.RLock()
	r.names[k]++ // want `possible data race: \(\*counter.Registry\).Touch writes map contents of \(counter.Registry\).names holding only the read lock of \(counter.Registry\).mu; \(\*counter.Registry\).Lookup reads it holding \(counter.Registry\).mu \(read\)`
	r.mu.RUnlock()
}

// Snapshots copies the last registry of list under its read lock into a
// registry it makes: the writes are to the copy, not under the read lock
// of the registry they write. Silent.
func Snapshots(list []*Registry) []*Registry {
	out := make([]*Registry, len(list))
	copy(out, list)
	n := len(list) - 1
	out[n] = &Registry{}
	cp := out[n]
	last := list[n]
	last.mu.RLock()
	cp.names = make(map[string]int, len(last.names))
	for k, v := range last.names {
		cp.names[k] = v
	}
	last.mu.RUnlock()
	return out
}

// A Cache hands out nodes it finds under its read lock. What orders the
// writes of a node's value is the node's own protocol (a reference the
// caller holds), not the cache's lock.
type Cache struct {
	mu    sync.RWMutex
	nodes map[string]*node
}

type node struct{ value int }

// Fill writes a node it found under the cache's read lock: the read lock
// is the cache's, not the node's. Silent.
func (c *Cache) Fill(k string, v int) {
	c.mu.RLock()
	n := c.nodes[k]
	n.value = v
	c.mu.RUnlock()
}

// Drop writes a node under the same read lock. Silent.
func (c *Cache) Drop(k string) {
	c.mu.RLock()
	n := c.nodes[k]
	n.value = 0
	c.mu.RUnlock()
}

// Peek reads a node under the cache's lock.
func (c *Cache) Peek(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[k].value
}

// locked is an unexported helper that is only called with r.mu held.
func (r *Registry) locked() int {
	return len(r.names)
}

func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.locked()
}

// Global state guarded by a package-level mutex.
var (
	mu    sync.Mutex
	total int
)

func AddTotal(n int) {
	mu.Lock()
	total += n
	mu.Unlock()
}

func Total() int {
	mu.Lock()
	defer mu.Unlock()
	return total
}

func ResetTotal() {
	total = 0 // want `possible data race: counter.ResetTotal writes counter.total without holding counter.mu`
}

// Lazy creates its tables once, without the mutex that guards them
// afterwards: sync.Once orders the initialisation. Not a race.
type Lazy struct {
	mu    sync.Mutex
	once  sync.Once
	table map[string]int
	names map[string]string
}

func (l *Lazy) init() {
	l.names = map[string]string{}
}

func (l *Lazy) setup() {
	l.once.Do(func() {
		l.table = map[string]int{}
	})
	l.once.Do(l.init)
}

func (l *Lazy) Get(k string) (int, string) {
	l.setup()
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.table[k], l.names[k]
}

func (l *Lazy) Put(k string, v int) {
	l.setup()
	l.mu.Lock()
	l.table[k] = v
	l.names[k] = k
	l.mu.Unlock()
}

// acquire returns with c.mu held only when ok: the lockset cannot follow,
// but incLocked's name says it runs under the lock. Not reported.
func (c *Counter) acquire(ok bool) bool {
	c.mu.Lock()
	if !ok {
		c.mu.Unlock()
	}
	return ok
}

func (c *Counter) incLocked() {
	c.n++
}

func (c *Counter) TryInc(ok bool) {
	if c.acquire(ok) {
		c.incLocked()
		c.mu.Unlock()
	}
}

// Index reads the size of its map without the lock that guards its
// writes: len(m) races with m[k] = v.
type Index struct {
	mu    sync.Mutex
	items map[string]int
}

func (r *Index) Set(k string, v int) {
	r.mu.Lock()
	r.items[k] = v
	r.mu.Unlock()
}

func (r *Index) Get(k string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.items[k]
}

func (r *Index) Len() int {
	return len(r.items) // want `possible data race: \(\*counter.Index\).Len reads map contents of \(counter.Index\).items without holding \(counter.Index\).mu`
}

// A Conn's greeting reads the session without the lock, then sets it
// through a locked helper of its own: the helper runs on the greeting's
// goroutine, and the report names Close's write, which may run beside it.
type Conn struct {
	mu      sync.Mutex
	session *string
}

func (c *Conn) setSession(s *string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session = s
}

func (c *Conn) Session() *string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.session
}

func (c *Conn) Greet(name string) {
	if c.session != nil { // want `possible data race: \(\*counter.Conn\).Greet reads \(counter.Conn\).session without holding \(counter.Conn\).mu; \(\*counter.Conn\).Close writes it`
		return
	}
	c.setSession(&name)
}

func (c *Conn) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session = nil
}
