package rt

import (
	"sync"
	"sync/atomic"
)

// Cond replaces sync.Cond. Under control, Wait registers the goroutine
// (like the runtime's notify list ticket), unlocks L, waits until a Signal
// or Broadcast picks it, and locks L again; Signal wakes the longest
// waiting goroutine.
type Cond struct {
	// L is held while observing or changing the condition.
	L Locker

	real atomic.Pointer[sync.Cond]
}

// NewCond returns a new Cond with Locker l.
func NewCond(l Locker) *Cond { return &Cond{L: l} }

// realCond is the real sync.Cond used outside a controlled execution.
func (c *Cond) realCond() *sync.Cond {
	if rc := c.real.Load(); rc != nil {
		return rc
	}
	c.real.CompareAndSwap(nil, sync.NewCond(c.L))
	return c.real.Load()
}

// Wait atomically unlocks c.L and suspends the goroutine; it locks c.L
// before returning.
func (c *Cond) Wait() {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		c.realCond().Wait()
		return
	case modeDying:
		return
	}
	m := c.modelLocked(e)
	g.op = op{kind: opCondWait, pc: pc, cond: m, hdr: &m.h}
	e.point(g)
	c.L.Unlock()
	e, g, md = enter()
	if md == modeCtl {
		m := c.modelLocked(e)
		g.op = op{kind: opCondSleep, pc: pc, cond: m, hdr: &m.h}
		e.point(g)
	}
	c.L.Lock()
}

// Signal wakes one goroutine waiting on c, if there is any.
func (c *Cond) Signal() { c.signal(callerPC(), opCondSignal) }

// Broadcast wakes all goroutines waiting on c.
func (c *Cond) Broadcast() { c.signal(callerPC(), opCondBroadcast) }

func (c *Cond) signal(pc uintptr, kind opKind) {
	e, g, md := enter()
	switch md {
	case modeReal:
		if kind == opCondSignal {
			c.realCond().Signal()
		} else {
			c.realCond().Broadcast()
		}
		return
	case modeDying:
		return
	}
	m := c.modelLocked(e)
	g.op = op{kind: kind, pc: pc, cond: m, hdr: &m.h}
	e.point(g)
}

// execCondLocked executes the Cond operations.
func (e *exec) execCondLocked(g *G) {
	o := &g.op
	c := o.cond
	switch o.kind {
	case opCondWait:
		g.condSignaled = false
		c.waiters = append(c.waiters, g)
	case opCondSleep:
		g.condSignaled = false
		g.acquire(&c.h)
	case opCondSignal, opCondBroadcast:
		g.release(&c.h)
		n := len(c.waiters)
		if o.kind == opCondSignal {
			n = min(n, 1)
		}
		for _, w := range c.waiters[:n] {
			w.condSignaled = true
		}
		c.waiters = c.waiters[n:]
	}
}
