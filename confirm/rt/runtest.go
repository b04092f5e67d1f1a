package rt

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"
)

// searchMu serialises searches: one controlled execution at a time per
// process.
var searchMu sync.Mutex

// RunTest runs a rewritten test body. Without CONFIRM_CONFIG in the
// environment it calls body(t). With it, it reads the Config and, unless
// the config names another test, runs executions of body under the
// controlled scheduler, each as a subtest "confirm#N", stops at the first
// error, and writes the Result to Config.ResultFile.
func RunTest(t *testing.T, body func(*testing.T)) {
	path := os.Getenv(EnvConfig)
	if path == "" {
		body(t)
		return
	}
	cfg, err := readConfig(path)
	if err != nil {
		t.Fatalf("confirm: %v", err)
		return
	}
	if cfg.Test != "" && cfg.Test != t.Name() {
		body(t)
		return
	}
	res := runSearch(t, cfg, body)
	if res.Verdict == VerdictInvalid {
		t.Fatalf("confirm: %s", res.Error)
	}
}

// readConfig reads a Config file. Every test of a test binary reads the
// same file, whose Locations can be long: it is parsed once, and again
// only if it changed.
func readConfig(path string) (*Config, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("reading config named by %s: %w", EnvConfig, err)
	}
	lastConfig.Lock()
	defer lastConfig.Unlock()
	if c := &lastConfig; c.cfg != nil && c.path == path && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.cfg, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config named by %s: %w", EnvConfig, err)
	}
	cfg := new(Config)
	if err := json.Unmarshal(data, cfg); err != nil {
		return nil, fmt.Errorf("parsing config %s: %w", path, err)
	}
	lastConfig.path, lastConfig.size, lastConfig.mod, lastConfig.cfg = path, fi.Size(), fi.ModTime(), cfg
	return cfg, nil
}

// lastConfig is the Config readConfig parsed last (never modified once
// parsed) and the file it came from.
var lastConfig struct {
	sync.Mutex
	path string
	size int64
	mod  time.Time
	cfg  *Config
}

// runSearch runs the executions a config asks for and writes the Result.
//
// A search starts with the test's serial execution (no preemption; see
// serial): if it fails, the test fails without any interleaving, and
// failures with that signature found later are not reported; if it passes,
// a second serial execution checks that the test can run twice in one
// process (VerdictUnrepeatable otherwise); if it starts no goroutine, there
// is nothing to interleave (Stats.Exhausted). Then the strategy's
// executions run until the budget is spent, the strategy has nothing left
// to explore, or a failure ends the search: one that matches Config.Want,
// or without Want any failure. A failure that does not match Want is kept
// in Result.Found (the first execution of each signature) and the search
// goes on.
func runSearch(t *testing.T, cfg *Config, body func(*testing.T)) *Result {
	searchMu.Lock()
	defer searchMu.Unlock()
	s := &searcher{t: t, cfg: cfg, body: body, start: time.Now(), found: make(map[string]bool)}
	s.res = &Result{Test: t.Name(), Verdict: VerdictNone}
	s.budget = time.Duration(cfg.BudgetMillis) * time.Millisecond
	strategy, err := newStrategy(cfg, t.Name())
	if err != nil {
		s.res.Verdict, s.res.Error = VerdictInvalid, err.Error()
		writeResult(t, cfg, s.res)
		return s.res
	}
	s.want = cfg.Want
	if r, ok := strategy.(*replay); ok {
		s.replayed = r
		s.want = r.want()
	}
	s.siteLocs = raceSites(s.want, cfg.Locations)
	s.pw = newProgressWriter(cfg, t.Name())
	s.capture = cfg.Strategy == "replay" || wantsStacks(strategy)
	capturePCs.Store(s.capture)
	if s.serialFirst() {
		s.explore(strategy)
	}
	releaseWorkers()
	s.pw.close()
	s.res.Stats.Seconds = time.Since(s.start).Seconds()
	writeResult(t, cfg, s.res)
	return s.res
}

