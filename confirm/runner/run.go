package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/confirm-go/confirm/confirm/rt"
)

// Verdicts of a Result besides the runtime's own (rt.VerdictError,
// rt.VerdictNone, rt.VerdictDiverged, rt.VerdictStuck).
const (
	// VerdictCrashed: the test process ended without a final result
	// (os.Exit or a fatal runtime error in code Confirm does not control).
	// Failure has kind FailCrash and quotes the tail of its output.
	VerdictCrashed = rt.VerdictCrashed
)

// FailCrash is the failure kind of VerdictCrashed.
const FailCrash = "crash"

// DefaultGrace is the wall time a test process gets beyond its search
// budget before it is killed.
const DefaultGrace = 10 * time.Second

// defaultTimeout bounds a run without a time budget.
const defaultTimeout = 5 * time.Minute

// RunOptions say how to run one test under control.
type RunOptions struct {
	// Config is the runtime's configuration: strategy, seed, bounds,
	// budget, replay token. Run fills in Test, ResultFile and Locations.
	Config rt.Config
	// Grace is the wall time the process gets beyond Config.BudgetMillis
	// before it is killed; 0 means DefaultGrace.
	Grace time.Duration
	// Timeout, when positive, replaces budget + grace as the wall-time
	// limit of the process.
	Timeout time.Duration
}

// Result is the outcome of a controlled run of one test: the runtime's
// Result with names for the trace's objects, the package, and a Token for
// `confirm replay`.
type Result struct {
	// Package is the import path of the package.
	Package string `json:"package"`
	// Test is the top-level test that was run.
	Test string `json:"test"`
	// Verdict is "error", "none", "diverged", "stuck" or "crashed".
	Verdict string `json:"verdict"`
	// Failure describes the error (verdicts error, stuck, crashed).
	Failure *rt.Failure `json:"failure,omitempty"`
	// Trace is the schedule of the failing (or replayed) execution.
	Trace []Event `json:"trace,omitempty"`
	// Goroutines describes every goroutine of the traced execution.
	Goroutines []rt.Goroutine `json:"goroutines,omitempty"`
	// Token is what `confirm replay -token` takes (see ParseToken).
	Token string `json:"token,omitempty"`
	// Divergence says how a replay diverged.
	Divergence string `json:"divergence,omitempty"`
	// Stats are the search statistics.
	Stats rt.Stats `json:"stats"`
	// Output is the tail of the test process's output, for crashes and
	// test failures.
	Output string `json:"output,omitempty"`
	// Found are the failures the search found on the way that are not
	// what rt.Config.Want asks for: bugs of their own, each a Result
	// with verdict "error", its failure, trace and token.
	Found []*Result `json:"found,omitempty"`
	// Serial is the failure of the test's serial execution (no
	// preemption), when it failed: the test fails without any
	// interleaving, and failures like it are not reported.
	Serial *rt.Failure `json:"serial,omitempty"`
	// Unrepeatable says why the test cannot run twice in one process
	// (verdict "unrepeatable").
	Unrepeatable string `json:"unrepeatable,omitempty"`
}

// An Event is one step of a trace, with the name of its object.
type Event struct {
	rt.Event
	// Name says what the operation operates on in the reviewer's words,
	// e.g. "(*abba.Account).mu", from the instrumenter's Objects or the
	// label of the event's location.
	Name string `json:"name,omitempty"`
}

// A HangError reports a test process that outlived its wall-time limit
// and was killed.
type HangError struct {
	Package string
	Test    string
	After   time.Duration
	// Output is the tail of the process's output (with goroutine stacks
	// when the test binary's own -test.timeout fired).
	Output string
	// Stacks are the goroutines of that dump that run the user's code,
	// without the runtime's frames; empty when there was no dump.
	Stacks string
}

func (e *HangError) Error() string {
	return fmt.Sprintf("test %s of %s hangs: still running after %v, killed (it is probably blocked in code confirm does not control)",
		e.Test, e.Package, e.After.Round(time.Second))
}

