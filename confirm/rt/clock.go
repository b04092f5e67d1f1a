package rt

import (
	"container/heap"
	"fmt"
	"math"
	"sync"
	"time"
)

// The virtual clock of a controlled execution. Inside an execution, time
// in rewritten code is one consistent virtual clock: Now, Since, Until,
// Sleep, After, Tick, timers, tickers, AfterFunc and context deadlines
// all read it. It starts at the real time the execution starts (with
// its monotonic reading, so that times taken outside control compare
// with it) and moves only when every controlled goroutine waits: then it
// jumps to the earliest pending deadline, which fires (a sleeper wakes, a
// timer's channel receives the time, an AfterFunc starts a controlled
// goroutine, a context is cancelled). While goroutines run detached in
// uncontrolled code or wait on channels the execution did not make, it
// advances no faster than real time, since that code may be what the
// others wait for. Once the test body has returned it does not move: what
// is left waiting on time would be left by a real test too.
//
// A clock that passes the horizon (10 minutes of virtual time, go test's
// default timeout) while goroutines are blocked on something else than
// time ends the execution: they are hung, as go test would find.

// horizon is how much virtual time an execution may take.
const horizon = 10 * time.Minute

// forever is the duration of the real timers behind virtual ones: they
// never fire.
const forever = time.Duration(math.MaxInt64)

// A vtimer is a pending deadline of the virtual clock.
type vtimer struct {
	when   time.Time
	seq    uint64        // arming order: deadlines that tie fire in it
	period time.Duration // a ticker's
	index  int           // in exec.timers; -1 when not pending
	vc     vclock        // the clock of the goroutine that armed it
	stamp  uint64        // the execution that armed it (its epoch)

	// What firing does: wake sleeper g, send the time on ch (a timer's
	// or ticker's channel), start f in a controlled goroutine, or call
	// cancel (a context deadline).
	g      *G
	ch     *chanState
	c      chan time.Time       // the channel of ch, to drain it
	send   func(time.Time) bool // sends on c without blocking
	f      func()
	cancel func()
}

// timerHeap orders the pending deadlines.
type timerHeap []*vtimer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	if !h[i].when.Equal(h[j].when) {
		return h[i].when.Before(h[j].when)
	}
	return h[i].seq < h[j].seq
}
func (h timerHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *timerHeap) Push(x any) {
	t := x.(*vtimer)
	t.index = len(*h)
	*h = append(*h, t)
}
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

// armLocked schedules t to fire after d (from g, whose clock it carries).
func (e *exec) armLocked(t *vtimer, g *G, d time.Duration) {
	if t.index >= 0 {
		heap.Remove(&e.timers, t.index)
	}
	t.when = e.now.Add(max(d, 0))
	e.tseq++
	t.seq = e.tseq
	t.stamp = e.epoch
	if g != nil {
		t.vc = append(t.vc[:0], g.vc...)
	}
	heap.Push(&e.timers, t)
}

// disarmLocked stops t and reports whether it was pending.
func (e *exec) disarmLocked(t *vtimer) bool {
	if t.index < 0 || t.stamp != e.epoch {
		return false
	}
	heap.Remove(&e.timers, t.index)
	return true
}

// advanceClockLocked moves the clock to the earliest pending deadline and
// fires what is due, when nothing else can happen; it reports whether it
// did. Called when no goroutine is enabled, or only yielders are.
func (e *exec) advanceClockLocked() bool {
	if e.bodyDone || len(e.timers) == 0 || e.ended {
		return false
	}
	next := e.timers[0].when
	if e.uncontrolledPendingLocked() {
		// Uncontrolled code may be what they wait for: let virtual time
		// follow real time from when the execution went idle.
		now := time.Now()
		e.realClock = true
		if e.idleSince.IsZero() {
			e.idleSince, e.idleClock = now, e.now
		}
		if e.idleClock.Add(now.Sub(e.idleSince)).Before(next) {
			return false
		}
	}
	if next.Sub(e.start) > horizon {
		e.hungLocked()
		return false
	}
	if next.After(e.now) {
		e.now = next
	}
	for len(e.timers) > 0 && !e.timers[0].when.After(e.now) {
		t := heap.Pop(&e.timers).(*vtimer)
		e.fireLocked(t)
	}
	e.idleSince = time.Time{}
	return true
}

// fireLocked does what t's deadline does.
func (e *exec) fireLocked(t *vtimer) {
	switch {
	case t.g != nil:
		t.g.op.done = true
	case t.send != nil:
		t.ch.hdr.vc.join(t.vc)
		t.send(e.now)
		if t.period > 0 {
			t.when = t.when.Add(t.period)
			e.tseq++
			t.seq = e.tseq
			heap.Push(&e.timers, t)
		}
	case t.f != nil:
		g := e.newGLocked(nil, 0, t.f)
		g.vc.join(t.vc)
	case t.cancel != nil:
		t.cancel()
	}
}

