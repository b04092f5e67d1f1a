// Package published holds memory that is written without its lock only
// before it is published, or only where every caller holds the lock: the
// shapes of real code that a lock-discipline check must not report. The
// last functions are the racy twins, which it must.
package published

import "sync"

// A Cache is built by New, which calls init before anyone else can see
// it; Purge calls init again under the lock.
type Cache struct {
	mu    sync.Mutex
	items map[string]int
	order []string
}

// New returns an empty cache.
func New() *Cache {
	c := &Cache{}
	c.init()
	return c
}

func (c *Cache) init() {
	c.items = make(map[string]int)
	c.order = nil
}

// Purge empties the cache.
func (c *Cache) Purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.init()
}

// Set stores v.
func (c *Cache) Set(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = v
	c.order = append(c.order, k)
}

// Len counts the items.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.order)
}

// An item has an exported method, but its type is unexported: only the
// cache calls it, under its lock.
type item struct {
	expires int
}

// Expired reports whether the item expired at now.
func (it *item) Expired(now int) bool { return it.expires < now }

// A Store keeps items under its lock.
type Store struct {
	mu    sync.Mutex
	items map[string]*item
}

// Get reports whether k is there and not expired.
func (s *Store) Get(k string, now int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.items[k]
	return ok && !it.Expired(now)
}

// Touch extends k.
func (s *Store) Touch(k string, until int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if it, ok := s.items[k]; ok {
		it.expires = until
	}
}

// Shards builds n shards, each new and published in the loop.
func Shards(n int) []*Cache {
	out := make([]*Cache, n)
	for i := range out {
		c := &Cache{items: map[string]int{}}
		out[i] = c
	}
	return out
}

// A Pool of generic resources; create must be called with mu held.
type Pool[T any] struct {
	mu    sync.Mutex
	count int
	all   []*Res[T]
}

// A Res is a resource.
type Res[T any] struct {
	n int
	v T
}

func (p *Pool[T]) create() *Res[T] {
	r := &Res[T]{n: p.count}
	p.all = append(p.all, r)
	return r
}

// Acquire creates a resource.
func (p *Pool[T]) Acquire() *Res[T] {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.create()
}

// AcquireAsync creates a resource and numbers it in a goroutine.
func (p *Pool[T]) AcquireAsync() {
	p.mu.Lock()
	r := p.create()
	p.mu.Unlock()
	go func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		r.n = p.count
	}()
}

// Reset counts a reset.
func (p *Pool[T]) Reset() {
	p.mu.Lock()
	p.count++
	p.mu.Unlock()
}

// Count reads count without the lock: the racy twin.
func (p *Pool[T]) Count() int {
	return p.count // want `possible data race: \(\*published.Pool\[T\]\).Count reads \(published.Pool\).count without holding \(published.Pool\).mu`
}

// Peek reads the order without the lock: the racy twin of Len.
func (c *Cache) Peek() []string {
	return c.order // want `possible data race: \(\*published.Cache\).Peek reads \(published.Cache\).order without holding \(published.Cache\).mu`
}

// A Public cache is an unexported one, embedded: the unexported type's
// exported methods are Public's, called by other packages.
type Public struct{ *inner }

type inner struct {
	mu      sync.Mutex
	hook    func()
	entries map[string]int
}

// SetHook sets the hook under the lock.
func (c *inner) SetHook(f func()) {
	c.mu.Lock()
	c.hook = f
	c.mu.Unlock()
}

// Hooked reports whether a hook is set, under the lock.
func (c *inner) Hooked() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hook != nil
}

// Put stores under the lock.
func (c *inner) Put(k string) {
	c.mu.Lock()
	c.entries[k]++
	c.mu.Unlock()
}

// Drop reads the hook after the lock: a race, though inner is unexported.
func (c *inner) Drop(k string) {
	c.mu.Lock()
	delete(c.entries, k)
	c.mu.Unlock()
	if c.hook != nil { // want `possible data race: \(\*published.inner\).Drop reads \(published.inner\).hook without holding \(published.inner\).mu`
		c.hook() // want `possible data race: \(\*published.inner\).Drop reads \(published.inner\).hook without holding`
	}
}

// A Handle is handed out by a Registry, which guards it while it holds it;
// its holder then uses it alone, through the handle's own methods.
type Handle struct {
	state int
	val   string
}