// Run runs test under the controlled scheduler as opts say. It may be
// called concurrently: each call runs its own process.
//
// The error is non-nil when Confirm could not get an answer: the process
// could not start, hung (*HangError), or rejected the config. Everything
// the test did (an error found, none, a crash, a stuck test) is a Result.
func (b *Binary) Run(ctx context.Context, test string, opts RunOptions) (*Result, error) {
	if b.Path == "" {
		return nil, fmt.Errorf("running %s: the test binary of %s is not compiled", test, b.Package)
	}
	if !slices.Contains(b.Tests, test) {
		return nil, fmt.Errorf("package %s has no test %s (tests: %s)", b.Package, test, strings.Join(b.Tests, ", "))
	}
	tmp, err := os.MkdirTemp(b.tmp, "run-")
	if err != nil {
		return nil, fmt.Errorf("running %s: %w", test, err)
	}
	defer func() { _ = os.RemoveAll(tmp) }() // inside b's directory, which Close removes too
	cfg := opts.Config
	cfg.Test = test
	cfg.ResultFile = filepath.Join(tmp, "result.json")
	cfg.Locations = b.Locations
	cfgFile := filepath.Join(tmp, "config.json")
	data, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("running %s: %w", test, err)
	}
	if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
		return nil, fmt.Errorf("running %s: %w", test, err)
	}
	limit := opts.wallLimit()
	out, exitErr, hung := b.exec(ctx, test, cfgFile, limit)
	if hung {
		return nil, b.hangError(test, limit, out.String())
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("running %s: %w", test, ctx.Err())
	}
	raw, readErr := readResult(cfg.ResultFile)
	if readErr == nil && raw.Verdict == rt.VerdictStuck {
		res := b.result(raw, cfg)
		res.Output = out.String()
		return res, nil
	}
	if timedOut(out.String()) {
		return nil, b.hangError(test, limit, out.String())
	}
	if readErr != nil || raw.Verdict == rt.VerdictCrashed {
		if line := crashLine(out.String()); strings.Contains(line, "synctest") && strings.Contains(line, "bubble") {
			return nil, fmt.Errorf("test %s of %s uses testing/synctest, which confirm does not support under control: its bubble cannot contain the controlled scheduler's goroutines (%s)", test, b.Package, line)
		}
		return b.crashed(test, raw, cfg, exitErr, out), nil
	}
	if raw.Verdict == rt.VerdictInvalid {
		return nil, fmt.Errorf("running %s: the runtime rejected the config: %s", test, raw.Error)
	}
	res := b.result(raw, cfg)
	if res.Failure != nil && res.Failure.Kind == rt.FailTest {
		if msg := failureMessages(out.String(), test); msg != "" {
			res.Failure.Message = msg
		}
		res.Output = out.String()
	}
	for i, f := range raw.Found {
		if f.Failure != nil && f.Failure.Kind == rt.FailTest {
			if msg := executionMessages(out.String(), test, f.Execution); msg != "" {
				res.Found[i].Failure.Message = msg
			}
		}
	}
	if res.Serial != nil && res.Serial.Kind == rt.FailTest {
		n := 0 // the serial execution that failed: the first, or the second when the test cannot run twice
		if res.Verdict == rt.VerdictUnrepeatable {
			n = 1
		}
		if msg := executionMessages(out.String(), test, n); msg != "" {
			res.Serial.Message = msg
			if res.Unrepeatable != "" {
				res.Unrepeatable = "its first execution passed and the second, in the same process and without preemption, failed: " + msg
			}
		}
	}
	return res, nil
}

func (b *Binary) hangError(test string, limit time.Duration, out string) *HangError {
	rtPkg := ""
	if b.instr != nil {
		rtPkg = b.instr.RuntimePath
	}
	return &HangError{Package: b.Package, Test: test, After: limit, Output: out, Stacks: userGoroutines(out, rtPkg, b.Dir, b.PkgDir)}
}

