package rt

import (
	"fmt"
)

// enabledLocked returns the parked goroutines whose pending operation can
// proceed (CHESS's "try" discipline), polling external channels for the
// others. It also runs the parked-access race oracle.
func (e *exec) enabledLocked() []*G {
	en := e.cands[:0]
	e.nExt = 0
	var acc [8]*G
	nacc := 0
	for _, g := range e.gs {
		if g.state != gParked {
			continue
		}
		if e.canRunLocked(g) || (g.op.ext && e.pollLocked(g)) {
			en = append(en, g)
			if k := g.op.kind; (k == opRead || k == opWrite) && nacc < len(acc) {
				acc[nacc] = g
				nacc++
			}
			continue
		}
		if g.op.ext {
			e.nExt++
		}
	}
	e.cands = en
	if nacc > 1 {
		e.parkedRaceLocked(acc[:nacc])
	}
	return en
}

// canRunLocked reports whether g's pending operation can proceed without
// an external event.
func (e *exec) canRunLocked(g *G) bool {
	o := &g.op
	if o.done {
		return true
	}
	switch o.kind {
	case opStart:
		return !g.adopting
	case opSubtest:
		return o.sub.child.state == gDead
	case opLock:
		if o.rw != nil {
			if o.phase == 0 {
				return !o.rw.wHeld
			}
			return o.rw.readers == 0
		}
		return !o.mu.held
	case opRLock:
		return o.phase == 0 // phase 1 waits for the writer's Unlock (done)
	case opWGWait:
		return o.wg.count == 0
	case opOnce:
		return !o.once.running
	case opCondSleep:
		return g.condSignaled
	case opSend, opRecv, opSelect:
		if o.hasDefault {
			return true
		}
		for i, n := 0, o.ncases(); i < n; i++ {
			if e.caseReadyLocked(g, o.caseAt(i)) {
				return true
			}
		}
		return false
	}
	return true
}

// fairLocked applies CHESS fairness: a goroutine that yielded has lower
// priority than the goroutines that were enabled when it yielded, until
// each of them has run or is no longer enabled. When every enabled
// goroutine has lower priority, all are candidates.
func (e *exec) fairLocked(en []*G) []*G {
	fair := e.fair[:0]
	for _, g := range en {
		if !e.lowPriorityLocked(g) {
			fair = append(fair, g)
		}
	}
	e.fair = fair
	if len(fair) == 0 {
		return en
	}
	return fair
}

func (e *exec) lowPriorityLocked(g *G) bool {
	if g.yieldStep < 0 {
		return false
	}
	for _, id := range g.yieldSet {
		h := e.gs[id]
		if h.lastRun < g.yieldStep && h.state == gParked && e.canRunLocked(h) {
			return true
		}
	}
	return false
}

// onlyYieldersLocked reports whether every candidate is at a yield.
func (e *exec) onlyYieldersLocked(gs []*G) bool {
	for _, g := range gs {
		if k := g.op.kind; k != opYield && k != opSleep {
			return false
		}
	}
	return true
}