// uncontrolledPendingLocked reports whether goroutines run detached or
// wait on channels the execution did not make (other than a virtual
// deadline's), that is on code the clock does not drive.
func (e *exec) uncontrolledPendingLocked() bool {
	if e.ndetached > 0 {
		return true
	}
	for _, l := range e.live {
		if g := l.g; g.state == gParked && g.op.ext && !e.waitsOnTimeLocked(g) && !e.waitsOnContextLocked(g) {
			return true
		}
	}
	return false
}

// waitsOnContextLocked reports whether every external channel the parked
// goroutine g waits on is the Done channel of a context made under
// control: only the test's own code can cancel it.
func (e *exec) waitsOnContextLocked(g *G) bool {
	o := &g.op
	any := false
	for i, n := 0, o.ncases(); i < n; i++ {
		c := o.caseAt(i)
		if c.cs != nil || c.ch == nil {
			continue
		}
		if cs := e.ctxs[c.ch]; cs == nil || cs.external {
			return false
		}
		any = true
	}
	return any
}

// waitsOnTimeLocked reports whether the parked goroutine g waits for the
// virtual clock: it sleeps, or waits on the channel of a pending timer or
// ticker or the Done channel of a context with a pending deadline.
func (e *exec) waitsOnTimeLocked(g *G) bool {
	o := &g.op
	if o.kind == opSleep && !o.done {
		return true
	}
	for i, n := 0, o.ncases(); i < n; i++ {
		if t := e.timeChans[o.caseAt(i).ch]; t != nil && t.index >= 0 && t.stamp == e.epoch {
			return true
		}
	}
	return false
}

// hungLocked ends an execution whose clock would pass the horizon: the
// goroutines blocked on something else than time are hung.
func (e *exec) hungLocked() {
	var blocked []int
	for _, l := range e.live {
		if g := l.g; g.state == gParked && !e.canRunLocked(g) && !e.waitsOnTimeLocked(g) {
			blocked = append(blocked, g.id)
		}
	}
	if len(blocked) == 0 {
		// Only time is waited on, for ever: cut off, like the step bound.
		e.truncated = true
		e.endLocked(nil)
		return
	}
	msg := fmt.Sprintf("goroutines blocked for more than %v of virtual time (go test's default timeout) while only timers fired", horizon)
	e.endLocked(e.blockedFailureLocked(FailDeadlock, msg, blocked))
}

// clockNow returns the time of the caller: virtual under control. Each
// reading moves the virtual clock by a nanosecond, so that, as with the
// real monotonic clock, a later reading is later (tests check that a
// duration measured across some work is positive).
func clockNow() time.Time {
	e, _, md := enter()
	if md == modeCtl {
		defer e.mu.Unlock()
		e.now = e.now.Add(time.Nanosecond)
		return e.now
	}
	return time.Now()
}

// Now replaces time.Now.
func Now() time.Time { return clockNow() }

// Since replaces time.Since.
func Since(t time.Time) time.Duration { return clockNow().Sub(t) }

// Until replaces time.Until.
func Until(t time.Time) time.Duration { return t.Sub(clockNow()) }

// Sleep replaces time.Sleep: under control the goroutine waits until the
// virtual clock has advanced by d (a yield when d <= 0).
func Sleep(d time.Duration) {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		time.Sleep(d)
		return
	case modeDying:
		return
	}
	if d <= 0 {
		g.op = op{kind: opYield, pc: pc}
		e.point(g)
		return
	}
	g.op = op{kind: opSleep, pc: pc}
	e.armLocked(&vtimer{g: g, index: -1}, g, d)
	e.point(g)
}

// The registry of virtual timers behind *time.Timer and *time.Ticker
// values made under control, so that Stop and Reset find them.
var timers sync.Map // *time.Timer or *time.Ticker -> *vtimer

// newTimeChan makes the internal channel of a timer or ticker and the
// vtimer that feeds it.
func (e *exec) newTimeChanLocked() (chan time.Time, *vtimer) {
	ch := make(chan time.Time, 1)
	cs := &chanState{cap: 1}
	e.touchLocked(&cs.hdr, kindChan)
	e.chans[chanPtr(ch)] = cs
	t := &vtimer{index: -1, ch: cs, c: ch, send: func(now time.Time) bool {
		select {
		case ch <- now:
			return true
		default:
			return false // a ticker's receiver is slow: the tick is dropped
		}
	}}
	if e.timeChans == nil {
		e.timeChans = make(map[chanKey]*vtimer)
	}
	e.timeChans[chanPtr(ch)] = t
	return ch, t
}