// A searcher is the state of runSearch.
type searcher struct {
	t       *testing.T
	cfg     *Config
	body    func(*testing.T)
	res     *Result
	start   time.Time
	budget  time.Duration
	pw      *progressWriter
	capture bool // operations record their positions
	runs    int  // executions so far (the N of subtest confirm#N)
	prev    *exec
	serial  string          // the signature of the serial execution's failure
	found   map[string]bool // signatures of the failures in res.Found
	// want is the failure searched for: Config.Want, or what the
	// replayed token recorded.
	want     *Want
	replayed *replay // the replay strategy, when replaying a schedule
	// siteLocs marks the locations at the sites of a wanted race;
	// reached counts the executions that executed accesses there.
	siteLocs []bool
	reached  int
}

// oneGoroutineAfter is how many executions a search for a race runs
// before it concludes, when every one that reached the warned accesses
// ran them in one goroutine, that the test cannot show the race.
const oneGoroutineAfter = 20

// raceSites marks the locations at the sites of want, a race.
func raceSites(want *Want, locs []Location) []bool {
	if want == nil || want.Kind != WantRace {
		return nil
	}
	sites := make(map[string]bool, len(want.Sites))
	for _, s := range want.Sites {
		sites[s] = true
	}
	marks := make([]bool, len(locs))
	for i, l := range locs {
		marks[i] = sites[l.File+":"+itoa(l.Line)]
	}
	return marks
}

// oneGoroutine reports whether the search should stop because the test
// runs the warned accesses in one goroutine only.
func (s *searcher) oneGoroutine() bool {
	st := &s.res.Stats
	if s.siteLocs == nil || st.Executions < oneGoroutineAfter || s.reached == 0 || st.SiteGoroutines > 1 {
		return false
	}
	st.OneGoroutine = true
	return true
}

// over reports whether the budget is spent.
func (s *searcher) over() bool {
	return s.budget > 0 && time.Since(s.start) > s.budget
}

// run runs one execution with strategy, its k-th.
func (s *searcher) run(strategy Strategy, k int) (*exec, *Outcome) {
	s.pw.write(k, s.res.Stats.Executions, strategy)
	strategy.Begin(k)
	e := newExec(s.cfg, s.runs, strategy)
	e.want, e.siteLocs = s.want, s.siteLocs
	if s.budget > 0 && s.replayed == nil {
		e.deadline = s.start.Add(s.budget)
	}
	s.runs++
	e.reuse(s.prev)
	s.prev = e
	ok := s.t.Run(fmt.Sprintf("confirm#%d", e.n), func(st *testing.T) { e.runBody(st, s.body) })
	st := &s.res.Stats
	st.Executions++
	st.Steps += int64(e.step)
	st.ForeignOps += e.foreignOps.Load()
	st.Goroutines = max(st.Goroutines, len(e.gs))
	if e.overBudget {
		st.OverBudget++
	} else if e.truncated {
		st.Truncated++
	}
	st.TooManyGoroutines = st.TooManyGoroutines || e.tooMany
	if n := len(e.siteGs); n > 0 {
		st.SiteGoroutines = max(st.SiteGoroutines, n)
		s.reached++
	}
	o := e.outcome(ok, s.t.Name())
	s.sides(e)
	return e, o
}

