package rt

import (
	"fmt"
	"sync"
)

// Locker is sync.Locker.
type Locker = sync.Locker

// Mutex replaces sync.Mutex. The zero value is an unlocked mutex. Under a
// controlled execution its state is modelled in the execution (Lock is
// enabled only while the mutex is free; see models.go); outside one it is
// the embedded real mutex.
type Mutex struct {
	real sync.Mutex
}

// touchLocked makes h an object of the current execution: state left by
// an earlier execution is stale and reset; ids are given in first-use
// order.
func (e *exec) touchLocked(h *objHdr, kind uint8) bool {
	if h.epoch == e.epoch {
		return false
	}
	e.nobj++
	*h = objHdr{epoch: e.epoch, id: e.nobj, kind: kind, vc: h.vc[:0]}
	return true
}

// Lock locks m.
func (m *Mutex) Lock() {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		m.real.Lock()
		return
	case modeDying:
		return
	}
	mm := m.modelLocked(e)
	g.op = op{kind: opLock, pc: pc, mu: mm, hdr: &mm.h}
	e.point(g)
}

// TryLock tries to lock m and reports whether it succeeded.
func (m *Mutex) TryLock() bool {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		return m.real.TryLock()
	case modeDying:
		return false
	}
	mm := m.modelLocked(e)
	g.op = op{kind: opTryLock, pc: pc, mu: mm, hdr: &mm.h}
	e.point(g)
	return g.op.ok
}

// Unlock unlocks m.
func (m *Mutex) Unlock() {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		m.real.Unlock()
		return
	case modeDying:
		return
	}
	mm := m.modelLocked(e)
	g.op = op{kind: opUnlock, pc: pc, mu: mm, hdr: &mm.h}
	e.point(g)
	g.op.finishSync()
}

// syncError is the failure of a misused sync primitive. The real runtime
// makes some of these fatal errors; under control they are panics, so
// that the execution reports them.
type syncError string

func (e syncError) Error() string { return string(e) }

// finishSync raises the panic of an executed sync operation, if any.
func (o *op) finishSync() {
	if o.panicMsg != "" {
		panic(syncError(o.panicMsg))
	}
}

// execLockLocked executes a Mutex or RWMutex operation of g. It returns
// false when g only registered as a waiter.
func (e *exec) execLockLocked(g *G) bool {
	o := &g.op
	if o.done {
		return true // granted while parked
	}
	if o.rw != nil {
		return e.execRWLocked(g)
	}
	m := o.mu
	switch o.kind {
	case opLock:
		m.held, m.owner, m.pc = true, g.id, o.pc
		g.acquire(&m.h)
	case opTryLock:
		if !m.held {
			m.held, m.owner, m.pc = true, g.id, o.pc
			o.ok = true
			g.acquire(&m.h)
		}
	case opUnlock:
		if !m.held {
			o.panicMsg = "fatal error: sync: unlock of unlocked mutex"
			return true
		}
		m.held, m.owner = false, -1
		g.release(&m.h)
		e.unlockedLocked(m)
	default:
		panic(fmt.Sprintf("rt: bad mutex op %v", o.kind))
	}
	return true
}
