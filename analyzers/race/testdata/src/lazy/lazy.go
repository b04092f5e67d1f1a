// Package lazy holds values whose zero value is ready to use: their
// methods first initialize them, once, under a gate. Package lazyuse
// uses them from goroutines, through the facts of this package.
package lazy

import (
	"sync"
	"sync/atomic"
)

// A Tomb makes its channels on first use, under its lock, when dead is
// still nil (tomb.v1's shape).
type Tomb struct {
	m      sync.Mutex
	dying  chan struct{}
	dead   chan struct{}
	reason error
}

func (t *Tomb) init() {
	t.m.Lock()
	if t.dead == nil {
		t.dead = make(chan struct{})
		t.dying = make(chan struct{}) // want `possible data race: \(lazy.Tomb\).dying is written by goroutine \(\*lazy.Tomb\).Kill and read by lazy.Peek`
	}
	t.m.Unlock()
}

// Dying returns a channel closed when the tomb starts dying.
func (t *Tomb) Dying() <-chan struct{} {
	t.init()
	return t.dying
}

// Dead returns a channel closed when the tomb is dead.
func (t *Tomb) Dead() <-chan struct{} {
	t.init()
	return t.dead
}

// Kill starts the tomb dying.
func (t *Tomb) Kill(reason error) {
	t.init()
	t.m.Lock()
	defer t.m.Unlock()
	if t.reason == nil {
		t.reason = reason
	}
	select {
	case <-t.dying:
	default:
		close(t.dying)
	}
}

// Done kills the tomb and marks it dead.
func (t *Tomb) Done() {
	t.Kill(nil)
	close(t.dead)
}

// PeekDying reads dying without initializing the tomb first: it may
// read it while another goroutine's init writes it.
func (t *Tomb) PeekDying() <-chan struct{} {
	return t.dying
}

// A Fuse makes its channel on first use with double-checked
// initialization: an atomic load of the state, then the same check under
// the lock (frostbyte73/core's shape).
type Fuse struct {
	state uint32
	m     sync.Mutex
	c     chan struct{}
}

func (f *Fuse) init() {
	if atomic.LoadUint32(&f.state) != 0 {
		return
	}
	f.m.Lock()
	defer f.m.Unlock()
	if atomic.LoadUint32(&f.state) != 0 {
		return
	}
	f.c = make(chan struct{})
	atomic.StoreUint32(&f.state, 1)
}

// Watch returns a channel closed when the fuse breaks.
func (f *Fuse) Watch() <-chan struct{} {
	f.init()
	return f.c
}

// Break breaks the fuse.
func (f *Fuse) Break() {
	f.m.Lock()
	defer f.m.Unlock()
	switch atomic.LoadUint32(&f.state) {
	case 2:
		return
	case 0:
		f.c = make(chan struct{})
	}
	defer atomic.StoreUint32(&f.state, 2)
	close(f.c)
}

// A Lazy sets its value on first use, but checks the gate without the
// lock: two goroutines may both find it nil and both write.
type Lazy struct {
	m   sync.Mutex
	on  *int
	val int
}

// Get returns the value.
func (l *Lazy) Get() int {
	if l.on == nil {
		l.m.Lock()
		l.val = 1
		l.on = new(int)
		l.m.Unlock()
	}
	return l.val
}

// Watch waits for a tomb in a goroutine while killing it. Silent.
func Watch(t *Tomb) {
	go func() {
		<-t.Dying()
		t.Done()
	}()
	t.Kill(nil)
	<-t.Dead()
}

// Peek reads dying before any init, while a goroutine initializes the
// tomb.
func Peek(t *Tomb) <-chan struct{} {
	go t.Kill(nil)
	return t.dying
}
