package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// confirmSynthesized runs the synthesized tests of the warnings that the
// package's own tests did not confirm (verdicts no-test and unconfirmed),
// with at most opts.Parallel test processes at a time.
func confirmSynthesized(ctx context.Context, opts Options, plans []*packagePlan) {
	for _, p := range plans {
		for _, it := range p.items {
			if v := it.finding.Verdict; len(it.synth) == 0 && it.noSynth != "" && (v == NoTest || v == Unconfirmed) {
				it.finding.Cause = joinCause(it.finding.Cause, it.noSynth)
			}
		}
	}
	builds := pool.New().WithMaxGoroutines(opts.Parallel)
	for _, p := range plans {
		if len(p.synthTodo()) > 0 {
			builds.Go(func() { p.buildSynth(ctx, opts) })
		}
	}
	builds.Wait()
	runs := pool.New().WithMaxGoroutines(opts.Parallel)
	for _, p := range plans {
		if p.synthBin == nil {
			continue
		}
		for i, it := range p.synthTodo() {
			runs.Go(func() { p.confirmSynth(ctx, opts, it, opts.Seed+int64(i)*1000003+7) })
		}
	}
	runs.Wait()
}

// synthTodo returns the items whose synthesized tests are to run.
func (p *packagePlan) synthTodo() []*item {
	if p.synth == nil {
		return nil
	}
	var out []*item
	for _, it := range p.items {
		if v := it.finding.Verdict; len(it.synth) > 0 && (v == NoTest || v == Unconfirmed) {
			out = append(out, it)
		}
	}
	return out
}

// buildSynth builds the package instrumented as for its own tests, with
// the synthesized test file added in the overlay. Harnesses the compiler
// rejects are dropped and the rest built again, once.
func (p *packagePlan) buildSynth(ctx context.Context, opts Options) {
	bin, err := p.compileSynth(ctx, opts)
	var be *runner.BuildError
	if err != nil {
		// The instrumenter's type-check or the compiler names the lines.
		out := err.Error()
		if errors.As(err, &be) {
			out = be.Output
		}
		if dropped := p.dropSynth(out); len(dropped) > 0 && p.synth != nil {
			bin, err = p.compileSynth(ctx, opts)
		}
	}
	if err != nil {
		why := "the synthesized tests do not build: " + oneLine(err.Error())
		if errors.As(err, &be) {
			why = "the synthesized tests do not build: " + oneLine(be.Output)
		}
		for _, it := range p.synthTodo() {
			it.finding.Cause = joinCause(it.finding.Cause, why)
		}
		return
	}
	p.synthBin = bin
}

// compileSynth instruments and compiles the package with p.synth.
func (p *packagePlan) compileSynth(ctx context.Context, opts Options) (*runner.Binary, error) {
	bin, err := runner.Instrument(ctx, runner.BuildOptions{
		Dir:        opts.Dir,
		Package:    p.pattern,
		Locations:  p.locs,
		BuildFlags: opts.BuildFlags,
		Files:      map[string][]byte{p.synth.Path: p.synth.Source},
	})
	if err != nil {
		return nil, err
	}
	if err := bin.Compile(ctx); err != nil {
		_ = bin.Close()
		return nil, err
	}
	if len(bin.Locations) < len(p.locs) {
		_ = bin.Close()
		return nil, fmt.Errorf("asked for %d locations, got %d", len(p.locs), len(bin.Locations))
	}
	return bin, nil
}

// dropSynth removes the harnesses the compiler's output blames (errors at
// lines of the synthesized file) from the file and from their items'
// candidates, saying so in the causes of items left with none, and
// returns their names.
func (p *packagePlan) dropSynth(output string) map[string]string {
	base := regexp.QuoteMeta(filepath.Base(p.synth.Path))
	dropped := make(map[string]string)
	for _, m := range regexp.MustCompile(`(?m)`+base+`:(\d+)(?::\d+)?: (.*)$`).FindAllStringSubmatch(output, -1) {
		line, _ := strconv.Atoi(m[1])
		if test := p.synth.TestAt(line); test != "" && dropped[test] == "" {
			dropped[test] = m[2]
		}
	}
	if len(dropped) == 0 {
		return nil
	}
	drop := make(map[string]bool)
	for t := range dropped {
		drop[t] = true
	}
	p.synth, _ = p.synthW.Without(drop)
	for _, it := range p.items {
		var kept []*candidate
		var why string
		for _, c := range it.synth {
			if msg, ok := dropped[c.test]; ok {
				why = cmp.Or(why, msg)
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) == 0 && len(it.synth) > 0 {
			it.noSynth = "its synthesized tests do not compile: " + why
			it.finding.Cause = joinCause(it.finding.Cause, it.noSynth)
		}
		it.synth = kept
	}
	return dropped
}

// confirmSynth searches, with the warning's budget shared by its
// synthesized tests, for the failure that confirms it. Failures that do
// not confirm it are not reported: a harness may call the package in ways
// its users do not, and it never stands for the user's tests.
func (p *packagePlan) confirmSynth(ctx context.Context, opts Options, it *item, seed int64) {
	f := it.finding
	p.runMu.Lock() // one search at a time per package (see run)
	defer p.runMu.Unlock()
	deadline := time.Now().Add(opts.Budget)
	var whys []string
	for i, c := range it.synth {
		left := time.Until(deadline) / time.Duration(len(it.synth)-i)
		if left <= 0 {
			whys = append(whys, fmt.Sprintf("the budget was spent before %s ran", testList(it.synth[i:])))
			break
		}
		cfg := it.config(opts, seed, c, p.locs)
		cfg.BudgetMillis = max(left.Milliseconds(), 1)
		res, err := p.synthBin.Run(ctx, c.test, runner.RunOptions{Config: cfg, Grace: opts.Grace})
		if err != nil {
			whys = append(whys, fmt.Sprintf("%s: %v", c.test, err))
			continue
		}
		if Confirms(f.Warning, c.seq, p.locs, res) {
			f.Verdict, f.Cause, f.Unreached = Confirmed, "", nil
			f.Result, f.Test, f.Sequence, f.Synthesized = res, c.test, c.steps, c.harness
			f.Stats = addStats(f.Stats, res.Stats)
			f.Stats.Preemptions, f.Stats.ShrunkFrom = res.Stats.Preemptions, res.Stats.ShrunkFrom
			if res.Token != "" {
				rel, err := filepath.Rel(p.synthBin.Dir, p.synth.Path)
				if err != nil {
					rel = p.synth.Path
				}
				f.Token = Token{
					Locations: p.locs, Runner: res.Token,
					Files: map[string]string{filepath.ToSlash(rel): string(p.synth.Source)},
				}.Encode(p.synthBin.Dir)
			}
			return
		}
		switch res.Verdict {
		case runner.VerdictCrashed, rt.VerdictStuck, rt.VerdictDiverged:
			whys = append(whys, fmt.Sprintf("%s: %s: %s", c.test, res.Verdict, failureMessage(res)))
		default:
			whys = append(whys, p.ended(p.synthBin, res, f.Warning.Kind == warning.Race, c.seq))
		}
	}
	f.Cause = joinCause(f.Cause, fmt.Sprintf("synthesized tests did not show it either (%s)", strings.Join(whys, "; ")))
}

func joinCause(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// oneLine joins the lines of s, trimmed, with "; ".
func oneLine(s string) string {
	var parts []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, l)
		}
	}
	return strings.Join(parts, "; ")
}