// serialFirst runs the serial executions that start a search and reports
// whether the search goes on.
func (s *searcher) serialFirst() bool {
	switch s.cfg.Strategy {
	case "serial", "replay":
		return true
	}
	if s.cfg.NoSerial {
		return true
	}
	e, o := s.run(serial{}, 0)
	if s.toolError(e) || s.stuck(e, o) || e.tooMany {
		return false
	}
	switch {
	case o.Failure != nil && !needsNoInterleaving(o.Failure.Kind):
		// A race, deadlock or leak is a concurrency bug even when the
		// serial schedule has it.
		if s.failure(e, o) {
			return false
		}
	case o.Failure != nil:
		s.res.Serial = o.Failure
		s.serial = o.Failure.Signature()
	case !s.over():
		e, o = s.run(serial{}, 0)
		if s.toolError(e) || s.stuck(e, o) {
			return false
		}
		if o.Failure != nil && !needsNoInterleaving(o.Failure.Kind) {
			if s.failure(e, o) {
				return false
			}
		} else if o.Failure != nil {
			s.res.Verdict = VerdictUnrepeatable
			s.res.Serial = o.Failure
			s.res.Unrepeatable = "its first execution passed and the second, in the same process and without preemption, failed: " + firstLine(o.Failure.Message)
			s.record(e, o)
			return false
		}
	}
	if len(e.gs) == 1 && e.foreignOps.Load() == 0 {
		// The body started no goroutine (and none that the runtime
		// does not control took part): there is one schedule.
		s.res.Stats.Exhausted = true
		return false
	}
	return true
}

// explore runs the strategy's executions.
func (s *searcher) explore(strategy Strategy) {
	maxExecs := s.cfg.MaxExecs
	if s.cfg.Strategy == "replay" {
		maxExecs = 1
	} else if maxExecs == 0 && s.cfg.BudgetMillis == 0 {
		maxExecs = defaultMaxExecs
	}
	for k := 0; maxExecs == 0 || s.res.Stats.Executions < maxExecs; k++ {
		if s.over() {
			break
		}
		e, o := s.run(strategy, k)
		if s.toolError(e) {
			break
		}
		more := strategy.End(o)
		if x, ok := strategy.(interface{ Exhausted() bool }); ok && x.Exhausted() {
			s.res.Stats.Exhausted = true
		}
		if d, ok := strategy.(interface{ Divergence() string }); ok && o.Diverged == "" && d.Divergence() != "" {
			o.Diverged = d.Divergence()
		}
		if s.replayed != nil {
			s.checkReplay(e, o)
			return
		}
		switch {
		case o.Diverged != "":
			s.record(e, o)
			s.res.Verdict, s.res.Divergence = VerdictDiverged, o.Diverged
			return
		case s.stuck(e, o):
			return
		case o.Failure != nil && s.failure(e, o):
			return
		}
		if !more || s.oneGoroutine() || e.tooMany {
			break
		}
	}
}

// UncontrolledCause introduces, in a divergence, what of the execution
// the schedule does not fix.
const UncontrolledCause = "; likely cause: "

// uncontrolledCause says what in e ran outside the schedule's control, ""
// when nothing did: goroutines detached in uncontrolled code, goroutines
// the runtime did not start, a virtual clock that followed real time.
func (e *exec) uncontrolledCause() string {
	var why []string
	if e.ndetachedEver > 0 {
		why = append(why, fmt.Sprintf("%d goroutines ran detached in code Confirm does not control, whose timing the schedule cannot fix", e.ndetachedEver))
	}
	if n := e.foreignOps.Load(); n > 0 {
		why = append(why, fmt.Sprintf("goroutines Confirm did not start made %d operations", n))
	}
	if e.realClock {
		why = append(why, "the virtual clock followed real time while uncontrolled code could run")
	}
	if len(why) == 0 {
		return ""
	}
	return UncontrolledCause + strings.Join(why, "; ")
}

// checkReplay decides the verdict of a replay: the execution must follow
// its token and end in the failure the token recorded, if it recorded one.
func (s *searcher) checkReplay(e *exec, o *Outcome) {
	s.record(e, o)
	want := s.replayed.expect
	switch {
	case o.Diverged != "":
		s.res.Verdict, s.res.Divergence = VerdictDiverged, o.Diverged+e.uncontrolledCause()
	case want != nil && (o.Failure == nil || o.Failure.signatureHash() != want.sig):
		got := "no failure"
		if o.Failure != nil {
			got = o.Failure.Kind + ": " + firstLine(o.Failure.Message)
		}
		s.res.Verdict, s.res.Failure = VerdictDiverged, o.Failure
		s.res.Divergence = fmt.Sprintf("the schedule was followed, but the execution ended with %s; the token recorded a %s", got, want.kind) + e.uncontrolledCause()
	case o.Failure != nil:
		s.res.Verdict, s.res.Failure = VerdictError, o.Failure
		if o.Failure.Kind == FailStuck {
			s.res.Verdict = VerdictStuck
		}
		s.res.Stats.StepsToError = o.Steps
	}
}

