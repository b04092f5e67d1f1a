package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/confirm/trials"
)

// build instruments the plan's package with the union of its warnings'
// locations and compiles its test binary. A failure decides every
// undecided warning of the package as Error.
func (p *packagePlan) build(ctx context.Context, opts Options) {
	if !p.undecided() {
		return
	}
	bin, err := runner.Instrument(ctx, runner.BuildOptions{
		Dir:        opts.Dir,
		Package:    p.pattern,
		Locations:  p.locs,
		BuildFlags: opts.BuildFlags,
	})
	if err == nil {
		if p.pkgPath == "" {
			p.pkgPath = bin.Package
		}
		err = bin.Compile(ctx)
		if err != nil {
			_ = bin.Close()
		}
	}
	var be *runner.BuildError
	switch {
	case errors.As(err, &be):
		p.buildErr = strings.TrimSpace(be.Output)
		if p.buildErr == "" {
			p.buildErr = be.Error()
		}
		p.fail("build error: " + be.Error())
		return
	case err != nil:
		p.fail(fmt.Sprintf("instrumenting %s: %v", p.pattern, err))
		return
	}
	if len(bin.Locations) != len(p.locs) {
		_ = bin.Close()
		p.fail(fmt.Sprintf("instrumenting %s: asked for %d locations, got %d", p.pattern, len(p.locs), len(bin.Locations)))
		return
	}
	p.bin = bin
	arg := bin.PkgDir
	if rel, err := filepath.Rel(opts.Dir, bin.PkgDir); err == nil && !strings.HasPrefix(rel, "..") {
		arg = "./" + filepath.ToSlash(rel)
	}
	for _, it := range p.items {
		it.finding.PackageArg = arg
		if it.run != nil {
			for _, t := range bin.Tests {
				if it.run.MatchString(t) {
					it.tests = append(it.tests, t)
				}
			}
			if len(it.tests) == 0 && it.finding.Verdict == "" {
				it.finding.Verdict = NoTest
				it.finding.Cause = fmt.Sprintf("no test of %s matches -run %q (tests: %s)", bin.Package, it.run, strings.Join(bin.Tests, ", "))
			}
			it.finding.Test = strings.Join(it.tests, ",")
		}
	}
}

func (p *packagePlan) undecided() bool {
	for _, it := range p.items {
		if it.finding.Verdict == "" {
			return true
		}
	}
	return false
}

// close removes the plan's binary.
func (p *packagePlan) close() {
	if p.bin != nil {
		_ = p.bin.Close()
	}
}

// config is the runtime configuration of the search for it, whose
// sequence indexes into locs.
func (it *item) config(opts Options, seed int64, locs []rt.Location) rt.Config {
	cfg := rt.Config{
		Strategy:       opts.Strategy,
		Seed:           seed,
		MaxSteps:       opts.MaxSteps,
		BudgetMillis:   opts.Budget.Milliseconds(),
		Sequence:       it.seq,
		Heuristic:      opts.Heuristic,
		BacktrackBound: opts.BacktrackBound,
		Distances:      it.dist,
	}
	if opts.Heuristic == "prefer" {
		cfg.Prefer = preferred(it.seq, locs)
	}
	return cfg
}

// preferred returns the file:line of the sequence's steps: the prefer
// heuristic favours the goroutines spawned there (the go statements on the
// call paths to the warning's operations).
func preferred(seq []int, locs []rt.Location) []string {
	var out []string
	seen := make(map[string]bool)
	for _, i := range seq {
		if i < 0 || i >= len(locs) {
			continue
		}
		pos := fmt.Sprintf("%s:%d", locs[i].File, locs[i].Line)
		if !seen[pos] {
			seen[pos] = true
			out = append(out, pos)
		}
	}
	return out
}

// confirm searches for an error consistent with it's warning and decides
// its verdict.
func (p *packagePlan) confirm(ctx context.Context, opts Options, it *item, seed int64) {
	f := it.finding
	if p.bin == nil {
		f.Verdict, f.Cause = Error, "the package was not built"
		return
	}
	var (
		res *runner.Result
		err error
	)
	if opts.Trials > 1 {
		res, err = p.runTrials(ctx, opts, it, seed)
	} else {
		res, err = p.runSearch(ctx, opts, it, seed)
	}
	if err != nil {
		f.Verdict, f.Cause = Error, err.Error()
		return
	}
	p.judge(ctx, opts, it, res)
}

// runSearch runs it's tests (in parallel, until the first error) with one
// search each.
func (p *packagePlan) runSearch(ctx context.Context, opts Options, it *item, seed int64) (*runner.Result, error) {
	results, err := p.bin.RunTests(ctx, it.tests, runner.RunOptions{Config: it.config(opts, seed, p.locs), Grace: opts.Grace})
	for _, r := range results {
		it.finding.Stats = addStats(it.finding.Stats, r.Stats)
	}
	if err != nil {
		var hang *runner.HangError
		if errors.As(err, &hang) {
			return nil, fmt.Errorf("hang: %w", err)
		}
		return nil, err
	}
	if n := len(results); n > 0 {
		return results[n-1], nil
	}
	return nil, errors.New("no test was run")
}

