package rt

import (
	"fmt"
	"slices"
	"time"
	"unsafe"
)

// enabledLocked returns the parked goroutines whose pending operation can
// proceed (CHESS's "try" discipline), polling external channels for the
// others. It also runs the parked-access race oracle.
func (e *exec) enabledLocked() []*G {
	en := e.cands[:0]
	e.nExt = 0
	for i := range e.live {
		l := &e.live[i]
		if l.waitMu != nil && l.waitMu.held {
			continue // parked at the Lock of a held Mutex, or running
		}
		g := l.g
		if g.state != gParked {
			continue
		}
		// canRunLocked, with its common cases spelled out.
		o := &g.op
		var ok bool
		switch {
		case o.done || alwaysEnabled&(1<<o.kind) != 0:
			ok = true
		case o.kind == opLock && o.mu != nil:
			ok = !o.mu.held
		default:
			ok = e.mayProceedLocked(g) || (o.ext && e.pollLocked(g))
		}
		if ok {
			en = append(en, g)
		} else if o.ext {
			e.nExt++
		}
	}
	e.cands = en
	e.anyYielded, e.anySpin = false, false
	var acc [8]*G
	nacc := 0
	for _, g := range en {
		if g.yieldStep >= 0 {
			e.anyYielded = true
		}
		if g.npoll > 0 {
			e.anySpin = true
		}
		switch g.op.kind {
		case opYield:
			e.anySpin = true
		case opRead, opWrite:
			if nacc < len(acc) {
				acc[nacc] = g
				nacc++
			}
		}
	}
	if nacc > 1 {
		e.parkedRaceLocked(acc[:nacc])
	}
	return en
}

// alwaysEnabled is the set of operation kinds that can always proceed
// (a bit per kind): canRunLocked need not be asked.
const alwaysEnabled = 1<<opGo | 1<<opExit | 1<<opUnlock | 1<<opRUnlock | 1<<opTryLock |
	1<<opTryRLock | 1<<opWGAdd | 1<<opCondWait | 1<<opCondSignal | 1<<opCondBroadcast |
	1<<opClose | 1<<opAtomic | 1<<opYield | 1<<opRead | 1<<opWrite | 1<<opObserve | 1<<opExt

// canRunLocked reports whether g's pending operation can proceed without
// an external event.
func (e *exec) canRunLocked(g *G) bool {
	o := &g.op
	switch {
	case o.done || alwaysEnabled&(1<<o.kind) != 0:
		return true
	case o.kind == opLock && o.mu != nil:
		return !o.mu.held
	}
	return e.mayProceedLocked(g)
}