// sides keeps the side failures of e: races that did not end it, since
// they are not the one searched for.
func (s *searcher) sides(e *exec) {
	for _, sf := range e.side {
		sig := sf.f.Signature()
		if s.found[sig] {
			continue
		}
		s.found[sig] = true
		tok := encodeToken(s.t.Name(), e.tok[:sf.upto], sf.f, e.randSeed)
		s.keep(e.n, sf.f, tok)
	}
}

// failure handles a failing execution and reports whether it ends the
// search.
func (s *searcher) failure(e *exec, o *Outcome) bool {
	sig := o.Failure.Signature()
	if s.serial != "" && sig == s.serial && needsNoInterleaving(o.Failure.Kind) {
		s.res.Stats.Ignored++
		return false
	}
	if s.want == nil {
		e, o = s.traced(s.shrink(e, o))
		s.record(e, o)
		s.res.Verdict, s.res.Failure = VerdictError, o.Failure
		s.res.Stats.StepsToError = o.Steps
		return true
	}
	if s.found[sig] && !s.mayMatch(o.Failure) {
		return false
	}
	if s.want.Matches(o.Failure, e.observedSequence()) {
		e, o = s.traced(s.shrink(e, o))
	} else {
		e, o = s.traced(e, o)
	}
	if s.want.Matches(o.Failure, e.observedSequence()) {
		s.record(e, o)
		s.res.Verdict, s.res.Failure = VerdictError, o.Failure
		s.res.Stats.StepsToError = o.Steps
		return true
	}
	if !s.found[sig] {
		s.found[sig] = true
		s.keep(e.n, o.Failure, encodeToken(s.t.Name(), e.tok, o.Failure, e.randSeed))
	}
	return false
}

// keep adds a bug found on the way to the result, with the trace of its
// token's replay (positions recorded).
func (s *searcher) keep(n int, f *Failure, tok string) {
	if len(s.res.Found) >= MaxFound {
		return
	}
	found := Found{Failure: f, Token: tok, Execution: n}
	if e2, o2 := traced(s.t, s.cfg, n, tok, s.body); e2 != nil && o2.Failure.signatureHash() == f.signatureHash() {
		found.Failure = o2.Failure
		e2.mu.Lock()
		found.Trace, found.Goroutines = e2.traceLocked()
		e2.mu.Unlock()
	}
	s.res.Found = append(s.res.Found, found)
}

// mayMatch reports whether a failure whose signature was seen before may
// still match Want once its positions are recorded (a lock acquisition
// site is known only then).
func (s *searcher) mayMatch(f *Failure) bool {
	return s.want.Kind == WantLockLeak && (f.Kind == FailDeadlock || f.Kind == FailLeak)
}

// traced returns the execution re-run from its token with positions
// recorded, or e itself when positions were recorded already or the
// re-run does not fail the same way.
func (s *searcher) traced(e *exec, o *Outcome) (*exec, *Outcome) {
	if s.capture {
		return e, o
	}
	if e2, o2 := traced(s.t, s.cfg, e.n, encodeToken(s.t.Name(), e.tok, o.Failure, e.randSeed), s.body); e2 != nil && o2.Failure.Signature() == o.Failure.Signature() {
		return e2, o2
	}
	return e, o
}

// record makes e's trace and token the result's.
func (s *searcher) record(e *exec, o *Outcome) {
	e.mu.Lock()
	s.res.Trace, s.res.Goroutines = e.traceLocked()
	e.mu.Unlock()
	s.res.Token = encodeToken(s.t.Name(), e.tok, o.Failure, e.randSeed)
}