// execLocked executes g's pending operation as the step just decided.
// It returns false when the operation only registered g as waiting (g
// stays parked).
func (e *exec) execLocked(g *G, en []*G) bool {
	e.step++
	g.lastRun = e.step
	o := &g.op
	ev := event{step: e.step, g: g.id, op: o.kind, pc: o.pc, loc: -1}
	completed := true
	switch o.kind {
	case opStart:
	case opGo:
		var child *G
		if o.sub != nil {
			child = e.newSubtestLocked(g, o.pc, o.sub)
		} else {
			child = e.newGLocked(g, o.pc, o.fn)
		}
		ev.choice = child.id
		o.fn = nil
	case opSubtest:
		g.vc.join(o.sub.child.vc)
	case opLock, opUnlock, opRLock, opRUnlock, opTryLock, opTryRLock:
		completed = e.execLockLocked(g)
	case opWGAdd:
		e.execWGAddLocked(g)
	case opWGWait:
		g.acquire(&o.wg.h)
	case opOnce:
		e.execOnceLocked(g)
	case opCondWait, opCondSignal, opCondBroadcast, opCondSleep:
		e.execCondLocked(g)
	case opSend, opRecv, opSelect:
		e.execChanLocked(g)
		if o.kind == opSelect {
			ev.choice = o.choice
		}
	case opClose:
		e.execCloseLocked(g)
	case opAtomic:
		g.acquire(o.hdr)
		g.release(o.hdr)
	case opYield, opSleep:
		g.yieldStep = e.step
		g.yieldSet = g.yieldSet[:0]
		for _, h := range en {
			if h != g {
				g.yieldSet = append(g.yieldSet, h.id)
			}
		}
	case opRead, opWrite:
		ev.loc = o.loc
		e.execAccessLocked(g)
	case opObserve:
		ev.loc = o.loc
	}
	if o.hdr != nil {
		ev.obj, ev.kind = o.hdr.id, o.hdr.kind
	}
	if o.kind != opYield && o.kind != opSleep {
		g.yieldStep = -1
	}
	g.hb = mix(g.hb, uint64(o.kind))
	if o.hdr != nil && !o.hbDone {
		g.hb = mix(g.hb, o.hdr.hb)
		o.hdr.hb = g.hb
	}
	g.vc.tick(g.id)
	e.events = append(e.events, ev)
	t := tokEntry{g: g.id, op: o.kind, choice: noChoice}
	if o.kind == opSelect {
		t.choice = o.choice
	}
	e.tok = append(e.tok, t)
	e.lastG = g.id
	if !completed && !e.ended {
		e.checkCycleLocked(g)
	}
	return completed
}

// fillDecisionLocked prepares the Decision handed to the strategy.
func (e *exec) fillDecisionLocked(fair []*G) {
	d := &e.dec
	d.Step = e.step + 1
	d.Last = e.lastG
	d.Enabled = d.Enabled[:0]
	for _, g := range fair {
		c := Candidate{G: g.id, Op: g.op.kind.String(), Loc: -1, PC: g.op.pc}
		if g.op.kind == opStart {
			c.PC = g.fnPC
		}
		if g.op.hdr != nil {
			c.Object = g.op.hdr.id
		}
		if k := g.op.kind; k == opRead || k == opWrite || k == opObserve {
			c.Loc = g.op.loc
		}
		c.code = g.op.kind
		d.Enabled = append(d.Enabled, c)
	}
}

// holdersLocked returns the goroutines a parked lock waiter waits for.
func (e *exec) holdersLocked(g *G) []int {
	o := &g.op
	if o.done {
		return nil
	}
	switch o.kind {
	case opLock:
		if o.rw != nil {
			if o.phase == 0 {
				if o.rw.wHeld {
					return []int{o.rw.wOwner}
				}
				return nil
			}
			return o.rw.readerGs
		}
		if o.mu.held && o.mu.owner >= 0 {
			return []int{o.mu.owner}
		}
	case opRLock:
		if o.phase == 1 && o.rw.wHeld {
			return []int{o.rw.wOwner}
		}
	case opOnce:
		if o.once.running {
			return []int{o.once.runner}
		}
	}
	return nil
}

// checkCycleLocked runs the wait-for-cycle oracle from g, which has just
// started waiting: following "waits for a lock held by" edges from g, a
// path back to g is a deadlock even while other goroutines still run.
func (e *exec) checkCycleLocked(g *G) {
	path := []int{g.id}
	seen := map[int]bool{g.id: true}
	var dfs func(h *G) bool
	dfs = func(h *G) bool {
		if h.state != gParked || e.canRunLocked(h) {
			return false
		}
		for _, id := range e.holdersLocked(h) {
			if id == g.id {
				return true
			}
			if seen[id] || id < 0 || id >= len(e.gs) {
				continue
			}
			seen[id] = true
			path = append(path, id)
			if dfs(e.gs[id]) {
				return true
			}
			path = path[:len(path)-1]
		}
		return false
	}
	if len(e.holdersLocked(g)) == 0 || !dfs(g) {
		return
	}
	f := e.blockedFailureLocked(FailDeadlock, "wait-for cycle among lock waiters", path)
	e.endLocked(f)
}

// String describes a goroutine for messages.
func (g *G) String() string { return fmt.Sprintf("goroutine %d", g.id) }
