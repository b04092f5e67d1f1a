package unusual // want package:`orders\{\}`

import "sync"

type Shard struct {
	mu sync.Mutex
	m  map[string]int
}

type Sharded struct {
	shards [8]Shard
	list   []Shard
}

func (s *Sharded) Put(k string, i int) {
	sh := &s.shards[i%8]
	sh.mu.Lock()
	sh.m[k] = i
	sh.mu.Unlock()
}

func (s *Sharded) LockAll() {
	for i := range s.shards {
		s.shards[i].mu.Lock()
	}
	for i := range s.shards {
		s.shards[i].mu.Unlock()
	}
}

func (s *Sharded) Slice(i int) {
	s.list[i].mu.Lock()
	defer s.list[i].mu.Unlock()
	s.list[0].m = nil
}

var table = map[string]*Shard{}

func MapValue(k string) {
	table[k].mu.Lock()
	table[k].mu.Unlock()
}

var values = map[string]sync.Mutex{}

func MapOfMutexes(k string) {
	mu := values[k]
	mu.Lock()
	mu.Unlock()
}

type locker interface {
	Lock()
	Unlock()
}

func BehindLocker(l sync.Locker) {
	l.Lock()
	defer l.Unlock()
}

func BehindInterface(l locker) {
	l.Lock()
	l.Unlock()
}

type Box[T any] struct {
	mu sync.Mutex
	v  T
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.v = v
}

func (b *Box[T]) Get() T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}

func UseBox() int {
	var b Box[int]
	b.Set(1)
	return b.Get()
}

func Generic[L sync.Locker](l L) {
	l.Lock()
	defer l.Unlock()
}

func UseGeneric(mu *sync.Mutex) { Generic(mu) }

type Embedded[T any] struct {
	sync.RWMutex
	v T
}

func (e *Embedded[T]) Read() T {
	e.RLock()
	defer e.RUnlock()
	return e.v
}

func Local() int {
	var mu sync.Mutex
	n := 0
	mu.Lock()
	n++
	mu.Unlock()
	return n
}

func Param(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

func NewMu() *sync.Mutex { return new(sync.Mutex) }

func FromCall() {
	mu := NewMu()
	mu.Lock()
	mu.Unlock()
}

func Recursive(n int) {
	var mu sync.Mutex
	mu.Lock()
	if n > 0 {
		mu.Unlock()
		Recursive(n - 1)
		return
	}
	mu.Unlock()
}

type Node struct {
	mu       sync.Mutex
	children []*Node
}

// Hand-over-hand locking down a tree: parent then child.
func (n *Node) Walk() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for _, c := range n.children {
		c.Walk()
	}
}

func External() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
	}()
	wg.Wait()
}
