package rt

import "sync"

// RWMutex replaces sync.RWMutex, with Go's writer preference: once a
// writer waits, new readers block until it has locked and unlocked (which
// makes a recursive RLock deadlock under a waiting writer, as in Go).
//
// The model follows sync.RWMutex: Lock first takes the writer slot (wHeld,
// announcing the writer), then waits for the active readers to leave;
// RLock succeeds unless a writer is announced, otherwise it registers and
// is granted by that writer's Unlock.
type RWMutex struct {
	real sync.RWMutex
}

func (rw *RWMutex) do(pc uintptr, kind opKind) bool {
	e, g, md := enter()
	switch md {
	case modeReal:
		switch kind {
		case opLock:
			rw.real.Lock()
		case opUnlock:
			rw.real.Unlock()
		case opRLock:
			rw.real.RLock()
		case opRUnlock:
			rw.real.RUnlock()
		case opTryLock:
			return rw.real.TryLock()
		case opTryRLock:
			return rw.real.TryRLock()
		}
		return true
	case modeDying:
		return false
	}
	m := rw.modelLocked(e)
	g.op = op{kind: kind, pc: pc, rw: m, hdr: &m.h}
	e.point(g)
	g.op.finishSync()
	return g.op.ok
}

// Lock locks rw for writing.
func (rw *RWMutex) Lock() { rw.do(callerPC(), opLock) }

// Unlock unlocks rw for writing.
func (rw *RWMutex) Unlock() { rw.do(callerPC(), opUnlock) }

// RLock locks rw for reading.
func (rw *RWMutex) RLock() { rw.do(callerPC(), opRLock) }

// RUnlock undoes a single RLock.
func (rw *RWMutex) RUnlock() { rw.do(callerPC(), opRUnlock) }

// TryLock tries to lock rw for writing.
func (rw *RWMutex) TryLock() bool { return rw.do(callerPC(), opTryLock) }

// TryRLock tries to lock rw for reading.
func (rw *RWMutex) TryRLock() bool { return rw.do(callerPC(), opTryRLock) }

// RLocker returns a Locker whose Lock and Unlock call rw.RLock and
// rw.RUnlock.
func (rw *RWMutex) RLocker() Locker { return (*rlocker)(rw) }

type rlocker RWMutex

func (r *rlocker) Lock()   { (*RWMutex)(r).do(callerPC(), opRLock) }
func (r *rlocker) Unlock() { (*RWMutex)(r).do(callerPC(), opRUnlock) }

// execRWLocked executes an RWMutex operation of g; false when g only
// registered as a waiter.
func (e *exec) execRWLocked(g *G) bool {
	o := &g.op
	rw := o.rw
	switch o.kind {
	case opLock:
		if o.phase == 0 {
			rw.wHeld, rw.wOwner, rw.wPC = true, g.id, o.pc
			if rw.readers > 0 {
				o.phase = 1 // announced; wait for the readers to leave
				return false
			}
		}
		g.acquire(&rw.h)
		g.vc.join(rw.rvc)
	case opTryLock:
		if !rw.wHeld && rw.readers == 0 {
			rw.wHeld, rw.wOwner, rw.wPC = true, g.id, o.pc
			o.ok = true
			g.acquire(&rw.h)
			g.vc.join(rw.rvc)
		}
	case opUnlock:
		if !rw.wHeld || rw.readers > 0 {
			o.panicMsg = "fatal error: sync: Unlock of unlocked RWMutex"
			return true
		}
		g.release(&rw.h)
		rw.wHeld, rw.wOwner = false, -1
		e.unlockedLocked(rw)
		// Grant the readers that arrived while the writer was there.
		for _, l := range e.live {
			h := l.g
			if h.state == gParked && h.op.kind == opRLock && h.op.rw == rw && h.op.phase == 1 && !h.op.done {
				h.op.done = true
				e.rlockGrantedLocked(h)
			}
		}
	case opRLock:
		if rw.wHeld {
			o.phase = 1 // blocked by the writer; its Unlock grants
			return false
		}
		e.rlockGrantedLocked(g)
	case opTryRLock:
		if !rw.wHeld {
			o.ok = true
			e.rlockGrantedLocked(g)
		}
	case opRUnlock:
		if rw.readers == 0 {
			o.panicMsg = "fatal error: sync: RUnlock of unlocked RWMutex"
			return true
		}
		rw.readers--
		for i, id := range rw.readerGs {
			if id == g.id {
				rw.readerGs = append(rw.readerGs[:i], rw.readerGs[i+1:]...)
				break
			}
		}
		rw.rvc.join(g.vc)
	}
	return true
}

// rlockGrantedLocked makes g an active reader.
func (e *exec) rlockGrantedLocked(g *G) {
	rw := g.op.rw
	rw.readers++
	rw.readerGs = append(rw.readerGs, g.id)
	g.acquire(&rw.h)
}