// A Registry holds free handles.
type Registry struct {
	mu   sync.Mutex
	free []*Handle
}

// Take hands out a handle.
func (r *Registry) Take() *Handle {
	r.mu.Lock()
	defer r.mu.Unlock()
	h := r.free[len(r.free)-1]
	r.free = r.free[:len(r.free)-1]
	h.state = 1
	return h
}

// Give takes a handle back.
func (r *Registry) Give(h *Handle) {
	r.mu.Lock()
	defer r.mu.Unlock()
	h.state = 0
	r.free = append(r.free, h)
}

// Reset marks every free handle free again.
func (r *Registry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range r.free {
		h.state = 0
	}
}

// Value is used by the handle's holder: no registry lock.
func (h *Handle) Value() string {
	if h.state != 1 {
		panic("handle not held")
	}
	return h.val
}

// A Flight is shared by the callers of one key while it is in its Group's
// map: they count themselves in under the group's lock. The caller that
// made it deletes it from the map under the lock before reading the count
// (an unpublish protocol, as in x/sync's singleflight): no one can find it
// there any more, so no one writes it.
type Flight struct {
	dups int
	val  string
}

// A Group runs one call per key at a time.
type Group struct {
	mu sync.Mutex
	m  map[string]*Flight
}

// Do runs fn once for the callers of key at the same time.
func (g *Group) Do(key string, fn func() string) (string, bool) {
	g.mu.Lock()
	if f, ok := g.m[key]; ok {
		f.dups++
		g.mu.Unlock()
		return f.val, true
	}
	f := new(Flight)
	g.m[key] = f
	g.mu.Unlock()
	g.finish(f, key, fn)
	return f.val, f.dups > 0
}

func (g *Group) finish(f *Flight, key string, fn func() string) {
	defer func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.m[key] == f {
			delete(g.m, key)
		}
	}()
	f.val = fn()
}

// Shared counts the callers of key, under the lock.
func (g *Group) Shared(key string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.m[key]; ok {
		return f.dups
	}
	return 0
}

// Join counts one more caller of key, under the lock.
func (g *Group) Join(key string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if f, ok := g.m[key]; ok {
		f.dups++
	}
}

// A Batch is a Group whose leader reads the count while the flight is
// still in the map: the racy twins.
type Batch struct {
	mu sync.Mutex
	m  map[string]*Trip
}

// A Trip is a Batch's Flight.
type Trip struct {
	dups int
	val  string
}

// Join counts one more caller of key, under the lock.
func (b *Batch) Join(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if f, ok := b.m[key]; ok {
		f.dups++
	}
}

// Shared counts the callers of key, under the lock.
func (b *Batch) Shared(key string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if f, ok := b.m[key]; ok {
		return f.dups
	}
	return 0
}

// Leaky deletes another key: the flight stays findable, and its count
// read without the lock races with Join's increment.
func (b *Batch) Leaky(key string, fn func() string) bool {
	f := new(Trip)
	b.mu.Lock()
	b.m[key] = f
	b.mu.Unlock()
	b.forget(key + "-old")
	f.val = fn()
	return f.dups > 0 // want `possible data race: \(\*published.Batch\).Leaky reads \(published.Trip\).dups without holding \(published.Batch\).mu`
}

func (b *Batch) forget(key string) {
	b.mu.Lock()
	delete(b.m, key)
	b.mu.Unlock()
}

// Early reads the count before the flight is deleted: a race.
func (b *Batch) Early(key string) bool {
	f := new(Trip)
	b.mu.Lock()
	b.m[key] = f
	b.mu.Unlock()
	shared := f.dups > 0 // want `possible data race: \(\*published.Batch\).Early reads \(published.Trip\).dups without holding \(published.Batch\).mu`
	b.forget(key)
	return shared
}

// Limits are set once by the package's init function, before any
// goroutine of the package runs, and read under the lock after.
var maxBatch int

func init() {
	maxBatch = 64
}

// A Batcher batches under its lock, up to maxBatch.
type Batcher struct {
	mu    sync.Mutex
	items []int
}

// Add appends v.
func (b *Batcher) Add(v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.items) < maxBatch {
		b.items = append(b.items, v)
	}
}

// Full reports whether the batch is full.
func (b *Batcher) Full() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items) >= maxBatch
}