// wallLimit is the wall time the process may run.
func (o RunOptions) wallLimit() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	if o.Config.BudgetMillis <= 0 {
		return defaultTimeout
	}
	grace := o.Grace
	if grace <= 0 {
		grace = DefaultGrace
	}
	return time.Duration(o.Config.BudgetMillis)*time.Millisecond + grace
}

// exec runs the test binary with the config, killing it after limit. It
// reports the process's output, its exit error, and whether it was killed
// for running too long.
func (b *Binary) exec(ctx context.Context, test, cfgFile string, limit time.Duration) (out *tailBuffer, exitErr error, hung bool) {
	runCtx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	// -test.timeout fires a little before the kill, so that a hang in
	// code Confirm does not control prints every goroutine's stack.
	safety := limit - limit/10
	cmd := exec.CommandContext(runCtx, b.Path,
		"-test.run", "^"+regexp.QuoteMeta(test)+"$",
		"-test.count=1", "-test.v=false",
		"-test.timeout="+safety.String())
	cmd.Dir = b.PkgDir
	cmd.Env = append(os.Environ(), rt.EnvConfig+"="+cfgFile)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		// Kill the process group: the test may have started children.
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
	out = newTailBuffer(maxOutput)
	cmd.Stdout, cmd.Stderr = out, out
	exitErr = cmd.Run()
	hung = ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded)
	return out, exitErr, hung
}

// timedOut reports whether the test binary's own -test.timeout fired.
func timedOut(out string) bool {
	return strings.Contains(out, "panic: test timed out after")
}

func readResult(path string) (*rt.Result, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	res := new(rt.Result)
	if err := json.Unmarshal(data, res); err != nil {
		return nil, fmt.Errorf("the test wrote a malformed result: %w", err)
	}
	return res, nil
}

// crashed describes a process that ended without a final result. raw,
// when not nil, is the runtime's "crashed" marker with a token that
// reproduces the execution that was running.
func (b *Binary) crashed(test string, raw *rt.Result, cfg rt.Config, exitErr error, out *tailBuffer) *Result {
	res := &Result{Package: b.Package, Test: test, Verdict: VerdictCrashed, Output: out.String()}
	status := "ended"
	var ee *exec.ExitError
	switch {
	case errors.As(exitErr, &ee):
		status = "exited with " + ee.String()
	case exitErr != nil:
		status = "failed: " + exitErr.Error()
	}
	msg := fmt.Sprintf("the test process %s before it reported a result", status)
	if raw == nil {
		msg += " (it never reached the controlled test)"
	} else {
		res.Stats = raw.Stats
		if raw.Token != "" {
			res.Token = b.token(test, raw.Token, cfg)
		}
	}
	if line := crashLine(out.String()); line != "" {
		msg += ": " + line
	}
	res.Failure = &rt.Failure{Kind: FailCrash, Message: msg, Stack: tail(out.String(), 40)}
	return res
}

// result converts the runtime's Result of a run with cfg.
func (b *Binary) result(raw *rt.Result, cfg rt.Config) *Result {
	res := &Result{
		Package:      b.Package,
		Test:         raw.Test,
		Verdict:      raw.Verdict,
		Failure:      b.failure(raw.Failure),
		Goroutines:   b.goroutines(raw.Test, raw.Goroutines),
		Divergence:   raw.Divergence,
		Stats:        raw.Stats,
		Serial:       b.failure(raw.Serial),
		Unrepeatable: raw.Unrepeatable,
	}
	if raw.Token != "" {
		res.Token = b.token(raw.Test, raw.Token, cfg)
	}
	res.Trace = b.trace(raw.Trace)
	for _, f := range raw.Found {
		res.Found = append(res.Found, &Result{
			Package:    b.Package,
			Test:       raw.Test,
			Verdict:    rt.VerdictError,
			Failure:    b.failure(f.Failure),
			Trace:      b.trace(f.Trace),
			Goroutines: b.goroutines(raw.Test, f.Goroutines),
			Token:      b.token(raw.Test, f.Token, cfg),
		})
	}
	return res
}

