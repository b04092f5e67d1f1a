package rt

import (
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// active is the controlled execution in progress, nil outside one. It is
// the runtime's only global scheduler state besides the stray registry
// and the worker pool (workers.go).
var active atomic.Pointer[exec]

// stuckAfter is how long an execution may make no progress at all
// (everything blocked outside instrumented code) before it is given up;
// tests shorten it.
var stuckAfter = 10 * time.Second

// epochs numbers executions process-wide, so that the model state a sync
// value keeps from an earlier execution is recognised as stale.
var epochs atomic.Uint64

// gstate is the scheduling state of a controlled goroutine.
type gstate uint8

const (
	gParked   gstate = iota // at a scheduling point, waiting for its turn
	gRunning                // holds the turn (runs user code or decides)
	gDetached               // stalled in uncontrolled code; runs on its own
	gDead                   // returned, exited or killed
)

// A G is a controlled goroutine.
type G struct {
	id, parent int
	goid       atomic.Int64
	sp         atomic.Uintptr // an address in its stack where it last proved who it is (see callerLocked)
	e          *exec
	wake       chan struct{}
	state      gstate
	yieldStep  int // step of its last yield, -1 when it has not yielded
	live       int // its index in e.live, -1 once dead
	op         op
	parkSeq    uint64
	vc         vclock
	hb         uint64
	lastRun    int
	yieldSet   []int // goroutines enabled when it yielded
	// polled are the objects of the polls (see polls) it made since its
	// last operation that did not poll: a goroutine whose pending
	// operation polls one of them again spins (see spinning).
	polled  [4]uintptr
	npoll   int
	die     bool // woken to exit (dying mode)
	exiting bool // runtime.Goexit in progress on our behalf
	stray   bool // outlived its execution
	spawnPC uintptr
	fnPC    uintptr
	stack   []uintptr // pending operation's stack, when the strategy asks
	start   func()    // its function, until a real goroutine runs it (see wakeUp)

	condSignaled bool // picked by Cond.Signal/Broadcast
	adopting     bool // a subtest goroutine testing has not started yet
	adopted      bool // runs in testing's goroutine of a subtest
}

// exec is one controlled execution of a test body.
type exec struct {
	mu       sync.Mutex
	cfg      *Config
	n        int
	epoch    uint64
	strategy Strategy
	stall    time.Duration
	stuck    time.Duration // no progress at all for this long: give up

	gs        []*G
	gslab     []G     // zeroed records for the next goroutines (fewer allocations)
	live      []liveG // the goroutines of gs not dead, in id order
	cur       *G      // the goroutine holding the turn, nil when idle
	ndetached int
	// ndetachedEver counts the goroutines detached during the execution.
	ndetachedEver int
	nExt          int // parked goroutines waiting only on external channels
	seq           uint64
	step          int
	lastG         int
	preemptions   int // steps that switched away from a goroutine that could go on
	maxSteps      int
	tailSteps     int // steps allowed after the body returned
	bodyDone      bool
	bodyEnd       int
	wantStack     bool
	onlyGs        bool // the strategy reads only Candidate.G (random, pct)
	serial        bool // the strategy is serial (no preemption)
	replaying     bool // the strategy follows a token: fairness does not filter

	events []event
	tok    []tokEntry
	nobj   int
	chans  map[chanKey]*chanState
	models map[unsafe.Pointer]unsafe.Pointer // sync values' models (models.go; made on first use or kept from the previous execution)
	// otherModels holds models at an address models has one of another kind.
	otherModels map[modelKey]unsafe.Pointer
	lastModel   lastModel
	addrs       map[chanKey]*objHdr
	shadow      map[chanKey]*shadow

	cands []*G
	fair  []*G
	dec   Decision
	ready []int  // the ready cases of a select being executed
	cycle []int  // the wait-for path checkCycleLocked follows
	seen  []bool // goroutines on it or already explored, by id
	// Set by enabledLocked: some enabled goroutine has yielded (fairness
	// may apply); some is at a yield or has polled (it may spin, see
	// onlySpinnersLocked).
	anyYielded, anySpin bool
	// spinSteps counts the steps since the last one that did not poll.
	spinSteps int

	// slow is set once a goroutine was detached: from then on callers
	// are identified by goroutine id (see identifyLocked).
	slow atomic.Bool
	// foreignOps counts the operations of goroutines the runtime does not
	// control, which ran unscheduled during the execution.
	foreignOps atomic.Int64

	// suspect is a wait-for cycle of lock waiters found while goroutines
	// outside it still live: Go's mutexes have no owner, and one of them
	// may unlock a lock of the cycle (a lock handed off to the goroutine
	// that unlocks it, as a flush started under the lock does). It
	// becomes the outcome only if the execution ends with nothing able to
	// run and the cycle intact (see endLocked); suspectLocks are its locks (*mutexModel or
	// *rwModel), an unlock of which clears it, and suspectFailed says
	// whether the test had failed when it was found.
	suspect       *Failure
	suspectLocks  []any
	suspectFailed bool

	failure  *Failure
	verdict  string // set for outcomes other than error/none (stuck, diverged)
	diverged string
	toolErr  string // the search cannot go on (VerdictInvalid)
	// deadline is when the search's budget runs out (zero: none); an
	// execution still running then is cut off, overBudget set.
	deadline   time.Time
	overBudget bool
	// truncated is set when the execution was cut off at the step bound
	// (or, tooMany, because it started more than maxGoroutines).
	truncated, tooMany bool
	// t is the test of the execution; failedAtEnd says that it had
	// failed when the execution ended, failedFirst that it had when a
	// deadlock ended it.
	t                        interface{ Failed() bool }
	failedAtEnd, failedFirst bool
	// want is the failure the search is for (Config.Want, or what a
	// replay's token recorded); other races do not end the execution.
	want *Want
	// The virtual clock (clock.go): now is its time, start its time
	// when the execution began; timers are the pending deadlines, tseq
	// numbers their arming; timeChans maps the channels of timers and
	// tickers (and the Done channels of contexts with a deadline) to
	// their deadline; idleSince and idleClock are the real and virtual
	// times at which the execution went idle waiting for uncontrolled
	// code.
	// randSeed seeds rng and rng2, the sources of math/rand's and
	// math/rand/v2's top-level functions (rand.go); tokens record it.
	randSeed   uint64
	rng        *rand.Rand
	rng2       *randv2.Rand
	now, start time.Time
	timers     timerHeap
	tseq       uint64
	timeChans  map[chanKey]*vtimer
	// ext orders the calls into code the runtime does not control that
	// may synchronize (see Ext): each releases into it and acquires it.
	ext                  objHdr
	ctxs                 map[chanKey]*ctxState // contexts made under control, by Done channel
	wgs                  []unsafe.Pointer      // the WaitGroups modelled (see endedWGs)
	testCtxs             map[cleaner]*testCtx  // t.Context() of the test and its subtests
	idleSince, idleClock time.Time
	realClock            bool // the clock once waited on real time for uncontrolled code
	// cleanups are the functions registered with Cleanup, by the test
	// or subtest they run at the end of (see Cleanup).
	cleanups  map[cleaner][]func()
	side      []sideFailure // failures that did not end the execution
	sideRaces [][2]int      // the location pairs of the side races
	// siteLocs marks the locations at the sites of a wanted race, and
	// siteGs are the goroutines that executed accesses there.
	siteLocs []bool
	siteGs   []int
	ended    bool
	dying    bool
	done     chan struct{}
	exited   chan struct{}
}

// event is one trace entry before symbolisation.
type event struct {
	step   int
	g      int
	op     opKind
	obj    int
	kind   uint8
	choice int
	loc    int
	pc     uintptr
}

// newExec prepares execution n of a search.
func newExec(cfg *Config, n int, strategy Strategy) *exec {
	e := &exec{
		cfg:      cfg,
		n:        n,
		epoch:    epochs.Add(1),
		strategy: strategy,
		stall:    time.Duration(cfg.StallMillis) * time.Millisecond,
		stuck:    stuckAfter,
		maxSteps: cfg.MaxSteps,
		lastG:    -1,
		chans:    make(map[chanKey]*chanState),
		addrs:    make(map[chanKey]*objHdr),
		done:     make(chan struct{}),
		exited:   make(chan struct{}, 1),
	}
	if e.stall <= 0 {
		e.stall = defaultStall
	}
	if e.maxSteps <= 0 {
		e.maxSteps = defaultMaxSteps
	}
	e.tailSteps = min(e.maxSteps, defaultTailSteps)
	e.now = time.Now()
	e.start = e.now
	e.randSeed = mix(uint64(cfg.Seed), uint64(n)+0x5eed)
	if r, ok := strategy.(*replay); ok && r.randSeed != 0 {
		e.randSeed = r.randSeed
	}
	if s, ok := strategy.(interface{ NeedsStacks() bool }); ok && s.NeedsStacks() {
		e.wantStack = true
	}
	switch strategy.(type) {
	case *random, *pct, serial:
		// They look only at Candidate.G: filling in the rest of each
		// candidate would be a good part of the cost of a decision.
		e.onlyGs = true
	}
	if r, ok := strategy.(*seedReplay); ok {
		strategy = r.Strategy
	}
	_, e.serial = strategy.(serial)
	_, e.replaying = strategy.(*replay)
	e.dec.e = e
	return e
}

const (
	// sleepReal is how long a decision really sleeps when only sleepers
	// can run and uncontrolled code may be what they wait for.
	sleepReal = 200 * time.Microsecond

	defaultStall = 150 * time.Millisecond
	// blockedAfter is how long the turn holder may be away from its
	// next scheduling point before the monitor looks whether it is
	// blocked in uncontrolled code (see blockedOutside).
	blockedAfter     = 3 * time.Millisecond
	defaultMaxSteps  = 100000
	defaultTailSteps = 20000
)

// newGLocked creates a controlled goroutine record (not yet started).
func (e *exec) newGLocked(parent *G, pc uintptr, f func()) *G {
	if len(e.gslab) == 0 {
		e.gslab = make([]G, max(4, cap(e.gs)-len(e.gs)))
	}
	g := &e.gslab[0]
	e.gslab = e.gslab[1:]
	g.id, g.parent, g.e = len(e.gs), -1, e
	g.wake = make(chan struct{}, 1)
	g.state, g.yieldStep, g.npoll = gParked, -1, 0
	g.spawnPC, g.fnPC = pc, funcPC(f)
	g.op = op{kind: opStart}
	e.seq++
	g.parkSeq = e.seq
	if parent != nil {
		g.parent = parent.id
		g.vc = parent.vc.clone()
		g.hb = mix(parent.hb, uint64(g.id)+1)
	}
	g.vc.tick(g.id)
	e.gs = append(e.gs, g)
	g.live = len(e.live)
	e.live = append(e.live, liveG{g: g})
	g.start = f
	return g
}

// wakeUp lets g, which was just given the turn (or is to die), go on. A
// goroutine given the turn for the first time is started then, on a
// worker (a goroutine that started eagerly would only wake to wait for
// its turn). Called without e.mu; start is the g.start that the caller
// took, under e.mu, when it gave g the turn.
func (g *G) wakeUp(start func()) {
	if start != nil {
		spawn(g, start)
		return
	}
	g.wake <- struct{}{}
}

// takeStart returns g.start and clears it (e.mu held).
func (g *G) takeStart() func() {
	f := g.start
	g.start = nil
	return f
}

// run is the body of every controlled goroutine, which holds the turn
// (or is to die) when run is called. It returns when f returned or
// panicked, not when it Goexited. A stack dump may show g as its second
// argument, which identifyAllLocked uses for goroutines whose id is not
// known yet (workers and adopted subtests record theirs).
//
//go:noinline
func (e *exec) run(g *G, f func()) {
	g.sp.Store(stackAddr())
	if e.slow.Load() {
		g.identify()
	}
	if g.die {
		g.exiting = true
		e.goexit(g, nil)
		return
	}
	normal := false
	defer e.goexit(g, &normal)
	f()
	normal = true
}

// mode says how an API operation must behave for its caller.
type mode uint8

const (
	modeReal  mode = iota // no controlled caller: behave like the real primitive
	modeCtl               // controlled: a scheduling point (e.mu held)
	modeDying             // the caller's execution is over: return at once
)

// enter identifies the caller of an API operation. In modeCtl it returns
// with e.mu held.
func enter() (*exec, *G, mode) {
	e := active.Load()
	if e == nil {
		if strayCount.Load() > 0 {
			if g, md := strayEnter(); md != modeReal {
				return nil, g, md
			}
		}
		return nil, nil, modeReal
	}
	e.mu.Lock()
	g := e.callerLocked()
	if g == nil {
		e.mu.Unlock()
		if strayCount.Load() > 0 {
			if g, md := strayEnter(); md != modeReal {
				return nil, g, md
			}
		}
		e.foreignOps.Add(1)
		return nil, nil, modeReal
	}
	if e.ended || e.dying {
		if g.state == gDetached {
			g.state = gRunning
			e.ndetached--
		}
		e.mu.Unlock()
		if !g.exiting {
			g.kill()
		}
		return nil, g, modeDying
	}
	if g.state == gDetached {
		// Back from uncontrolled code: rejoin; point parks it.
		e.ndetached--
		g.state = gParked
	}
	return e, g, modeCtl
}

// callerLocked returns the controlled goroutine calling, or nil. Since one
// controlled goroutine runs at a time, the turn holder is the caller when
// the call comes from near where its stack last was (see nearStack); else,
// and while goroutines run detached, strays of earlier executions exist or
// goroutines the runtime did not start were seen, the caller is identified
// by its real goroutine id.
func (e *exec) callerLocked() *G {
	if e.ndetached == 0 && strayCount.Load() == 0 && !foreignSeen.Load() {
		if g := e.cur; g != nil && g.state == gRunning && nearStack(stackAddr(), g.sp.Load()) {
			return g
		}
	}
	e.slowPathLocked()
	id := curGoid()
	for _, g := range e.gs {
		if g.state != gDead && g.goid.Load() == id {
			g.sp.Store(stackAddr())
			return g
		}
	}
	// A goroutine the runtime did not start calls operations: from now on
	// (in this process) identify every caller by goroutine id, so that it
	// is never taken for the turn holder.
	foreignSeen.Store(true)
	return nil
}

// stackAddr returns an address in the calling goroutine's stack (of a
// variable in its own frame, just below the caller's).
//
//go:noinline
func stackAddr() uintptr {
	var x byte
	return uintptr(unsafe.Pointer(&x))
}

// nearStack reports whether sp is within sameStack of the address a
// goroutine last proved its identity at: then the caller is taken to be
// that goroutine. Another goroutine's stack is elsewhere (stacks are
// separate blocks of memory), so a goroutine the runtime did not
// start, calling while a controlled one holds the turn, goes to the slow
// path, which knows callers exactly; so does the turn holder itself when
// it calls from much deeper or shallower frames than last time, or after
// its stack moved, and it is then remembered there.
func nearStack(sp, at uintptr) bool {
	d := sp - at
	if sp < at {
		d = at - sp
	}
	return at != 0 && d < sameStack
}

// sameStack bounds the distance between two addresses taken to be in one
// goroutine's stack.
const sameStack = 2 << 10

// foreignSeen is set once a goroutine the runtime does not control was
// seen calling an operation during an execution.
var foreignSeen atomic.Bool

// point is the scheduling point of g, whose pending operation is set.
// Called with e.mu held; returns with it released, once g has been chosen
// and its operation executed.
func (e *exec) point(g *G) {
	if e.wantStack {
		g.stack = captureStack(g.stack, 3) // reuses g's buffer: the old stack is stale
	}
	g.state = gParked
	e.seq++
	g.parkSeq = e.seq
	e.live[g.live].waitMu = nil
	if g.op.kind == opLock {
		e.live[g.live].waitMu = g.op.mu // nil for an RWMutex
	}
	if e.cur == g || e.cur == nil {
		e.cur = nil
		if !e.canRunLocked(g) {
			e.checkCycleLocked(g)
		}
		next := e.decideLocked()
		if next == g {
			g.state = gRunning
			e.cur = g
			e.mu.Unlock()
			return
		}
		e.handoffLocked(next)
	} else {
		e.mu.Unlock()
	}
	<-g.wake
	g.sp.Store(stackAddr())
	if e.slow.Load() {
		g.identify()
	}
	if g.die {
		g.kill()
	}
}

// handoffLocked gives the turn to next (nil: nobody) and releases e.mu.
func (e *exec) handoffLocked(next *G) {
	if next == nil {
		e.mu.Unlock()
		return
	}
	next.state = gRunning
	e.cur = next
	start := next.takeStart()
	e.mu.Unlock()
	next.wakeUp(start)
}

// decideLocked picks the next goroutine among the enabled ones, executes
// its pending operation and returns it; nil when nobody can run (the
// execution is idle or over).
func (e *exec) decideLocked() *G {
	for !e.ended {
		en := e.enabledLocked()
		if e.ended {
			return nil
		}
		if len(en) == 0 {
			if e.advanceClockLocked() {
				continue // deadlines fired: someone may run now
			}
			if !e.ended {
				e.idleOrEndLocked()
			}
			return nil
		}
		if e.pastDeadline() {
			e.truncated, e.overBudget = true, true
			e.endLocked(nil)
			return nil
		}
		if e.step >= e.maxSteps || e.bodyDone && e.step-e.bodyEnd > e.tailSteps {
			// Cut off: a long execution, or goroutines that keep
			// running after the body returned, is no failure (a spin
			// loop that fairness did not end, a busy background
			// goroutine): the execution ends without a verdict.
			e.truncated = true
			e.endLocked(nil)
			return nil
		}
		// The clock moves when every enabled goroutine spins (not
		// when fairness leaves only spinners: a goroutine behind them
		// may be working), and only after they spun a round each since
		// anything else happened (see spinRound): a spinner in a
		// back-off must look again before time passes, or a ticker
		// would fire between its yields and starve it. Both depend
		// only on the schedule so far, so a replay moves the clock
		// where its search did.
		fair := en
		if !e.replaying {
			// A token records the choices among the enabled
			// goroutines; fairness only guides a search.
			fair = e.fairLocked(en)
		}
		if e.onlySpinnersLocked(en) {
			if e.ndetached > 0 || e.nExt > 0 {
				// Everyone runnable is spinning while uncontrolled code
				// may be working: let a little real time pass. The lock
				// stays held so that nobody else decides meanwhile.
				time.Sleep(sleepReal)
			}
			if e.spinSteps >= spinRound*len(en) && e.advanceClockLocked() {
				e.spinSteps = 0
				continue // a spin loop may be waiting for a deadline
			}
			if e.ended {
				return nil
			}
		}
		e.fillDecisionLocked(fair)
		i := e.pickLocked()
		if i < 0 || i >= len(fair) {
			e.divergeLocked(i)
			return nil
		}
		g := fair[i]
		if g.id != e.lastG && e.lastG >= 0 && enabledIn(en, e.lastG) {
			e.preemptions++
		}
		if !e.execLocked(g, en) {
			continue // registered as waiting (RWMutex), still parked
		}
		if e.ended {
			return nil
		}
		return g
	}
	return nil
}

// enabledIn reports whether goroutine id is among en.
func enabledIn(en []*G, id int) bool {
	for _, g := range en {
		if g.id == id {
			return true
		}
	}
	return false
}

// pickLocked asks the strategy for the next goroutine. A panicking
// strategy (a bug of the tool, not of the program) ends the search with
// verdict invalid instead of hanging the scheduler, whose lock is held.
func (e *exec) pickLocked() (i int) {
	defer e.recoverStrategy(&i)
	return e.strategy.Pick(&e.dec)
}

// pickCaseLocked asks the strategy for a select case, like pickLocked.
func (e *exec) pickCaseLocked(g int, ready []int) (i int) {
	defer e.recoverStrategy(&i)
	return e.strategy.PickCase(&e.dec, g, ready)
}

func (e *exec) recoverStrategy(i *int) {
	if r := recover(); r != nil {
		e.toolErr = fmt.Sprintf("strategy %T panicked: %v\n%s", e.strategy, r, debug.Stack())
		e.verdict = VerdictInvalid
		e.endLocked(nil)
		*i = -1
	}
}

// divergeLocked ends the execution because the strategy could not follow
// its schedule.
func (e *exec) divergeLocked(i int) {
	if e.ended {
		return
	}
	msg := fmt.Sprintf("strategy returned choice %d of %d at step %d", i, len(e.dec.Enabled), e.step+1)
	if d, ok := e.strategy.(interface{ Divergence() string }); ok && d.Divergence() != "" {
		msg = d.Divergence()
	}
	e.diverged = msg
	e.verdict = VerdictDiverged
	e.endLocked(nil)
}

// idleOrEndLocked handles a decision with no enabled goroutine.
func (e *exec) idleOrEndLocked() {
	alive, blocked := 0, []int(nil)
	for _, g := range e.gs {
		if g.state == gDead {
			continue
		}
		alive++
		if g.state == gParked && (!g.op.ext || e.waitsOnTimeLocked(g) || e.waitsOnContextLocked(g)) {
			blocked = append(blocked, g.id)
		}
	}
	switch {
	case alive == 0:
		e.endLocked(nil)
	case e.uncontrolledPendingLocked():
		e.cur = nil // idle: the monitor polls and waits for them
	case e.bodyDone:
		e.endLocked(e.leakLocked(blocked))
	default:
		e.endLocked(e.blockedFailureLocked(FailDeadlock, "all goroutines are blocked", blocked))
	}
}

// leakLocked is the leak oracle, asked when the body has returned and the
// goroutines left are all blocked on modelled objects (none runs, none is
// detached or waits on an external channel). A goroutine is leaked only
// when no party is left that could wake it: one that waits on a channel
// made outside the execution (package state a later test can still use)
// is not, and while any goroutine waits on time, none is (a timer or
// ticker can still wake it or what it waits for). Nil: no leak.
func (e *exec) leakLocked(blocked []int) *Failure {
	if e.cfg.NoLeaks {
		return nil
	}
	var leaked []int
	for _, id := range blocked {
		g := e.gs[id]
		if e.waitsOnTimeLocked(g) {
			return nil
		}
		if !e.waitsOnOutsideLocked(g) {
			leaked = append(leaked, id)
		}
	}
	if len(leaked) == 0 {
		return nil
	}
	return e.blockedFailureLocked(FailLeak, "the test body returned but goroutines it started are blocked forever, with nothing left that could wake them", leaked)
}

// waitsOnOutsideLocked reports whether the parked goroutine g waits only
// on channels made outside the execution (package state): every case of
// its receive, send or select.
func (e *exec) waitsOnOutsideLocked(g *G) bool {
	o := &g.op
	n := o.ncases()
	if n == 0 {
		return false
	}
	for i := 0; i < n; i++ {
		c := o.caseAt(i)
		if c.ch == nil || c.cs == nil || c.cs.global == nil {
			return false
		}
	}
	return true
}

// blockedFailureLocked describes goroutines blocked on modelled objects.
func (e *exec) blockedFailureLocked(kind, msg string, ids []int) *Failure {
	var b strings.Builder
	b.WriteString(msg)
	f := &Failure{Kind: kind, Goroutines: ids}
	dumps := e.stackDumpsLocked(ids)
	stacks := make([]string, 0, len(ids))
	for _, id := range ids {
		g := e.gs[id]
		fmt.Fprintf(&b, "\n\tgoroutine %d: %s", id, e.describeWaitLocked(g))
		w := e.waitLocked(g)
		w.Frames = userFramePositions(dumps[id])
		if w.Spawned != "" {
			fmt.Fprintf(&b, " (started at %s)", w.Spawned)
		}
		f.Waits = append(f.Waits, w)
		if g.op.hdr != nil {
			f.Objects = appendUnique(f.Objects, g.op.hdr.id)
		}
		if d := dumps[id]; d != "" {
			stacks = append(stacks, fmt.Sprintf("[confirm goroutine %d] %s", id, userFrames(d)))
		}
	}
	f.Message = b.String()
	sort.Strings(stacks)
	f.Stack = strings.Join(stacks, "\n\n")
	return f
}

// waitLocked describes what the parked goroutine g waits for, but for its
// frames.
func (e *exec) waitLocked(g *G) Wait {
	o := &g.op
	w := Wait{G: g.id, Op: o.kind.String(), Spawned: posOf(g.spawnPC)}
	if o.kind == opCondSleep {
		w.Op = opCondWait.String()
	}
	if o.hdr != nil {
		w.Object, w.ObjectKind = o.hdr.id, kindNames[o.hdr.kind]
	}
	var one [1]int
	w.Holders = slices.Clone(e.holdersLocked(g, &one))
	switch {
	case o.mu != nil && (o.kind == opLock || o.kind == opTryLock):
		w.LockedAt = posOf(o.mu.pc)
	case o.rw != nil:
		w.LockedAt = posOf(o.rw.wPC)
		if o.kind == opRLock {
			w.HoldsRead = slices.Contains(o.rw.readerGs, g.id)
			if o.rw.wHeld {
				w.Holders = []int{o.rw.wOwner}
			}
		}
	}
	return w
}

// describeWaitLocked says what a parked goroutine waits for.
func (e *exec) describeWaitLocked(g *G) string {
	o := &g.op
	s := o.kind.String()
	if o.hdr != nil {
		s += fmt.Sprintf(" of %s #%d", kindNames[o.hdr.kind], o.hdr.id)
	}
	var one [1]int
	if h := e.holdersLocked(g, &one); len(h) > 0 {
		s += fmt.Sprintf(" (held by goroutine %s)", joinInts(h))
	}
	if o.kind == opSelect && len(o.cases) == 0 {
		s = "select {} (blocks forever)"
	}
	if (o.kind == opSend || o.kind == opRecv) && o.c0.ch == nil {
		s += " on nil channel"
	}
	if pos := posOf(o.pc); pos != "" {
		s += " at " + pos
	}
	return s
}

// endLocked ends the execution (first outcome wins).
func (e *exec) endLocked(f *Failure) {
	if e.ended {
		return
	}
	e.ended = true
	// A deadlock after the test already failed is its consequence (a
	// Close waiting for what a failed assertion left behind): the
	// outcome is the test failure.
	e.failedAtEnd = e.t != nil && e.t.Failed()
	failedBefore := e.failedAtEnd
	if e.suspect != nil && f != nil && (f.Kind == FailDeadlock || f.Kind == FailLeak) {
		// Nothing can run and no lock of the cycle was released: its
		// goroutines have waited for each other since it was found. (An
		// execution cut off while others still ran says nothing: they
		// might have unlocked one.)
		f, failedBefore = e.suspect, e.suspectFailed
	}
	e.failure = f
	e.failedFirst = f != nil && f.Kind == FailDeadlock && failedBefore
	e.cur = nil
	close(e.done)
}

// A liveG is an entry of exec.live: a goroutine not dead and, while it
// is parked at the Lock of a Mutex, that Mutex, so that the scan for
// enabled goroutines skips it without reading the G while the Mutex is
// held (waiting for a lock is the most common way to be blocked).
type liveG struct {
	g      *G
	waitMu *mutexModel // nil unless parked at its Lock; stale once g runs
}

// removeLiveLocked takes the dead goroutine g out of e.live, keeping the
// id order.
func (e *exec) removeLiveLocked(g *G) {
	i := g.live
	if i < 0 || i >= len(e.live) || e.live[i].g != g {
		return
	}
	e.live = slices.Delete(e.live, i, i+1)
	for j := i; j < len(e.live); j++ {
		e.live[j].g.live = j
	}
	g.live = -1
}

// goexit runs when a controlled goroutine's function returns, panics or
// Goexits. normal is nil for a goroutine killed before it started.
func (e *exec) goexit(g *G, normal *bool) {
	var f *Failure
	if normal != nil && !*normal {
		if r := recover(); r != nil && !g.exiting {
			stack := string(debug.Stack())
			f = &Failure{
				Kind:       FailPanic,
				Message:    fmt.Sprintf("panic in goroutine %d: %v", g.id, r),
				Stack:      userFrames(stack),
				Goroutines: []int{g.id},
				Frames:     userFramePositions(stack),
			}
		}
	}
	e.mu.Lock()
	wasCur := e.cur == g
	if g.state == gDetached {
		e.ndetached--
	}
	g.state = gDead
	e.removeLiveLocked(g)
	if g.stray {
		strayRemove(g)
	}
	if g.id == 0 && !e.bodyDone {
		e.bodyDone = true
		e.bodyEnd = e.step
	}
	if wasCur {
		e.cur = nil
	}
	if e.ended || e.dying {
		e.mu.Unlock()
		select {
		case e.exited <- struct{}{}:
		default:
		}
		return
	}
	e.events = append(e.events, event{step: e.step, g: g.id, op: opExit, loc: -1})
	if f != nil {
		e.endLocked(f)
		e.mu.Unlock()
		return
	}
	if e.cur == nil {
		e.handoffLocked(e.decideLocked())
		return
	}
	e.mu.Unlock()
}

// finish waits for the execution to end, then kills its leftover
// goroutines one at a time (dying mode: their operations return at once,
// their defers run). Goroutines stuck in uncontrolled code past a deadline
// are registered as strays.
func (e *exec) finish() {
	<-e.done
	limit := max(100*time.Millisecond, 5*e.stall)
	timer := time.NewTimer(limit)
	defer timer.Stop()
	e.mu.Lock()
	e.dying = true
	for _, g := range e.gs {
		if g.start != nil {
			// Never given the turn: no real goroutine runs it.
			g.start, g.state = nil, gDead
			e.removeLiveLocked(g)
		}
	}
	for {
		var victim *G
		running := 0
		for _, g := range e.gs {
			switch g.state {
			case gParked:
				if victim == nil {
					victim = g
				}
			case gRunning, gDetached:
				running++
			}
		}
		if victim == nil && running == 0 {
			break
		}
		if running == 0 {
			victim.die = true
			victim.state = gRunning
			e.cur = victim
			start := victim.takeStart()
			e.mu.Unlock()
			victim.wakeUp(start)
		} else {
			e.mu.Unlock()
		}
		select {
		case <-e.exited:
		case <-timer.C:
			e.mu.Lock()
			for _, g := range e.gs {
				if g.state != gDead {
					strayAdd(g)
				}
			}
			e.mu.Unlock()
			return
		}
		e.mu.Lock()
	}
	e.mu.Unlock()
}

// monitor is the watchdog of an execution: it detaches a goroutine that
// does not reach its next scheduling point within the stall time, polls
// external channels while the execution is idle, and gives up when
// nothing at all progresses for e.stuck.
func (e *exec) monitor() {
	lastStep, lastChange := -1, time.Now()
	looked := false // whether the turn holder was looked at since the last step
	tick := min(e.stall/4, blockedAfter)
	timer := time.NewTimer(tick)
	defer timer.Stop()
	idleWait := time.Millisecond
	for {
		select {
		case <-e.done:
			return
		case <-timer.C:
		}
		e.mu.Lock()
		if e.ended {
			e.mu.Unlock()
			return
		}
		now := time.Now()
		if e.step != lastStep {
			lastStep, lastChange = e.step, now
			idleWait = time.Millisecond
			looked = false
		}
		next := tick
		switch {
		case e.cur != nil && e.cur.state == gRunning:
			away := now.Sub(lastChange)
			blocked := false
			if !looked && away >= blockedAfter {
				looked = true
				blocked = blockedOutside(e.cur.goid.Load())
			}
			if blocked || away >= e.stall {
				e.slowPathLocked()
				// What it did so far may reach the others through the
				// uncontrolled code it is in before its next point
				// releases it (see ext.go): release it now.
				e.cur.release(&e.ext)
				e.cur.vc.tick(e.cur.id)
				e.cur.state = gDetached
				e.ndetached++
				e.ndetachedEver++
				e.cur = nil
				e.handoffLocked(e.decideLocked())
				lastChange = now
				e.mu.Lock()
			}
		case e.cur == nil:
			if !e.deadline.IsZero() && now.After(e.deadline) && now.Sub(lastChange) < e.stall {
				// Waiting on uncontrolled code past the budget, in an
				// execution that still made progress lately (one that
				// made none is hung, not slow: it is left to end as
				// stuck, or to be killed as hung).
				e.truncated, e.overBudget = true, true
				e.endLocked(nil)
				e.mu.Unlock()
				return
			}
			if e.bodyDone && now.Sub(lastChange) >= e.stall {
				// The body returned; what is left waits on uncontrolled
				// code or external channels, and a real test would not
				// wait for it either.
				e.endLocked(nil)
				e.mu.Unlock()
				return
			}
			if now.Sub(lastChange) >= e.stuck {
				e.endLocked(e.stuckFailureLocked(now.Sub(lastChange)))
				e.mu.Unlock()
				return
			}
			e.handoffLocked(e.decideLocked())
			e.mu.Lock()
			next = idleWait
			idleWait = min(2*idleWait, 10*time.Millisecond)
		}
		e.mu.Unlock()
		timer.Reset(next)
	}
}

// pastDeadline reports, every 256 steps, whether the search's budget ran
// out during the execution.
func (e *exec) pastDeadline() bool {
	return !e.deadline.IsZero() && e.step&255 == 0 && time.Now().After(e.deadline)
}

// stuckFailureLocked describes an execution in which nothing progressed.
func (e *exec) stuckFailureLocked(d time.Duration) *Failure {
	var ids []int
	var b strings.Builder
	fmt.Fprintf(&b, "no progress for %v: blocked outside instrumented code", d.Round(time.Millisecond))
	for _, g := range e.gs {
		switch {
		case g.state == gDetached:
			ids = append(ids, g.id)
			fmt.Fprintf(&b, "\n\tgoroutine %d runs uncontrolled code", g.id)
		case g.state == gParked && g.op.ext:
			ids = append(ids, g.id)
			fmt.Fprintf(&b, "\n\tgoroutine %d waits on an external channel (%s)", g.id, e.describeWaitLocked(g))
		}
	}
	e.verdict = VerdictStuck
	return &Failure{Kind: FailStuck, Message: b.String(), Goroutines: ids, Stack: e.stacksLocked(ids)}
}

// stacksLocked returns the stacks of the given controlled goroutines.
func (e *exec) stacksLocked(ids []int) string {
	dumps := e.stackDumpsLocked(ids)
	var out []string
	for _, id := range ids {
		// A goroutine whose frames are all the scheduler's (it has
		// finished, or parked before its first step) has nothing to show.
		if f := userFrames(dumps[id]); hasFrames(f) {
			out = append(out, fmt.Sprintf("[confirm goroutine %d] %s", id, f))
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n\n")
}

// stackDumpsLocked returns the stack dumps (as runtime.Stack writes them)
// of the given controlled goroutines that have a real goroutine, by id.
func (e *exec) stackDumpsLocked(ids []int) map[int]string {
	e.identifyAllLocked()
	want := make(map[int64]int)
	for _, id := range ids {
		if gid := e.gs[id].goid.Load(); gid != 0 {
			want[gid] = id
		}
	}
	if len(want) == 0 {
		return nil
	}
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	out := make(map[int]string, len(want))
	for _, s := range strings.Split(string(buf), "\n\n") {
		if id, ok := want[parseGoid(s)]; ok {
			out[id] = s
		}
	}
	return out
}

// rtDir is the directory of this package's source files, wherever it was
// injected.
var rtDir = func() string {
	file, _ := runtime.FuncForPC(funcPC(rtMarker)).FileLine(funcPC(rtMarker))
	return file[:strings.LastIndexByte(file, '/')+1]
}()

func rtMarker() {}

// userFrames removes the frames of this package's (non-test) source files
// from a goroutine's stack dump, keeping its header and "created by" lines.
func userFrames(s string) string {
	lines := strings.Split(s, "\n")
	out := lines[:1]
	for i := 1; i < len(lines); i++ {
		l := lines[i]
		if i+1 < len(lines) && !strings.HasPrefix(l, "created by ") {
			file := strings.TrimPrefix(lines[i+1], "\t")
			if strings.HasPrefix(file, rtDir) && !strings.Contains(file, "_test.go:") {
				i++
				continue
			}
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// hasFrames reports whether a stack dump, as userFrames leaves it, shows
// any function of the program.
func hasFrames(s string) bool {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		switch l := strings.TrimSpace(lines[i]); {
		case strings.HasPrefix(l, "created by "):
			i++ // and its position line
		case l != "":
			return true
		}
	}
	return false
}

func appendUnique(s []int, v int) []int {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

func joinInts(s []int) string {
	parts := make([]string, len(s))
	for i, v := range s {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, ", ")
}

// identify records the calling goroutine's id as g's.
func (g *G) identify() {
	if g.goid.Load() == 0 {
		g.goid.Store(curGoid())
	}
}

// slowPathLocked switches the execution to identifying callers by
// goroutine id, before a goroutine is detached. The ids of goroutines
// parked in the scheduler are recorded when they wake; those of running
// goroutines (the one being detached) are found in a dump of all stacks,
// by the G pointer argument of their run frame.
func (e *exec) slowPathLocked() {
	if !e.slow.Swap(true) {
		e.identifyAllLocked()
	}
}

// identifyAllLocked finds the goroutine ids of the execution's live
// goroutines in a dump of all stacks.
func (e *exec) identifyAllLocked() {
	want := make(map[string]*G)
	for _, g := range e.gs {
		if g.state != gDead && g.goid.Load() == 0 {
			want[fmt.Sprintf("%p", g)] = g
		}
	}
	if len(want) == 0 {
		return
	}
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	for _, s := range strings.Split(string(buf), "\n\n") {
		i := strings.Index(s, ".(*exec).run(")
		if i < 0 {
			continue
		}
		args := strings.Split(s[i+len(".(*exec).run("):], ", ")
		if len(args) < 2 {
			continue
		}
		if g := want[strings.TrimSuffix(args[1], "?")]; g != nil {
			g.goid.Store(parseGoid(s))
		}
	}
}