// A Loader is built by NewLoader, which stores its own method values and
// a closure over it in itself and in the new helper it alone holds: none
// of that publishes it, so the writes after are still construction.
type Loader struct {
	mu     sync.Mutex
	flush  func()
	helper *loaderHelper
	limit  int
}

type loaderHelper struct {
	commit func()
	run    func()
}

// NewLoader returns a loader.
func NewLoader(limit int) *Loader {
	l := &Loader{helper: &loaderHelper{}}
	l.flush = l.Flush
	l.helper.commit = l.Flush
	l.helper.run = func() { l.Flush() }
	l.limit = limit
	return l
}

// Flush reads the limit under the lock.
func (l *Loader) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	_ = l.limit
}

// SetLimit sets the limit under the lock.
func (l *Loader) SetLimit(n int) {
	l.mu.Lock()
	l.limit = n
	l.mu.Unlock()
}

// A DB is built by Open, which puts a pointer to it into a new context
// object handed to a helper: that is not publication; the go statement
// is.
type DB struct {
	mu   sync.Mutex
	less func(a, b int) bool
	file string
}

type dbContext struct{ db *DB }

func lessIn(ctx *dbContext) func(a, b int) bool {
	return func(a, b int) bool { return ctx.db != nil && a < b }
}

// Open opens the database at path.
func Open(path string) *DB {
	db := &DB{}
	db.less = lessIn(&dbContext{db})
	db.file = path
	go db.background()
	return db
}

func (db *DB) background() {
	db.mu.Lock()
	_ = db.file
	db.mu.Unlock()
}

// Close forgets the file.
func (db *DB) Close() {
	db.mu.Lock()
	db.file = ""
	db.mu.Unlock()
}

// A Scope is copied by With and Clone, which fill the new value they got
// from newScope or copy before returning it: not shared yet.
type Scope struct {
	mu       sync.RWMutex
	services map[string]int
	implied  []string
}

func newScope() *Scope {
	return &Scope{services: map[string]int{}}
}

func (s *Scope) copy() *Scope {
	c := *s
	return &c
}

// Clone copies the services under the read lock into a new scope.
func (s *Scope) Clone() *Scope {
	clone := newScope()
	s.mu.RLock()
	for k, v := range s.services {
		clone.services[k] = v
	}
	s.mu.RUnlock()
	return clone
}

// With returns a copy that implies more.
func (s *Scope) With(args ...string) *Scope {
	c := s.copy()
	c.implied = append(c.implied[:len(c.implied):len(c.implied)], args...)
	return c
}

// Set sets a service under the lock.
func (s *Scope) Set(k string, v int) {
	s.mu.Lock()
	s.services[k] = v
	s.implied = nil
	s.mu.Unlock()
}

// Implied reads under the read lock.
func (s *Scope) Implied() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.implied
}

// A Meter's DrainAndUnlock unlocks the lock its caller took: it runs
// under the lock until it releases it. ResetAndUnlock writes after the
// release.
type Meter struct {
	mu   sync.Mutex
	size int
}

// Add counts one and drains.
func (m *Meter) Add() {
	m.mu.Lock()
	m.size++
	m.DrainAndUnlock()
}

// DrainAndUnlock empties the meter and unlocks it; the caller holds the
// lock.
func (m *Meter) DrainAndUnlock() {
	m.size = 0
	m.mu.Unlock()
}

// ResetAndUnlock unlocks, then resets: a race.
func (m *Meter) ResetAndUnlock() {
	m.mu.Unlock()
	m.size = 0 // want `possible data race: \(\*published.Meter\).ResetAndUnlock writes \(published.Meter\).size without holding \(published.Meter\).mu`
}

// Size reads under the lock.
func (m *Meter) Size() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.size
}

// An Evictor hands its evict method to a policy, which calls it while
// the Evictor holds mu: evict runs where the policy calls its field, not
// where the method value was made.
type Evictor struct {
	mu      sync.Mutex
	policy  *policy
	evicted int
	now     int64
}

type policy struct {
	evict func(k string)
	keys  []string
}

func newPolicy(evict func(k string)) *policy {
	return &policy{evict: evict}
}

// NewEvictor returns an Evictor.
func NewEvictor() *Evictor {
	e := &Evictor{}
	e.policy = newPolicy(e.evict)
	return e
}

func (p *policy) trim() {
	for len(p.keys) > 1 {
		p.evict(p.keys[0])
		p.keys = p.keys[1:]
	}
}