// failure returns a copy of f without the injected runtime's frames.
func (b *Binary) failure(f *rt.Failure) *rt.Failure {
	if f == nil {
		return nil
	}
	c := *f
	if b.instr != nil {
		c.Stack = userFunc(withoutFrames(c.Stack, b.instr.RuntimePath))
		c.Message = withoutRuntimeLines(c.Message, b.instr.RuntimePath)
	}
	return &c
}

// trace names the objects of a trace.
func (b *Binary) trace(raw []rt.Event) []Event {
	names := b.objectNames(raw)
	var out []Event
	for _, ev := range raw {
		name := names[ev.Object]
		if ev.Object == 0 {
			name = b.nameAt(ev)
		}
		ev.Func = userFunc(ev.Func)
		out = append(out, Event{Event: ev, Name: name})
	}
	return out
}

// goroutines returns the goroutines of raw with the functions of the
// injected runtime (which starts the test body) replaced by the test.
func (b *Binary) goroutines(test string, raw []rt.Goroutine) []rt.Goroutine {
	if b.instr == nil || len(raw) == 0 {
		return raw
	}
	gs := slices.Clone(raw)
	for i, g := range gs {
		if strings.HasPrefix(g.Func, b.instr.RuntimePath+".") {
			gs[i].Func = b.Package + "." + test
		}
		gs[i].Func = userFunc(gs[i].Func)
	}
	return gs
}

// userFunc names a function as the user wrote it: the instrumenter moves
// the body of each TestX into a function confirmTestX, so
// "pkg.confirmTestX.func1" is the user's "pkg.TestX.func1".
func userFunc(name string) string {
	return strings.ReplaceAll(name, ".confirmTest", ".Test")
}

// objectNames names the objects of a trace. The instrumenter names what
// is operated on per source line, and a line may hold several operations
// (a deferred Unlock runs at the return statement that reads a field), so
// each object gets the name most of its events' lines give it, the first
// such name on a tie.
func (b *Binary) objectNames(trace []rt.Event) map[int]string {
	votes := make(map[int]map[string]int)
	var order []string
	for _, ev := range trace {
		name := b.nameAt(ev)
		if ev.Object == 0 || name == "" || strings.Contains(name, ", ") {
			continue
		}
		if votes[ev.Object] == nil {
			votes[ev.Object] = make(map[string]int)
		}
		if votes[ev.Object][name] == 0 {
			order = append(order, name)
		}
		votes[ev.Object][name]++
	}
	names := make(map[int]string, len(votes))
	for obj, v := range votes {
		best := 0
		for _, name := range order {
			if v[name] > best {
				names[obj], best = name, v[name]
			}
		}
	}
	return names
}

// nameAt names what ev operates on from its position alone: the label of
// its location for accesses and observe points, else what the
// instrumenter recorded for its line.
func (b *Binary) nameAt(ev rt.Event) string {
	switch ev.Op {
	case "read", "write", "observe":
		if ev.Loc >= 0 && ev.Loc < len(b.Locations) {
			label := b.Locations[ev.Loc].Label
			for _, verb := range []string{"reads ", "writes "} {
				label = strings.TrimPrefix(label, verb)
			}
			if label != "" {
				return label
			}
		}
	}
	if ev.File == "" {
		return ""
	}
	return b.Objects[fmt.Sprintf("%s:%d", ev.File, ev.Line)]
}

// token wraps a runtime token with the test, the build options and the
// step bound of cfg.
func (b *Binary) token(test, rtToken string, cfg rt.Config) string {
	return Token{Test: test, Accesses: b.Options.Accesses, MaxSteps: cfg.MaxSteps, Runtime: rtToken}.String()
}
