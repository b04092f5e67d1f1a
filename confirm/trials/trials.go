// Package trials runs independent trials of one controlled search and
// summarises them the way Rungta and Mercer evaluate their meta heuristic
// (Tables 1 and 2 of the paper): the error density, the share of trials
// that find the expected error, and the minimum, average and maximum work
// the finding trials did before they found it.
//
// A trial is one search (one runner.Binary.Run) with its own seed: trial i
// uses Spec.Config.Seed + i, so every trial is reproducible from its seed.
// The trials of a Run share one instrumented test binary and run in
// parallel, at most GOMAXPROCS test processes at a time.
//
// Work is counted in executions and in steps: the scheduling points the
// trial explored across all its executions up to and including the one
// that failed, the analog of the paper's "states generated". A trial's
// budget bounds both, so that hopeless trials end; the step bound is
// checked on the trial's totals (the runtime bounds executions, not total
// steps), and a trial whose error came after the step budget was spent
// does not count as finding it.
package trials

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/sourcegraph/conc/pool"
)

// A Spec says which search every trial runs.
type Spec struct {
	// Build says which package to instrument and how (Run only).
	Build runner.BuildOptions
	// Test is the top-level test to control.
	Test string
	// Config is the runtime's configuration of every trial: strategy,
	// heuristic, sequence, distances, bounds. Its Seed is the base seed:
	// trial i runs with Seed + i. MaxExecs and BudgetMillis are replaced
	// by the Budget's.
	Config rt.Config
	// Budget bounds each trial.
	Budget Budget
	// Expect lists the failure kinds (rt.FailTest, rt.FailPanic,
	// rt.FailDeadlock, ...) that count as finding the error; empty means
	// any error verdict counts.
	Expect []string
	// Grace is the wall time a trial's process gets beyond its budget
	// before it is killed as hung; 0 means runner.DefaultGrace.
	Grace time.Duration
}

// A Budget bounds one trial.
type Budget struct {
	// Executions bounds the executions of a trial (0: no bound).
	Executions int
	// Steps bounds the total scheduling points of a trial (0: no bound).
	Steps int64
	// Wall bounds the wall time of a trial's search (0: no bound).
	Wall time.Duration
}

// A Trial is the outcome of one trial.
type Trial struct {
	Seed int64
	// Found reports whether the trial found an error of an expected kind
	// within its budget.
	Found bool
	// Verdict is the runner's verdict ("error", "none", "crashed", ...),
	// or "hung" when the process was killed (Err says why).
	Verdict string
	// Kind is the failure kind when Verdict is "error".
	Kind string
	// Executions and Steps are the work the trial did.
	Executions int
	Steps      int64
	// Seconds is the trial's search time, as the runtime measured it.
	Seconds float64
	// Token replays the failing execution (`confirm replay -token`).
	Token string
	// Err is the reason a trial gave no answer (a hung process).
	Err error `json:"-"`
}

// A Range is the minimum, average and maximum of a measure over the
// trials that found the error.
type Range struct {
	Min, Max int64
	Avg      float64
}

// A Summary summarises the trials of a Run.
type Summary struct {
	// Trials are the outcomes, by trial index.
	Trials []Trial
	// Found is the number of trials that found an expected error.
	Found int
	// Density is Found / len(Trials): the paper's error density.
	Density float64
	// Executions and Steps range over the finding trials; zero when none
	// found the error.
	Executions, Steps Range
	// Other counts trials that ended with a verdict or failure kind
	// other than the expected error (another oracle fired, the process
	// crashed or hung).
	Other int
	// Wall is the wall time of the whole Run, build excluded.
	Wall time.Duration
}

// Run builds spec's package once and runs n independent trials of
// spec's search on it. See RunBinary.
func Run(ctx context.Context, spec Spec, n int) (s Summary, err error) {
	bin, err := runner.Build(ctx, spec.Build)
	if err != nil {
		return Summary{}, fmt.Errorf("trials: %w", err)
	}
	defer func() {
		if cerr := bin.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("trials: removing the test binary: %w", cerr)
		}
	}()
	return RunBinary(ctx, bin, spec, n)
}