func (e *Evictor) evict(k string) {
	_ = e.now
	e.evicted++
}

// Tick trims under the lock.
func (e *Evictor) Tick(now int64) {
	e.mu.Lock()
	e.now = now
	e.policy.trim()
	e.mu.Unlock()
}

// Reset clears the count under the lock.
func (e *Evictor) Reset() {
	e.mu.Lock()
	e.evicted = 0
	e.mu.Unlock()
}

// Evicted reads the count under the lock.
func (e *Evictor) Evicted() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.evicted
}

// A Queue applies a change at once when its caller holds mu (locked),
// and hands it to the next drain otherwise: apply runs only under mu.
type Queue struct {
	mu      sync.Mutex
	pending chan string
	applied int
}

func (q *Queue) finish(k string, locked bool) {
	if locked {
		q.apply(k)
	} else {
		q.pending <- k
	}
}

func (q *Queue) apply(string) { q.applied++ }

// Delete applies at once under the lock.
func (q *Queue) Delete(k string) {
	q.mu.Lock()
	q.finish(k, true)
	q.mu.Unlock()
}

// Expire leaves the change to the next drain.
func (q *Queue) Expire(k string) { q.finish(k, false) }

// Drain applies the pending changes under the lock.
func (q *Queue) Drain() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		select {
		case k := <-q.pending:
			q.apply(k)
		default:
			return
		}
	}
}

// Reset clears the count under the lock.
func (q *Queue) Reset() {
	q.mu.Lock()
	q.applied = 0
	q.mu.Unlock()
}

// Applied reads the count under the lock.
func (q *Queue) Applied() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.applied
}

// A SloppyEvictor's policy calls evict also from Peek, without the lock.
type SloppyEvictor struct {
	mu      sync.Mutex
	policy  *sloppyPolicy
	evicted int
}

type sloppyPolicy struct {
	evict func(k string)
	keys  []string
}

func (p *sloppyPolicy) trim() {
	for len(p.keys) > 1 {
		p.evict(p.keys[0])
		p.keys = p.keys[1:]
	}
}

// NewSloppyEvictor returns a SloppyEvictor.
func NewSloppyEvictor() *SloppyEvictor {
	e := &SloppyEvictor{}
	e.policy = &sloppyPolicy{evict: e.evict}
	return e
}

func (e *SloppyEvictor) evict(string) {
	e.evicted++ // want `possible data race: \(\*published.SloppyEvictor\).evict writes \(published.SloppyEvictor\).evicted without holding \(published.SloppyEvictor\).mu`
}

// Tick trims under the lock.
func (e *SloppyEvictor) Tick() {
	e.mu.Lock()
	e.policy.trim()
	e.mu.Unlock()
}

// Peek trims without it.
func (e *SloppyEvictor) Peek() { e.policy.trim() }

// Reset clears the count under the lock.
func (e *SloppyEvictor) Reset() {
	e.mu.Lock()
	e.evicted = 0
	e.mu.Unlock()
}

// Evicted reads the count under the lock.
func (e *SloppyEvictor) Evicted() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.evicted
}

// A HastyQueue's Expire claims the lock it does not hold.
type HastyQueue struct {
	mu      sync.Mutex
	applied int
}

func (q *HastyQueue) finish(k string, locked bool) {
	if locked {
		q.apply(k)
	}
}

func (q *HastyQueue) apply(string) {
	q.applied++ // want `possible data race: \(\*published.HastyQueue\).apply writes \(published.HastyQueue\).applied without holding \(published.HastyQueue\).mu`
}

// Delete applies under the lock.
func (q *HastyQueue) Delete(k string) {
	q.mu.Lock()
	q.finish(k, true)
	q.mu.Unlock()
}

// Expire applies without it.
func (q *HastyQueue) Expire(k string) { q.finish(k, true) }

// Reset clears the count under the lock.
func (q *HastyQueue) Reset() {
	q.mu.Lock()
	q.applied = 0
	q.mu.Unlock()
}

// Applied reads the count under the lock.
func (q *HastyQueue) Applied() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.applied
}

// A Counter counts for a Limiter, which configures it while it builds
// itself: Config is a setup method.
type Counter interface {
	Config(window int)
	Add(n int)
	Window() int
}

type localCounter struct {
	mu     sync.Mutex
	window int
	total  int
}