// runTrials runs opts.Trials independent searches of it's first test and
// returns the replayed execution of the first trial that found an error.
func (p *packagePlan) runTrials(ctx context.Context, opts Options, it *item, seed int64) (*runner.Result, error) {
	f := it.finding
	sum, err := trials.RunBinary(ctx, p.bin, trials.Spec{
		Test:   it.tests[0],
		Config: it.config(opts, seed, p.locs),
		Budget: trials.Budget{Wall: opts.Budget},
		Expect: expectedKinds(f.Warning.Kind),
		Grace:  opts.Grace,
	}, opts.Trials)
	if err != nil {
		return nil, fmt.Errorf("trials: %w", err)
	}
	ts := &TrialStats{
		N: len(sum.Trials), Found: sum.Found, Density: sum.Density, Other: sum.Other,
		Executions: rangeOf(sum.Executions), Steps: rangeOf(sum.Steps),
	}
	f.Trials = ts
	for _, t := range sum.Trials {
		f.Stats = addStats(f.Stats, rt.Stats{Executions: t.Executions, Steps: t.Steps, Seconds: t.Seconds})
	}
	for _, t := range sum.Trials {
		if t.Found && t.Token != "" {
			return p.replay(ctx, t.Token, opts)
		}
	}
	for _, t := range sum.Trials { // no expected error: report another one, if any
		if t.Verdict == rt.VerdictError && t.Token != "" {
			return p.replay(ctx, t.Token, opts)
		}
	}
	return &runner.Result{Package: p.bin.Package, Test: it.tests[0], Verdict: rt.VerdictNone}, nil
}

// replay re-runs the execution of a runner token on the plan's binary,
// for its trace.
func (p *packagePlan) replay(ctx context.Context, token string, opts Options) (*runner.Result, error) {
	tok, err := runner.ParseToken(token)
	if err != nil {
		return nil, err
	}
	return p.bin.Run(ctx, tok.Test, runner.RunOptions{
		Config:  rt.Config{Strategy: "replay", Replay: tok.Runtime, MaxSteps: tok.MaxSteps},
		Timeout: opts.Budget + time.Minute,
	})
}

// expectedKinds are the failure kinds that can confirm a warning kind;
// nil means any.
func expectedKinds(kind warning.Kind) []string {
	switch kind {
	case "race":
		return []string{rt.FailRace}
	case "lock-order-cycle", "double-lock", "rwr-deadlock", "lock-leak":
		return []string{rt.FailDeadlock, rt.FailLeak}
	}
	return nil
}

// judge decides it's verdict from the result of its search.
func (p *packagePlan) judge(ctx context.Context, opts Options, it *item, res *runner.Result) {
	f := it.finding
	if res.Test != "" {
		f.Test = res.Test
	}
	switch res.Verdict {
	case rt.VerdictNone:
		f.Verdict = Unconfirmed
		return
	case rt.VerdictError:
	case runner.VerdictCrashed:
		f.Verdict, f.Cause, f.Result = Error, "crash: "+failureMessage(res), res
		return
	default: // stuck, diverged
		f.Verdict, f.Cause, f.Result = Error, res.Verdict+": "+failureMessage(res), res
		return
	}
	f.Result = res
	if res.Token != "" {
		f.Token = Token{Locations: p.locs, Runner: res.Token}.Encode(p.bin.Dir)
	}
	if Consistent(f.Warning, it.seq, p.locs, res) {
		if BySequence(f.Warning, it.seq, p.locs, res) && p.failsSerially(ctx, opts, res) {
			f.Verdict, f.OtherFailure = Unconfirmed, true
			f.Cause = "the test fails this way without preemption too, so the failure is no evidence of the warning"
			return
		}
		f.Verdict = Confirmed
		return
	}
	f.Verdict, f.OtherFailure = Unconfirmed, true
}

// failsSerially reports whether res's test fails with the same kind of
// failure when it runs without preemption (rt's serial strategy): then the
// failure needs no interleaving. A run that cannot tell (it errs, hangs or
// crashes) does not count as failing.
func (p *packagePlan) failsSerially(ctx context.Context, opts Options, res *runner.Result) bool {
	ser, err := p.bin.Run(ctx, res.Test, runner.RunOptions{
		Config:  rt.Config{Strategy: "serial", MaxExecs: 1, MaxSteps: opts.MaxSteps},
		Timeout: opts.Budget + time.Minute,
	})
	return err == nil && ser.Verdict == rt.VerdictError && ser.Failure != nil &&
		res.Failure != nil && ser.Failure.Kind == res.Failure.Kind
}

func failureMessage(res *runner.Result) string {
	if res.Failure == nil {
		return res.Verdict
	}
	return firstLine(res.Failure.Message)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func addStats(a, b rt.Stats) rt.Stats {
	a.Executions += b.Executions
	a.Steps += b.Steps
	a.Seconds += b.Seconds
	a.ForeignOps += b.ForeignOps
	if b.StepsToError > 0 {
		a.StepsToError = b.StepsToError
	}
	return a
}

func rangeOf(r trials.Range) Range { return Range{Min: r.Min, Avg: r.Avg, Max: r.Max} }
