package rt

import (
	"encoding/json"
	"fmt"
	"os"
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
func runSearch(t *testing.T, cfg *Config, body func(*testing.T)) *Result {
	searchMu.Lock()
	defer searchMu.Unlock()
	start := time.Now()
	res := &Result{Test: t.Name(), Verdict: VerdictNone}
	strategy, err := newStrategy(cfg, t.Name())
	if err != nil {
		res.Verdict, res.Error = VerdictInvalid, err.Error()
		writeResult(t, cfg, res)
		return res
	}
	maxExecs := cfg.MaxExecs
	if cfg.Strategy == "replay" {
		maxExecs = 1
	} else if maxExecs == 0 && cfg.BudgetMillis == 0 {
		maxExecs = defaultMaxExecs
	}
	budget := time.Duration(cfg.BudgetMillis) * time.Millisecond
	pw := newProgressWriter(cfg, t.Name())
	capture := cfg.Strategy == "replay" || wantsStacks(strategy)
	capturePCs.Store(capture)
	var prev *exec
	for n := 0; maxExecs == 0 || n < maxExecs; n++ {
		if budget > 0 && time.Since(start) > budget {
			break
		}
		pw.write(n, res.Stats.Executions, strategy)
		strategy.Begin(n)
		e := newExec(cfg, n, strategy)
		e.reuse(prev)
		prev = e
		ok := t.Run(fmt.Sprintf("confirm#%d", n), func(st *testing.T) { e.runBody(st, body) })
		res.Stats.Executions++
		res.Stats.Steps += int64(e.step)
		res.Stats.ForeignOps += e.foreignOps.Load()
		if e.toolErr != "" {
			res.Verdict, res.Error = VerdictInvalid, e.toolErr
			break
		}
		o := e.outcome(ok, t.Name())
		more := strategy.End(o)
		if x, ok := strategy.(interface{ Exhausted() bool }); ok && x.Exhausted() {
			res.Stats.Exhausted = true
		}
		if d, ok := strategy.(interface{ Divergence() string }); ok && o.Diverged == "" && d.Divergence() != "" {
			o.Diverged = d.Divergence()
		}
		last := o.Failure != nil || o.Diverged != "" || !more
		if o.Failure != nil && o.Failure.Kind != FailStuck && !capture {
			// Re-run the failing execution with positions recorded.
			if e2, o2 := traced(t, cfg, n, encodeToken(t.Name(), e.tok), body); e2 != nil {
				e, o = e2, o2
			}
		}
		if cfg.Strategy == "replay" || o.Failure != nil || o.Diverged != "" {
			e.mu.Lock()
			res.Trace, res.Goroutines = e.traceLocked()
			e.mu.Unlock()
			res.Token = encodeToken(t.Name(), e.tok)
		}
		switch {
		case o.Diverged != "":
			res.Verdict, res.Divergence = VerdictDiverged, o.Diverged
		case o.Failure != nil:
			res.Verdict, res.Failure = VerdictError, o.Failure
			if o.Failure.Kind == FailStuck {
				res.Verdict = VerdictStuck
			}
			res.Stats.StepsToError = o.Steps
		}
		if last {
			break
		}
	}
	releaseWorkers()
	res.Stats.Seconds = time.Since(start).Seconds()
	writeResult(t, cfg, res)
	return res
}

const defaultMaxExecs = 1000

// runBody runs one execution of body as controlled goroutine 0 and
// returns when the execution and its leftover goroutines are over.
func (e *exec) runBody(t *testing.T, body func(*testing.T)) {
	e.runMain(func() { body(t) }, **(**uintptr)(unsafe.Pointer(&body)))
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
}

// outcome returns what the finished execution found; passed is the
// subtest's result.
func (e *exec) outcome(passed bool, test string) *Outcome {
	e.mu.Lock()
	defer e.mu.Unlock()
	o := &Outcome{Steps: e.step, Failure: e.failure, Diverged: e.diverged}
	if !passed && o.Diverged == "" && (o.Failure == nil || o.Failure.Kind == FailLeak) {
		// A failed test is the root cause of goroutines left waiting for
		// a body that stopped early (t.FailNow).
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
// that dies still leaves it.
type progressWriter struct {
	cfg  *Config
	name []byte
	test string
}

func newProgressWriter(cfg *Config, test string) *progressWriter {
	name, _ := json.Marshal(test)
	return &progressWriter{cfg: cfg, name: name, test: test}
}

func (p *progressWriter) write(n, execs int, s Strategy) {
	if p.cfg.ResultFile == "" {
		return
	}
	tok := p.cfg.Replay
	switch s := s.(type) {
	case *random:
		tok = seedToken{test: p.test, strategy: 1, seed: s.seed, n: n}.encode()
	case *pct:
		tok = seedToken{test: p.test, strategy: 2, seed: s.seed, n: n, depth: s.depth, k: s.k}.encode()
	}
	data := fmt.Appendf(nil, `{"test":%s,"verdict":%q,"token":%q,"stats":{"executions":%d}}`, p.name, VerdictCrashed, tok, execs)
	_ = os.WriteFile(p.cfg.ResultFile, data, 0o644)
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
	capturePCs.Store(true)
	defer capturePCs.Store(false)
	rs.Begin(0)
	e := newExec(cfg, n, rs)
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