// drain empties a timer's channel, so that no stale time is received
// after Stop or Reset (Go 1.23's synchronous timer channels).
func drain(ch chan time.Time) {
	select {
	case <-ch:
	default:
	}
}

// After replaces time.After.
func After(d time.Duration) <-chan time.Time { return NewTimer(d).C }

// Tick replaces time.Tick.
func Tick(d time.Duration) <-chan time.Time {
	if d <= 0 {
		return nil
	}
	return NewTicker(d).C
}

// NewTimer replaces time.NewTimer: under control, a timer of the virtual
// clock (its Stop and Reset are TimerStop and TimerReset).
func NewTimer(d time.Duration) *time.Timer {
	e, g, md := enter()
	if md != modeCtl {
		return time.NewTimer(d)
	}
	defer e.mu.Unlock()
	ch, t := e.newTimeChanLocked()
	tm := time.NewTimer(forever)
	tm.C = ch
	timers.Store(tm, t)
	e.armLocked(t, g, d)
	return tm
}

// AfterFunc replaces time.AfterFunc: under control, f runs in a new
// controlled goroutine when the virtual clock reaches the deadline.
func AfterFunc(d time.Duration, f func()) *time.Timer {
	e, g, md := enter()
	if md != modeCtl {
		return time.AfterFunc(d, f)
	}
	defer e.mu.Unlock()
	t := &vtimer{index: -1, f: f}
	tm := time.AfterFunc(forever, func() {})
	timers.Store(tm, t)
	e.armLocked(t, g, d)
	return tm
}

// NewTicker replaces time.NewTicker: under control, a ticker of the
// virtual clock (its Stop and Reset are TickerStop and TickerReset).
func NewTicker(d time.Duration) *time.Ticker {
	e, g, md := enter()
	if md != modeCtl {
		return time.NewTicker(d)
	}
	defer e.mu.Unlock()
	if d <= 0 {
		panic("non-positive interval for NewTicker")
	}
	ch, t := e.newTimeChanLocked()
	t.period = d
	tk := time.NewTicker(forever)
	tk.C = ch
	timers.Store(tk, t)
	e.armLocked(t, g, d)
	return tk
}

// virtual returns the vtimer behind a timer or ticker of the caller's
// execution, nil for a real one.
func virtual(key any) *vtimer {
	v, ok := timers.Load(key)
	if !ok {
		return nil
	}
	return v.(*vtimer)
}

// TimerStop replaces t.Stop().
func TimerStop(t *time.Timer) bool {
	vt := virtual(t)
	e, _, md := enter()
	switch {
	case md == modeReal || vt == nil:
		if md == modeCtl {
			e.mu.Unlock()
		}
		return t.Stop()
	case md == modeDying:
		return false
	}
	defer e.mu.Unlock()
	if vt.c != nil {
		drain(vt.c)
	}
	return e.disarmLocked(vt)
}

// TimerReset replaces t.Reset(d).
func TimerReset(t *time.Timer, d time.Duration) bool {
	vt := virtual(t)
	e, g, md := enter()
	switch {
	case md == modeReal || vt == nil:
		if md == modeCtl {
			e.mu.Unlock()
		}
		return t.Reset(d)
	case md == modeDying:
		return false
	}
	defer e.mu.Unlock()
	if vt.c != nil {
		drain(vt.c)
	}
	was := e.disarmLocked(vt)
	e.armLocked(vt, g, d)
	return was
}

// TickerStop replaces t.Stop().
func TickerStop(t *time.Ticker) {
	vt := virtual(t)
	e, _, md := enter()
	switch {
	case md == modeReal || vt == nil:
		if md == modeCtl {
			e.mu.Unlock()
		}
		t.Stop()
		return
	case md == modeDying:
		return
	}
	defer e.mu.Unlock()
	e.disarmLocked(vt)
}

// TickerReset replaces t.Reset(d).
func TickerReset(t *time.Ticker, d time.Duration) {
	vt := virtual(t)
	e, g, md := enter()
	switch {
	case md == modeReal || vt == nil:
		if md == modeCtl {
			e.mu.Unlock()
		}
		t.Reset(d)
		return
	case md == modeDying:
		return
	}
	defer e.mu.Unlock()
	if d <= 0 {
		panic("non-positive interval for Ticker.Reset")
	}
	e.disarmLocked(vt)
	vt.period = d
	e.armLocked(vt, g, d)
}