// RunBinary runs n independent trials of spec's search on bin, in
// parallel up to GOMAXPROCS processes, and summarises them. Spec.Build is
// not used. An error means a trial could not run at all (the process did
// not start, or the runtime rejected the configuration) or ctx ended; a
// trial whose process hung is a Trial with Verdict "hung".
func RunBinary(ctx context.Context, bin *runner.Binary, spec Spec, n int) (Summary, error) {
	if n < 1 {
		return Summary{}, fmt.Errorf("trials: %d trials: need at least 1", n)
	}
	if !slices.Contains(bin.Tests, spec.Test) {
		return Summary{}, fmt.Errorf("trials: package %s has no test %q", bin.Package, spec.Test)
	}
	start := time.Now()
	out := make([]Trial, n)
	p := pool.New().WithContext(ctx).WithCancelOnError().WithFirstError().
		WithMaxGoroutines(runtime.GOMAXPROCS(0))
	for i := range n {
		p.Go(func(ctx context.Context) error {
			t, err := runTrial(ctx, bin, spec, spec.Config.Seed+int64(i))
			out[i] = t
			return err
		})
	}
	if err := p.Wait(); err != nil {
		return Summary{}, err
	}
	s := summarize(out, spec)
	s.Wall = time.Since(start)
	return s, nil
}

// runTrial runs the search of spec with seed.
func runTrial(ctx context.Context, bin *runner.Binary, spec Spec, seed int64) (Trial, error) {
	cfg := spec.Config
	cfg.Seed = seed
	cfg.MaxExecs = spec.Budget.Executions
	cfg.BudgetMillis = spec.Budget.Wall.Milliseconds()
	res, err := bin.Run(ctx, spec.Test, runner.RunOptions{Config: cfg, Grace: spec.Grace})
	if hang, ok := errors.AsType[*runner.HangError](err); ok {
		return Trial{Seed: seed, Verdict: "hung", Err: hang}, nil
	}
	if err != nil {
		return Trial{}, fmt.Errorf("trials: %s seed %d: %w", spec.Test, seed, err)
	}
	t := Trial{
		Seed:       seed,
		Verdict:    res.Verdict,
		Executions: res.Stats.Executions,
		Steps:      res.Stats.Steps,
		Seconds:    res.Stats.Seconds,
		Token:      res.Token,
	}
	if res.Failure != nil {
		t.Kind = res.Failure.Kind
	}
	t.Found = res.Verdict == rt.VerdictError &&
		(len(spec.Expect) == 0 || slices.Contains(spec.Expect, t.Kind)) &&
		(spec.Budget.Steps == 0 || t.Steps <= spec.Budget.Steps)
	return t, nil
}

// summarize computes the density and ranges of trials.
func summarize(trials []Trial, spec Spec) Summary {
	s := Summary{Trials: trials}
	var execs, steps int64
	for _, t := range trials {
		if !t.Found {
			expected := t.Verdict == rt.VerdictError && (len(spec.Expect) == 0 || slices.Contains(spec.Expect, t.Kind))
			if t.Verdict != rt.VerdictNone && !expected {
				s.Other++
			}
			continue
		}
		s.Found++
		execs += int64(t.Executions)
		steps += t.Steps
		s.Executions = extend(s.Executions, int64(t.Executions), s.Found == 1)
		s.Steps = extend(s.Steps, t.Steps, s.Found == 1)
	}
	s.Density = float64(s.Found) / float64(len(trials))
	if s.Found > 0 {
		s.Executions.Avg = float64(execs) / float64(s.Found)
		s.Steps.Avg = float64(steps) / float64(s.Found)
	}
	return s
}

// extend widens r to include v; first says v is the first value.
func extend(r Range, v int64, first bool) Range {
	if first || v < r.Min {
		r.Min = v
	}
	if first || v > r.Max {
		r.Max = v
	}
	return r
}
