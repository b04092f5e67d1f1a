package a

import (
	"b"
	"sync"
)

func probe()      {}
func class(v any) {}

var mu sync.Mutex
var rw sync.RWMutex

var state struct {
	mu sync.Mutex
	n  int
}

type Account struct {
	mu      sync.Mutex
	balance int
}

type Embedded struct {
	sync.Mutex
	n int
}

type Bank struct {
	accts struct {
		mu   sync.RWMutex
		list []Account
	}
	ptr   *sync.Mutex
	arr   [4]Account
	byKey map[string]*Account
	l     sync.Locker
}

func classes(a *Account, e *Embedded, b *Bank, m *sync.Mutex, i int) {
	class(&mu)              // want `class: a.mu`
	class(&state.mu)        // want `class: a.state.mu`
	class(&a.mu)            // want `class: \(a.Account\).mu`
	class(&e.Mutex)         // want `class: \(a.Embedded\).Mutex`
	class(&b.accts.mu)      // want `class: \(a.Bank\).accts.mu`
	class(b.ptr)            // want `class: \(a.Bank\).ptr`
	class(&b.arr[i].mu)     // want `class: \(a.Account\).mu`
	class(&b.accts.list[0]) // want `class: \(a.Bank\).accts.list\[\]`
	class(&b.byKey["k"].mu) // want `class: \(a.Account\).mu`
	class(m)                // want `class: a.classes.m`
	var local sync.Mutex
	class(&local)       // want `class: a.classes.local`
	class(rw.RLocker()) // want `class: a.rw`
	class(b.l)          // want `class: \(a.Bank\).l\(Locker\)`
}

func global() {
	mu.Lock()
	probe() // want `held: a.mu`
	mu.Unlock()
	probe() // want `held: $`
}

func deferred(a *Account) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	probe() // want `held: \(a.Account\).mu`
	return a.balance
}

func earlyReturn(a *Account, c bool) int {
	rw.RLock()
	if c {
		probe() // want `held: a.rw \(read\)`
		return 0
	}
	rw.RUnlock()
	probe() // want `held: $`
	return 1
}

func join(c bool) {
	if c {
		mu.Lock()
	}
	probe() // want `held: $`
	if c {
		mu.Unlock()
	}
}

// lockHelper returns with the lock held.
func (a *Account) lockHelper() { a.mu.Lock() }

func (a *Account) unlockHelper() { a.mu.Unlock() }

func helpers(a *Account) {
	a.lockHelper()
	probe() // want `held: \(a.Account\).mu`
	a.unlockHelper()
	probe() // want `held: $`
}

// incLocked is only called with a.mu held: its entry lockset has it.
func (a *Account) incLocked() {
	probe() // want `held: \(a.Account\).mu`
	a.balance++
}

func (a *Account) Inc() {
	a.mu.Lock()
	a.incLocked()
	a.mu.Unlock()
}

func (a *Account) Inc2() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.incLocked()
}

func goroutine(a *Account) {
	a.mu.Lock()
	go func() {
		probe() // want `held: $`
	}()
	func() {
		probe() // want `held: \(a.Account\).mu`
	}()
	a.mu.Unlock()
}

func closureUnlock() {
	mu.Lock()
	defer func() { mu.Unlock() }()
	probe() // want `held: a.mu`
}

func embedded(e *Embedded) {
	e.Lock()
	probe() // want `held: \(a.Embedded\).Mutex`
	e.Unlock()
}

func methodValue() {
	lock, unlock := mu.Lock, mu.Unlock
	lock()
	probe() // want `held: a.mu`
	unlock()
	probe() // want `held: $`
}

func locker() {
	var l sync.Locker = &mu
	l.Lock()
	probe() // want `held: a.mu`
	l.Unlock()
	r := rw.RLocker()
	r.Lock()
	probe() // want `held: a.rw \(read\)`
	r.Unlock()
}

func cond() {
	c := sync.NewCond(rw.RLocker())
	c.L.Lock()
	probe() // want `held: a.rw \(read\)`
	c.Wait()
	probe() // want `held: a.rw \(read\)`
	c.L.Unlock()
}

func try() {
	if mu.TryLock() {
		probe() // want `held: a.mu`
		mu.Unlock()
	}
	if !rw.TryRLock() {
		probe() // want `held: $`
		return
	}
	probe() // want `held: a.rw \(read\)`
	rw.RUnlock()
}

func crossPackage(c *b.Counter) {
	b.LockAll()
	probe() // want `held: b.mu`
	b.UnlockAll()
	c.Lock()
	probe() // want `held: \(b.Counter\).mu`
	c.Unlock()
	probe() // want `held: $`
}

type Locked interface{ Do() }

type impl struct{ mu sync.Mutex }

func (i *impl) Do() { i.mu.Lock() }

func viaInterface(l Locked) {
	l.Do()
	probe() // want `held: \(a.impl\).mu`
}

type G[T any] struct {
	mu sync.Mutex
	v  T
}

func (g *G[T]) Set(v T) {
	g.mu.Lock()
	probe() // want `held: \(a.G\).mu`
	g.v = v
	g.mu.Unlock()
}

func useG() {
	var g G[int]
	g.Set(1)
}

func lockParam(m *sync.Mutex) { m.Lock() }

func paramHelper(a *Account) {
	lockParam(&a.mu)
	probe() // want `held: \(a.Account\).mu`
	a.mu.Unlock()
}

func loopDefer(as []*Account) {
	for _, a := range as {
		a.mu.Lock()
		defer a.mu.Unlock()
	}
	probe() // want `held: $`
}

func panics() {
	mu.Lock()
	defer mu.Unlock()
	defer func() {
		if recover() != nil {
			probe() // want `held: $`
		}
	}()
	panic("x")
}

// spin is a lock that is not package sync's.
type spin uint32

func (s *spin) Lock()   {}
func (s *spin) Unlock() {}

type guarded struct {
	mu spin
	n  int
}

func userLock(g *guarded) {
	g.mu.Lock()
	probe() // want `held: \(a.guarded\).mu`
	g.mu.Unlock()
	probe() // want `held: $`
}

func apply[T any](v T, fs ...func(T) T) T {
	for _, f := range fs {
		v = f(v)
	}
	return v
}

type genericBox[T any] struct {
	mu sync.Mutex
	v  T
}

func (b *genericBox[T]) set(v T) { b.v = v }

// Update calls a generic function under the lock: it still holds it.
func (b *genericBox[T]) Update(v T, fs ...func(T) T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v = apply(v, fs...)
	probe() // want `held: \(a.genericBox\).mu`
	b.set(v)
}

// A chanLock is a Locker built on a channel; its TryLock, like
// sync.Mutex's, holds the lock where it returned true.
type chanLock struct{ ch chan struct{} }

func (l *chanLock) Lock()   { l.ch <- struct{}{} }
func (l *chanLock) Unlock() { <-l.ch }
func (l *chanLock) TryLock() bool {
	select {
	case l.ch <- struct{}{}:
		return true
	default:
		return false
	}
}

func tryLocker() {
	l := &chanLock{ch: make(chan struct{}, 1)}
	if l.TryLock() {
		probe() // want `held: a.tryLocker.complit$`
		l.Unlock()
	}
	probe() // want `held: $`
}