// mayProceedLocked is canRunLocked for the operations that may block.
func (e *exec) mayProceedLocked(g *G) bool {
	o := &g.op
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
	case opSleep:
		return false // o.done once the clock reaches its deadline
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
	if !e.anyYielded {
		return en
	}
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

// spinRound is how many steps each spinner takes, after anything else
// happened, before the virtual clock may move: more than a back-off of
// 16 yields between two attempts, so that each spinner looks again.
const spinRound = 32

// onlySpinnersLocked reports whether every enabled goroutine spins (see
// spinning): then nothing happens but waiting, and the virtual clock may
// move. A goroutine that fairness put behind the others, but that does
// work (it polled once and goes on), does not spin.
func (e *exec) onlySpinnersLocked(en []*G) bool {
	if !e.anySpin {
		return false
	}
	for _, g := range en {
		if !g.spinning() {
			return false
		}
	}
	return true
}

// spinning reports whether g busy-waits: its pending operation is a
// yield, or a poll of an object it polled since its last operation that
// did not poll (the same atomic variable, mutex or channels again).
func (g *G) spinning() bool {
	if g.op.kind == opYield {
		return true
	}
	k := pollKey(&g.op)
	if k == 0 {
		return false
	}
	for _, p := range g.polled[:g.npoll] {
		if p == k {
			return true
		}
	}
	return false
}

// pollKey identifies what operation o polls, when it may poll: the
// address of an atomic load, the mutex of a TryLock, the first channel
// of a select. Zero for the others. (Positions would do too, but
// searches do not capture them; see capturePCs.)
func pollKey(o *op) uintptr {
	switch o.kind {
	case opAtomic:
		if o.load {
			return uintptr(o.addr)
		}
	case opTryLock, opTryRLock:
		if o.mu != nil {
			return uintptr(unsafe.Pointer(o.mu))
		}
		return uintptr(unsafe.Pointer(o.rw))
	case opSelect:
		if len(o.cases) > 0 {
			return uintptr(o.cases[0].ch) | 1
		}
	}
	return 0
}

// notePoll records that g's operation o polled, or clears g's polls when
// it did not.
func (g *G) notePoll(o *op, polled bool) {
	if !polled {
		g.npoll = 0
		return
	}
	k := pollKey(o)
	if k == 0 {
		return
	}
	for _, p := range g.polled[:g.npoll] {
		if p == k {
			return
		}
	}
	if g.npoll < len(g.polled) {
		g.polled[g.npoll] = k
		g.npoll++
		return
	}
	copy(g.polled[:], g.polled[1:])
	g.polled[len(g.polled)-1] = k
}

// execLocked executes g's pending operation as the step just decided.
// It returns false when the operation only registered g as waiting (g
// stays parked).
func (e *exec) execLocked(g *G, en []*G) bool {
	e.step++
	e.idleSince = time.Time{}
	g.lastRun = e.step
	o := &g.op
	ev := event{step: e.step, g: g.id, op: o.kind, pc: o.pc, loc: -1}
	completed := true
	switch o.kind {
	case opStart:
	case opGo:
		if len(e.gs) >= maxGoroutines {
			// Too many goroutines to explore: cut the execution off
			// (a decision scans every live goroutine).
			e.truncated, e.tooMany = true, true
			e.endLocked(nil)
			return true
		}
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
	case opExt:
		g.acquire(&e.ext)
	case opRead, opWrite:
		ev.loc = o.loc
		e.execAccessLocked(g)
	case opObserve:
		ev.loc = o.loc
	}
	if o.hdr != nil {
		ev.obj, ev.kind = o.hdr.id, o.hdr.kind
	}
	polled := polls(o)
	g.notePoll(o, polled)
	if polled {
		e.spinSteps++
	} else {
		e.spinSteps = 0
	}
	if polled && (o.kind == opYield || !e.serial) {
		// A yield, or an operation that polled and found nothing to do
		// (a select that took its default, a failed TryLock, an atomic
		// load): in a loop it busy-waits, so fairness gives the others
		// a turn first.
		// Not in the serial execution, which must not preempt a
		// goroutine that did not yield.
		g.yieldStep = e.step
		g.yieldSet = g.yieldSet[:0]
		for _, h := range en {
			if h != g {
				g.yieldSet = append(g.yieldSet, h.id)
			}
		}
	} else {
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

// maxGoroutines bounds the goroutines of an execution: a test that starts
// more is not explored (each decision scans the live goroutines).
const maxGoroutines = 1000

// polls reports whether the executed operation o is a yield or polled
// without effect, as a busy-wait loop does.
func polls(o *op) bool {
	switch o.kind {
	case opYield:
		return true
	case opSelect:
		return o.choice < 0
	case opTryLock, opTryRLock:
		return !o.ok
	case opAtomic:
		return o.load
	case opExt:
		return true // a call into uncontrolled code, often to look at its state
	}
	return false
}

// fillDecisionLocked prepares the Decision handed to the strategy.
func (e *exec) fillDecisionLocked(fair []*G) {
	d := &e.dec
	d.Step = e.step + 1
	d.Last = e.lastG
	if cap(d.Enabled) < len(fair) {
		d.Enabled = make([]Candidate, len(fair), 2*len(fair))
	}
	d.Enabled = d.Enabled[:len(fair)]
	if e.onlyGs {
		for i, g := range fair {
			d.Enabled[i].G = g.id
		}
		return
	}
	for i, g := range fair {
		c := &d.Enabled[i]
		o := &g.op
		c.G, c.Op, c.Object, c.Loc, c.PC, c.code = g.id, o.kind.String(), 0, -1, o.pc, o.kind
		switch o.kind {
		case opStart:
			c.PC = g.fnPC
		case opRead, opWrite, opObserve:
			c.Loc = o.loc
		}
		if o.hdr != nil {
			c.Object = o.hdr.id
		}
	}
}

// holdersLocked returns the goroutines a parked lock waiter waits for. A
// single holder is returned in one.
func (e *exec) holdersLocked(g *G, one *[1]int) []int {
	o := &g.op
	if o.done {
		return nil
	}
	holder := -1
	switch o.kind {
	case opLock:
		if o.rw != nil {
			if o.phase == 0 {
				if o.rw.wHeld {
					holder = o.rw.wOwner
				}
				break
			}
			return o.rw.readerGs
		}
		if o.mu.held && o.mu.owner >= 0 {
			holder = o.mu.owner
		}
	case opRLock:
		if o.phase == 1 && o.rw.wHeld {
			holder = o.rw.wOwner
		}
	case opOnce:
		if o.once.running {
			holder = o.once.runner
		}
	}
	if holder < 0 {
		return nil
	}
	one[0] = holder
	return one[:]
}

// checkCycleLocked runs the wait-for-cycle oracle from g, which has just
// started waiting: following "waits for a lock held by" edges from g, a
// path back to g is a deadlock even while other goroutines still run.
func (e *exec) checkCycleLocked(g *G) {
	var one [1]int
	if len(e.holdersLocked(g, &one)) == 0 {
		return
	}
	e.cycle = append(e.cycle[:0], g.id)
	e.seen = append(e.seen[:0], make([]bool, len(e.gs))...)
	e.seen[g.id] = true
	if !e.waitsForLocked(g, g.id) {
		return
	}
	path := slices.Clone(e.cycle)
	f := e.blockedFailureLocked(FailDeadlock, "wait-for cycle among lock waiters", path)
	f.Cycle = path
	if e.othersAliveLocked(path) {
		if e.suspect == nil {
			e.suspect, e.suspectLocks = f, e.suspectLocks[:0]
			for _, id := range path {
				e.suspectLocks = append(e.suspectLocks, lockOf(&e.gs[id].op))
			}
			e.suspectFailed = e.t != nil && e.t.Failed()
		}
		return
	}
	e.endLocked(f)
}

// othersAliveLocked reports whether a goroutine outside the cycle path is
// alive: it might unlock what the cycle waits for.
func (e *exec) othersAliveLocked(path []int) bool {
	for _, l := range e.live {
		if l.g.state != gDead && !slices.Contains(path, l.g.id) {
			return true
		}
	}
	return false
}

// lockOf returns the lock a lock operation is on.
func lockOf(o *op) any {
	if o.rw != nil {
		return o.rw
	}
	return o.mu
}

// unlockedLocked clears the suspect cycle when lock, one of its locks,
// has just been unlocked (by a goroutine outside it).
func (e *exec) unlockedLocked(lock any) {
	if e.suspect != nil && slices.Contains(e.suspectLocks, lock) {
		e.suspect = nil
	}
}

// waitsForLocked reports whether the parked goroutine h waits, through a
// chain of lock holders, for goroutine target; it extends e.cycle along
// the chain it explores.
func (e *exec) waitsForLocked(h *G, target int) bool {
	if h.state != gParked || e.canRunLocked(h) {
		return false
	}
	var one [1]int
	for _, id := range e.holdersLocked(h, &one) {
		if id == target {
			return true
		}
		if id < 0 || id >= len(e.gs) || e.seen[id] {
			continue
		}
		e.seen[id] = true
		e.cycle = append(e.cycle, id)
		if e.waitsForLocked(e.gs[id], target) {
			return true
		}
		e.cycle = e.cycle[:len(e.cycle)-1]
	}
	return false
}

// String describes a goroutine for messages.
func (g *G) String() string { return fmt.Sprintf("goroutine %d", g.id) }