// NewLocalCounter returns a Counter.
func NewLocalCounter() Counter { return &localCounter{} }

func (c *localCounter) Config(window int) { c.window = window }

func (c *localCounter) Add(n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.total += n; c.total > c.window {
		c.window = c.total
	}
}

func (c *localCounter) Window() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.window
}

// A Limiter limits with its counter.
type Limiter struct{ counter Counter }

// NewLimiter configures the counter it is given.
func NewLimiter(c Counter, window int) *Limiter {
	l := &Limiter{counter: c}
	l.counter.Config(window)
	return l
}

// Allow counts one.
func (l *Limiter) Allow() int {
	l.counter.Add(1)
	return l.counter.Window()
}

// A Sizer is resized by a running Gate too, not only while the Gate is
// built.
type Sizer interface {
	Resize(n int)
	Take() bool
	Size() int
}

type localSizer struct {
	mu   sync.Mutex
	size int
}

// NewLocalSizer returns a Sizer.
func NewLocalSizer() Sizer { return &localSizer{} }

func (s *localSizer) Resize(n int) {
	s.size = n // want `possible data race: \(\*published.localSizer\).Resize writes \(published.localSizer\).size without holding \(published.localSizer\).mu`
}

func (s *localSizer) Take() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.size--
	return s.size >= 0
}

func (s *localSizer) Size() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.size
}

// A Gate takes from its sizer.
type Gate struct{ sizer Sizer }

// NewGate sizes the sizer it is given.
func NewGate(s Sizer, n int) *Gate {
	g := &Gate{sizer: s}
	g.sizer.Resize(n)
	return g
}

// Pass takes one.
func (g *Gate) Pass() (bool, int) { return g.sizer.Take(), g.sizer.Size() }

// Grow resizes the sizer while the gate is in use.
func (g *Gate) Grow(n int) { g.sizer.Resize(n) }

// A Roster's Merge builds a new member in every round of a loop and sets
// its fields before it stores it: each write is to the round's own new
// object, though the one of the round before has escaped.
type Member struct {
	Name string
	Port int
}

type Roster struct {
	mu      sync.Mutex
	members map[string]*Member
}

func (r *Roster) Update(name string, port int) {
	r.mu.Lock()
	r.members[name].Port = port
	r.mu.Unlock()
}

func (r *Roster) PortOf(name string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.members[name].Port
}

func (r *Roster) Merge(names []string, ports []int) []*Member {
	out := make([]*Member, len(names))
	for i, n := range names {
		m := &Member{Name: n}
		if i < len(ports) {
			m.Port = ports[i]
		}
		out[i] = m
	}
	return out
}

// MergeLate sets the port after storing the member where others can see
// it.
func (r *Roster) MergeLate(names []string, ports []int) {
	for i, n := range names {
		m := &Member{Name: n}
		r.members[n] = m // want `possible data race: \(\*published.Roster\).MergeLate writes map contents of \(published.Roster\).members without holding`
		if i < len(ports) {
			m.Port = ports[i] // want `possible data race: \(\*published.Roster\).MergeLate writes \(published.Member\).Port without holding \(published.Roster\).mu`
		}
	}
}

// A Plug is dialed by Dial under its lock, or by TestPlug on a Plug it
// has just built: dialPlug's first argument is not the Plug.
type Plug struct {
	mu   sync.Mutex
	addr string
	conn int
}

func (p *Plug) Dial() {
	p.mu.Lock()
	defer p.mu.Unlock()
	dialPlug(1, p)
}

func dialPlug(n int, p *Plug) { p.conn = n + len(p.addr) }

// SetAddr sets the address.
func (p *Plug) SetAddr(a string) {
	p.mu.Lock()
	p.addr = a
	p.mu.Unlock()
}

// Conn reads the connection.
func (p *Plug) Conn() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.conn
}

// Reset clears the connection.
func (p *Plug) Reset() {
	p.mu.Lock()
	p.conn = 0
	p.mu.Unlock()
}

// TestPlug dials a Plug of its own.
func TestPlug() int {
	p := &Plug{addr: "a"}
	dialPlug(2, p)
	return p.conn
}

// A Socket is also dialed by Redial, without the lock.
type Socket struct {
	mu   sync.Mutex
	conn int
}

func (s *Socket) Dial() {
	s.mu.Lock()
	defer s.mu.Unlock()
	dialSocket(1, s)
}

