// Package odd holds unusual code the race analyzer must survive: generics,
// mutexes in arrays, map values and behind interfaces.
package odd

import (
	"sync"
	"unsafe"
)

// Box is generic; its value is guarded by mu.
type Box[T any] struct {
	mu sync.Mutex
	v  T
}

func (b *Box[T]) Set(v T) {
	b.mu.Lock()
	b.v = v
	b.mu.Unlock()
}

func (b *Box[T]) Get() T {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}

func (b *Box[T]) Peek() T {
	return b.v // want `possible data race: \(\*odd.Box\[T\]\).Peek reads \(odd.Box\).v without holding \(odd.Box\).mu`
}

// Map applies f in parallel; generic code with goroutines.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, len(xs))
	var wg sync.WaitGroup
	for i, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = f(x)
		}()
	}
	wg.Wait()
	return out
}

func UseBox() int {
	var b Box[int]
	b.Set(1)
	return b.Get() + len(Map([]int{1}, func(i int) string { return "" }))
}

// shard is stored in an array; each has its own mutex.
type shard struct {
	mu sync.Mutex
	m  map[string]int
}

type Sharded struct {
	shards [4]shard
}

func (s *Sharded) Put(k string, v int) {
	sh := &s.shards[len(k)%4]
	sh.mu.Lock()
	sh.m[k] = v
	sh.mu.Unlock()
}

func (s *Sharded) Get(k string) int {
	s.shards[len(k)%4].mu.Lock()
	defer s.shards[len(k)%4].mu.Unlock()
	return s.shards[len(k)%4].m[k]
}

// entry lives behind a pointer in a map; its mutex guards hits.
type entry struct {
	mu   sync.Mutex
	hits int
}

type Table struct {
	mu sync.Mutex
	m  map[string]*entry
}

func (t *Table) Hit(k string) {
	t.mu.Lock()
	e := t.m[k]
	t.mu.Unlock()
	e.mu.Lock()
	e.hits++
	e.mu.Unlock()
}

func (t *Table) Hits(k string) int {
	t.mu.Lock()
	e := t.m[k]
	t.mu.Unlock()
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.hits
}

// Guarded uses whatever Locker it was given.
type Guarded struct {
	l sync.Locker
	n int
}

func (g *Guarded) Inc() {
	g.l.Lock()
	g.n++
	g.l.Unlock()
}

func (g *Guarded) Get() int {
	g.l.Lock()
	defer g.l.Unlock()
	return g.n
}

// MapOfMutex keeps mutexes as map values (by pointer).
var locks = map[string]*sync.Mutex{}

var values = map[string]int{}

func Locked(k string) {
	l := locks[k]
	l.Lock()
	values[k]++
	l.Unlock()
}

// Pair embeds the mutex.
type Pair struct {
	sync.Mutex
	a, b int
}

func (p *Pair) Swap() {
	p.Lock()
	p.a, p.b = p.b, p.a
	p.Unlock()
}

func (p *Pair) Sum() int {
	p.Lock()
	defer p.Unlock()
	return p.a + p.b
}

// More shapes the analyzer must survive.

type locks4 struct {
	mus  [4]sync.Mutex
	ptr  *sync.RWMutex
	vals [4]int
}

func (l *locks4) Set(i, v int) {
	l.mus[i%4].Lock()
	l.vals[i%4] = v
	l.mus[i%4].Unlock()
	l.ptr.RLock()
	_ = l.vals[0]
	l.ptr.RUnlock()
}

// StartMethodValue starts a method value and a function parameter.
func StartMethodValue(p *Pair, f func(int)) {
	g := p.Swap
	go g()
	go f(1)
	var h func()
	go h()
}

// Recur starts goroutines recursively.
func Recur(n int, out *int) {
	if n == 0 {
		return
	}
	go Recur(n-1, out)
	*out = n // want `possible data race: \*out in odd.Recur is written by goroutine odd.Recur and written by odd.Recur`
}

// Jump uses labels and goto around a goroutine.
func Jump(xs []int) (sum int) {
	i := 0
loop:
	if i < len(xs) {
		go func() { _ = xs[i] }() // want `possible data race: captured variable i in odd.Jump is read by goroutine odd.Jump\$1 and written by odd.Jump`
		i++
		goto loop
	}
	return
}

// Conv goes through unsafe.Pointer.
func Conv(p *Pair) *int {
	return (*int)(unsafe.Pointer(&p.a))
}

// Generic goroutine over a constrained type parameter.
type Number interface{ ~int | ~float64 }

type Acc[T Number] struct {
	mu  sync.Mutex
	sum T
}

func (a *Acc[T]) Add(v T) {
	go func() {
		a.mu.Lock()
		a.sum += v
		a.mu.Unlock()
	}()
}

func Sum[T Number, P interface {
	*Acc[T]
	Add(T)
}](p P, xs []T) {
	for _, x := range xs {
		p.Add(x)
	}
}