// toolError ends the search when the runtime could not go on.
func (s *searcher) toolError(e *exec) bool {
	if e.toolErr == "" {
		return false
	}
	s.res.Verdict, s.res.Error = VerdictInvalid, e.toolErr
	return true
}

// stuck ends the search at an execution that made no progress.
func (s *searcher) stuck(e *exec, o *Outcome) bool {
	if o.Failure == nil || o.Failure.Kind != FailStuck {
		return false
	}
	s.record(e, o)
	s.res.Verdict, s.res.Failure = VerdictStuck, o.Failure
	s.res.Stats.StepsToError = o.Steps
	return true
}

// needsNoInterleaving reports whether a failure of kind may happen
// whatever the schedule (a test's own assertion, a panic, an exit), so
// that the serial execution having it means it is no concurrency bug. The
// runtime's own oracles (race, deadlock, leak) find concurrency bugs even
// in the serial schedule.
func needsNoInterleaving(kind string) bool {
	switch kind {
	case FailTest, FailPanic, FailExit:
		return true
	}
	return false
}

// observedSequence reports whether the execution passed every location of
// the config's sequence, in order.
func (e *exec) observedSequence() bool {
	seq := e.cfg.Sequence
	i := 0
	for _, ev := range e.events {
		if i == len(seq) {
			break
		}
		switch ev.op {
		case opObserve, opRead, opWrite:
			if ev.loc == seq[i] {
				i++
			}
		}
	}
	return i == len(seq)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

const defaultMaxExecs = 1000

// runBody runs one execution of body as controlled goroutine 0 and
// returns when the execution and its leftover goroutines are over.
func (e *exec) runBody(t *testing.T, body func(*testing.T)) {
	e.t = t
	e.ownCleanups(t)
	e.runMain(func() {
		defer e.runCleanups(t)
		body(t)
	}, **(**uintptr)(unsafe.Pointer(&body)))
}

// runMain runs one execution with f as goroutine 0; fnPC is the entry of
// the user's function it runs, for the trace.
func (e *exec) runMain(f func(), fnPC uintptr) {
	e.mu.Lock()
	if strayCount.Load() > 0 || foreignSeen.Load() {
		// Goroutines of earlier executions, or goroutines the runtime
		// does not control, call operations: identify every caller by
		// goroutine id.
		e.slow.Store(true)
	}
	g0 := e.newGLocked(nil, 0, f)
	if fnPC != 0 {
		g0.fnPC = fnPC
	}
	active.Store(e)
	go e.monitor()
	e.handoffLocked(e.decideLocked())
	e.finish()
	active.Store(nil)
	if e.wgs != nil || endedWGs.Load() != nil {
		endedWGs.Store(&e.wgs)
	}
}

// outcome returns what the finished execution found; passed is the
// subtest's result.
func (e *exec) outcome(passed bool, test string) *Outcome {
	e.mu.Lock()
	defer e.mu.Unlock()
	o := &Outcome{Steps: e.step, Failure: e.failure, Diverged: e.diverged}
	if e.truncated && !e.failedAtEnd {
		// Cut off: what failed after that failed in goroutines stopped
		// on the way (an assertion over half-done state), no evidence.
		passed = true
	}
	if !passed && o.Diverged == "" && (o.Failure == nil || o.Failure.Kind == FailLeak || e.failedFirst) {
		// A failed test is the root cause of goroutines left waiting for
		// a body that stopped early (t.FailNow), and of a deadlock that
		// came after it failed.
		f := &Failure{
			Kind:    FailTest,
			Message: fmt.Sprintf("the test failed in execution %d (its messages are in the output of %s/confirm#%d)", e.n, test, e.n),
		}
		if o.Failure != nil {
			f.Message += "; then: " + o.Failure.Message
			f.Goroutines, f.Objects, f.Stack = o.Failure.Goroutines, o.Failure.Objects, o.Failure.Stack
		}
		o.Failure = f
	}
	return o
}

// writeResult writes res to the config's result file.
func writeResult(t *testing.T, cfg *Config, res *Result) {
	if cfg.ResultFile == "" {
		return
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err == nil {
		err = os.WriteFile(cfg.ResultFile, data, 0o644)
	}
	if err != nil {
		t.Errorf("confirm: writing result: %v", err)
	}
}

// progressWriter writes, before each execution, a Result with verdict
// "crashed" and a token reproducing that execution, so that a process
// that dies still leaves it. The file stays open for the search and each
// record overwrites the last in place (padded with blanks, which JSON
// ignores): opening and truncating a file before every execution cost
// more than the execution.
type progressWriter struct {
	cfg  *Config
	name []byte
	test string
	f    *os.File
	size int // the longest record written
	buf  []byte
}

func newProgressWriter(cfg *Config, test string) *progressWriter {
	name, _ := json.Marshal(test)
	return &progressWriter{cfg: cfg, name: name, test: test}
}

func (p *progressWriter) write(n, execs int, s Strategy) {
	if p.cfg.ResultFile == "" {
		return
	}
	if p.f == nil {
		f, err := os.OpenFile(p.cfg.ResultFile, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return
		}
		p.f = f
	}
	tok := p.cfg.Replay
	switch s := s.(type) {
	case *random:
		tok = seedToken{test: p.test, strategy: 1, seed: s.seed, n: n}.encode()
	case *pct:
		tok = seedToken{test: p.test, strategy: 2, seed: s.seed, n: n, depth: s.depth, k: s.k}.encode()
	case serial:
		tok = seedToken{test: p.test, strategy: 3}.encode()
	}
	p.buf = fmt.Appendf(p.buf[:0], `{"test":%s,"verdict":%q,"token":%q,"stats":{"executions":%d}}`, p.name, VerdictCrashed, tok, execs)
	for len(p.buf) < p.size {
		p.buf = append(p.buf, ' ')
	}
	p.size = len(p.buf)
	_, _ = p.f.WriteAt(p.buf, 0)
}

// close closes the file; the final Result replaces it.
func (p *progressWriter) close() {
	if p.f != nil {
		_ = p.f.Close()
		p.f = nil
	}
}

// wantsStacks reports whether a strategy ranks goroutines by position.
func wantsStacks(s Strategy) bool {
	w, ok := s.(interface{ NeedsStacks() bool })
	return ok && w.NeedsStacks()
}

// traced replays execution n from its token with positions recorded. It
// returns nil unless the replay reproduces a failure of the same kind.
func traced(t *testing.T, cfg *Config, n int, tok string, body func(*testing.T)) (*exec, *Outcome) {
	rs, err := newReplay(tok, t.Name())
	if err != nil {
		return nil, nil
	}
	defer capturePCs.Store(capturePCs.Swap(true))
	rs.Begin(0)
	e := newExec(cfg, n, rs)
	e.want = rs.(*replay).want()
	ok := t.Run(fmt.Sprintf("confirm#%d-traced", n), func(st *testing.T) { e.runBody(st, body) })
	o := e.outcome(ok, t.Name())
	rs.End(o)
	if d := rs.(*replay).Divergence(); d != "" || o.Diverged != "" || o.Failure == nil {
		return nil, nil
	}
	return e, o
}

// reuse takes over the buffers of the previous execution.
func (e *exec) reuse(prev *exec) {
	if prev == nil {
		return
	}
	e.events, e.tok = prev.events[:0], prev.tok[:0]
	e.cands, e.fair, e.dec.Enabled = prev.cands[:0], prev.fair[:0], prev.dec.Enabled[:0]
	e.ready, e.cycle, e.seen = prev.ready[:0], prev.cycle[:0], prev.seen[:0]
	clear(prev.models) // the models of the previous execution are not used again
	e.models = prev.models
	// Goroutine records are not shared (a late monitor or stray of the
	// previous execution may still read them): only their number is.
	e.gs = make([]*G, 0, len(prev.gs))
	e.live = make([]liveG, 0, len(prev.gs))
}