func (s *Socket) Redial() { dialSocket(2, s) }

func dialSocket(n int, s *Socket) {
	s.conn = n // want `possible data race: published.dialSocket writes \(published.Socket\).conn without holding \(published.Socket\).mu`
}

// Conn reads the connection.
func (s *Socket) Conn() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

// Reset clears it.
func (s *Socket) Reset() {
	s.mu.Lock()
	s.conn = 0
	s.mu.Unlock()
}

// A CacheBuilder's settings are copied into each new cache by fill, whose
// first argument is the cache being built and whose second is the
// builder, shared by every cache it builds.
type CacheBuilder struct{ size int }

type BuiltCache struct {
	mu   sync.Mutex
	size int
}

func fill(c *BuiltCache, b *CacheBuilder) { c.size = b.size }

// Build returns a new cache.
func (b *CacheBuilder) Build() *BuiltCache {
	c := &BuiltCache{}
	fill(c, b)
	return c
}

func (c *BuiltCache) Grow() {
	c.mu.Lock()
	c.size++
	c.mu.Unlock()
}

func (c *BuiltCache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.size
}

// A Wire comes from getWire, which returns a new one or a copied error
// value through an interface, passed on by Dial: the caller's writes to
// it come before anyone else can see it.
type Wire interface {
	Send()
	Reset()
}

type wire struct {
	mu    sync.Mutex
	state int
}

func (w *wire) Send() {
	w.mu.Lock()
	w.state++
	w.mu.Unlock()
}

func (w *wire) Reset() {
	w.mu.Lock()
	w.state = 0
	w.mu.Unlock()
}

type wireErr struct{ err error }

func (wireErr) Send()  {}
func (wireErr) Reset() {}

func getWire(fail bool) (Wire, error) {
	if fail {
		return wireErr{nil}, nil
	}
	return &wire{}, nil
}

// Dial returns a new Wire.
func Dial() Wire {
	w, _ := getWire(false)
	return w
}

// Primed returns a Wire whose state it sets before returning it.
func Primed() Wire {
	w := Dial().(*wire)
	w.state = 1
	return w
}

// Use sends and resets through the interface.
func Use(w Wire) {
	w.Send()
	w.Reset()
}

// A Topology is cloned under its connection's lock into a map the
// recovery keeps to itself, and worked on after the lock is released.
type Topology struct{ Count int }

// Clone returns a copy.
func (t *Topology) Clone() *Topology { return &Topology{Count: t.Count} }

type Link struct {
	mu   sync.Mutex
	topo map[int]*Topology
}

func (l *Link) Record(id int) {
	l.mu.Lock()
	l.topo[id].Count++
	l.mu.Unlock()
}

func (l *Link) Forget(id int) {
	l.mu.Lock()
	l.topo[id].Count = 0
	l.mu.Unlock()
}

// Total sums under the lock.
func (l *Link) Total() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, t := range l.topo {
		n += t.Count
	}
	return n
}

// Recover sums a snapshot of clones.
func (l *Link) Recover() int {
	l.mu.Lock()
	snap := make(map[int]*Topology, len(l.topo))
	for id, t := range l.topo {
		snap[id] = t.Clone()
	}
	l.mu.Unlock()
	n := 0
	for _, t := range snap {
		n += t.Count
	}
	return n
}

// RecoverLive snapshots the live topologies, not clones of them.
func (l *Link) RecoverLive() int {
	l.mu.Lock()
	snap := make(map[int]*Topology, len(l.topo))
	for id, t := range l.topo {
		snap[id] = t
	}
	l.mu.Unlock()
	n := 0
	for _, t := range snap {
		n += t.Count // want `possible data race: \(\*published.Link\).RecoverLive reads \(published.Topology\).Count without holding \(published.Link\).mu`
	}
	return n
}

// A Reader reads a message through callbacks that fill a local value while
// the batch's lock is held; the value is the call's own.
type Message struct{ Key string }

type Reader struct {
	mu   sync.Mutex
	last Message
}

func (b *Reader) read(fill func(string)) { fill("k") }

// ReadMessage returns the next message.
func (b *Reader) ReadMessage() Message {
	msg := Message{}
	b.mu.Lock()
	b.read(func(k string) { msg.Key = k })
	b.mu.Unlock()
	return msg
}

// LastKey reads the last key under the lock.
func (b *Reader) LastKey() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.last.Key
}

