package rt

import (
	"sync"
	"sync/atomic"
)

// Once replaces sync.Once. Under control, Do is a scheduling point; a
// goroutine calling Do while another runs f waits (and a recursive Do
// deadlocks, as in Go).
type Once struct {
	real sync.Once
	done atomic.Bool
}

// Do calls f if and only if Do is being called for the first time for
// this Once.
func (o *Once) Do(f func()) {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		o.real.Do(f)
		o.done.Store(true)
		return
	case modeDying:
		return
	}
	m := o.modelLocked(e)
	g.op = op{kind: opOnce, pc: pc, once: m, hdr: &m.h}
	e.point(g)
	if !g.op.ok {
		return
	}
	defer func() {
		e.mu.Lock()
		m.running, m.runner = false, -1
		o.done.Store(true)
		g.release(&m.h)
		e.mu.Unlock()
		o.real.Do(func() {})
	}()
	f()
}

// execOnceLocked executes Do: the first caller runs f.
func (e *exec) execOnceLocked(g *G) {
	o := g.op.once
	g.acquire(&o.h)
	if !o.once.done.Load() {
		o.running, o.runner = true, g.id
		g.op.ok = true
	}
}

// OnceFunc returns a function that invokes f only once, like
// sync.OnceFunc; a panic of f is re-raised by every call.
func OnceFunc(f func()) func() {
	var (
		once  Once
		valid bool
		p     any
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		f()
		f = nil
		valid = true
	}
	return func() {
		once.Do(g)
		if !valid {
			panic(p)
		}
	}
}

// OnceValue returns a function that invokes f only once and returns its
// value, like sync.OnceValue.
func OnceValue[T any](f func() T) func() T {
	var (
		once   Once
		valid  bool
		p      any
		result T
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		result = f()
		f = nil
		valid = true
	}
	return func() T {
		once.Do(g)
		if !valid {
			panic(p)
		}
		return result
	}
}

// OnceValues returns a function that invokes f only once and returns its
// values, like sync.OnceValues.
func OnceValues[T1, T2 any](f func() (T1, T2)) func() (T1, T2) {
	var (
		once  Once
		valid bool
		p     any
		r1    T1
		r2    T2
	)
	g := func() {
		defer func() {
			p = recover()
			if !valid {
				panic(p)
			}
		}()
		r1, r2 = f()
		f = nil
		valid = true
	}
	return func() (T1, T2) {
		once.Do(g)
		if !valid {
			panic(p)
		}
		return r1, r2
	}
}