// A Sender reads the key of the message it holds.
type Sender struct{ cur *Message }

func (s *Sender) Key() string { return s.cur.Key }

// A Spool's callbacks fill the spool's own record, not a local one.
type Record struct{ Key string }

type Spool struct {
	mu   sync.Mutex
	last Record
}

func (p *Spool) read(fill func(string)) { fill("k") }

// Next fills the last record.
func (p *Spool) Next() {
	p.mu.Lock()
	p.read(func(k string) { p.last.Key = k })
	p.mu.Unlock()
}

// LastKey reads it under the lock.
func (p *Spool) LastKey() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.last.Key
}

// A Tailer reads the key of the record it holds.
type Tailer struct{ cur *Record }

func (t *Tailer) Key() string {
	return t.cur.Key // want `possible data race: \(\*published.Tailer\).Key reads \(published.Record\).Key without holding \(published.Spool\).mu`
}

// A Listener's Serve sets the listener under the lock and then serves
// it, reading it in the same goroutine; Addr reads it from any.
type Listener struct {
	mu    sync.Mutex
	ln    int
	conns int
}

func (l *Listener) Serve(ln int) {
	l.mu.Lock()
	l.ln = ln
	l.mu.Unlock()
	serveLoop(l)
}

func serveLoop(l *Listener) {
	for i := 0; i < l.ln; i++ {
		l.accept()
	}
}

func (l *Listener) accept() {
	l.mu.Lock()
	l.conns++
	l.mu.Unlock()
}

// Close drops the connections.
func (l *Listener) Close() {
	l.mu.Lock()
	if l.ln != 0 {
		l.conns = 0
	}
	l.mu.Unlock()
}

// Addr returns the listener.
func (l *Listener) Addr() int {
	return l.ln // want `possible data race: \(\*published.Listener\).Addr reads \(published.Listener\).ln without holding \(published.Listener\).mu; \(\*published.Listener\).Serve writes it`
}

// A Notifier swaps its waiters out under the lock and goes through the
// detached map after releasing it; Peek keeps reading the live one.
type Notifier struct {
	mu      sync.Mutex
	waiters map[int]bool
}

func (n *Notifier) Add(k int) {
	n.mu.Lock()
	n.waiters[k] = true
	n.mu.Unlock()
}

func (n *Notifier) Remove(k int) {
	n.mu.Lock()
	delete(n.waiters, k)
	n.mu.Unlock()
}

// NotifyAll counts the detached waiters.
func (n *Notifier) NotifyAll() int {
	n.mu.Lock()
	w := n.waiters
	n.waiters = make(map[int]bool)
	n.mu.Unlock()
	c := 0
	for range w {
		c++
	}
	return c
}

// Peek counts the live waiters after releasing the lock.
func (n *Notifier) Peek() int {
	n.mu.Lock()
	w := n.waiters // want `possible data race: \(\*published.Notifier\).Peek reads map contents of \(published.Notifier\).waiters without holding \(published.Notifier\).mu`
	n.mu.Unlock()
	return len(w)
}

// A Host is filled by a helper that every caller hands a new host
// (gocql's hostInfoFromMap), and refilled in place by another.
type Host struct {
	mu   sync.Mutex
	addr string
}

func (h *Host) SetAddr(a string) {
	h.mu.Lock()
	h.addr = a
	h.mu.Unlock()
}

func (h *Host) Addr() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.addr
}

type HostRing struct {
	mu    sync.Mutex
	hosts []*Host
}

func (r *HostRing) fillHost(row map[string]string, h *Host) *Host {
	h.addr = row["addr"]
	return h
}

func (r *HostRing) refillHost(row map[string]string, h *Host) {
	h.addr = row["addr"] // want `possible data race: \(\*published.HostRing\).refillHost writes \(published.Host\).addr without holding \(published.Host\).mu`
}

// Refresh adds new hosts.
func (r *HostRing) Refresh(rows []map[string]string) {
	for _, row := range rows {
		h := r.fillHost(row, &Host{})
		r.mu.Lock()
		r.hosts = append(r.hosts, h)
		r.mu.Unlock()
	}
}

// Update refills the first host, which others use.
func (r *HostRing) Update(row map[string]string) {
	r.mu.Lock()
	h := r.hosts[0]
	r.mu.Unlock()
	r.refillHost(row, h)
}
