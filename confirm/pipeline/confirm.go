package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
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
	if !p.undecided() && !p.explore {
		return
	}
	bin, err := runner.Instrument(ctx, runner.BuildOptions{
		Dir:       opts.Dir,
		Package:   p.pattern,
		Locations: p.locs,
		// Every field and global access is a race oracle point when the
		// tests are explored (the races on the way are bugs found too).
		Accesses:   p.explore,
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
	case errors.Is(err, runner.ErrNoTests) && !p.ownUndecided():
		return // a package explored only, or whose warnings other packages' tests run, which has no tests
	case errors.As(err, &be):
		p.buildErr = strings.TrimSpace(be.Output)
		if p.buildErr == "" {
			p.buildErr = be.Error()
		}
		p.fail("build error: " + be.Error())
		return
	case err != nil:
		p.instrErr = fmt.Sprintf("instrumenting %s: %v", p.pattern, err)
		p.fail(p.instrErr)
		return
	}
	if len(bin.Locations) < len(p.locs) {
		_ = bin.Close()
		p.fail(fmt.Sprintf("instrumenting %s: asked for %d locations, got %d", p.pattern, len(p.locs), len(bin.Locations)))
		return
	}
	p.bin = bin
	arg := bin.PkgDir
	if rel, err := filepath.Rel(opts.Dir, bin.PkgDir); err == nil && !strings.HasPrefix(rel, "..") {
		arg = "./" + filepath.ToSlash(rel)
	}
	p.arg = arg
	for _, it := range p.borrowed {
		it.finding.PackageArg = arg
	}
	for _, it := range p.items {
		if it.lender != nil {
			continue
		}
		it.finding.PackageArg = arg
		if it.run != nil {
			// A user sequence: every matching test, with its sequence.
			tmpl := it.cands[0]
			it.cands = nil
			var names []string
			for _, t := range bin.Tests {
				if it.run.MatchString(t) {
					c := *tmpl
					c.test = t
					it.cands = append(it.cands, &c)
					names = append(names, t)
				}
			}
			if len(it.cands) == 0 && it.finding.Verdict == "" {
				it.finding.Verdict = NoTest
				it.finding.Cause = fmt.Sprintf("no test of %s matches -run %q (tests: %s)", bin.Package, it.run, strings.Join(bin.Tests, ", "))
			}
			it.finding.Test = strings.Join(names, ",")
		}
	}
}

// ownUndecided reports whether a warning of the package is to be
// confirmed with its own tests.
func (p *packagePlan) ownUndecided() bool {
	for _, it := range p.items {
		if it.finding.Verdict == "" && it.lender == nil {
			return true
		}
	}
	return false
}

func (p *packagePlan) undecided() bool {
	for _, it := range p.items {
		if it.finding.Verdict == "" && it.lender == nil {
			return true
		}
	}
	return len(p.borrowed) > 0
}

// close removes the plan's binary.
func (p *packagePlan) close() {
	if p.bin != nil {
		_ = p.bin.Close()
	}
	if p.synthBin != nil {
		_ = p.synthBin.Close()
	}
}

// config is the runtime configuration of the search of c for it, whose
// sequence indexes into locs.
func (it *item) config(opts Options, seed int64, c *candidate, locs []rt.Location) rt.Config {
	cfg := rt.Config{
		Strategy:       opts.Strategy,
		Seed:           seed,
		MaxSteps:       opts.MaxSteps,
		BudgetMillis:   opts.Budget.Milliseconds(),
		Sequence:       c.seq,
		Heuristic:      opts.Heuristic,
		BacktrackBound: opts.BacktrackBound,
		Distances:      c.dist,
		Want:           Want(it.finding.Warning, c.seq, locs),
		NoLeaks:        opts.NoLeaks,
	}
	if c.noDist != "" {
		// No pfsm tables: favour the goroutines started on the way to
		// the sequence's steps instead, or pick at random.
		cfg.Heuristic = "random"
		if len(preferred(c.seq, locs)) > 0 {
			cfg.Heuristic = "prefer"
		}
	}
	if cfg.Heuristic == "prefer" {
		cfg.Prefer = preferred(c.seq, locs)
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

// confirm searches for the failure that confirms it's warning, test by
// test, and decides its verdict.
func (p *packagePlan) confirm(ctx context.Context, opts Options, it *item, seed int64) {
	f := it.finding
	if p.bin == nil {
		f.Verdict, f.Cause = Error, "the package was not built"
		return
	}
	// One warning's search at a time per package (see run); its budget
	// starts when it runs.
	p.runMu.Lock()
	defer p.runMu.Unlock()
	if opts.Trials > 1 {
		res, err := p.runTrials(ctx, opts, it, it.cands[0], seed)
		if err != nil {
			f.Verdict, f.Cause = Error, err.Error()
			return
		}
		confirms := Confirms(f.Warning, it.cands[0].seq, p.locs, res)
		p.collect(it, res, confirms)
		if confirms {
			p.confirmed(it, it.cands[0], res)
			return
		}
		f.Verdict, f.Cause = Unconfirmed, p.ended(p.bin, res, f.Warning.Kind == warning.Race, it.cands[0].seq)
		return
	}
	deadline := time.Now().Add(opts.Budget)
	var causes, errs []string
	for i, c := range it.cands {
		left := time.Until(deadline)
		if left <= 0 {
			causes = append(causes, fmt.Sprintf("the budget was spent before %s ran", testList(it.cands[i:])))
			break
		}
		if it.run != nil {
			left /= time.Duration(len(it.cands) - i) // a share for each test of a user sequence
		}
		if hung := p.hungBefore(c.test); hung != "" {
			errs = append(errs, hung+" (in the search for another warning; not run again)")
			continue
		}
		cfg := it.config(opts, seed, c, p.locs)
		cfg.BudgetMillis = max(left.Milliseconds(), 1)
		res, err := p.bin.Run(ctx, c.test, runner.RunOptions{Config: cfg, Grace: opts.Grace})
		if err != nil {
			var hang *runner.HangError
			if errors.As(err, &hang) {
				err = fmt.Errorf("hang: %w", err)
				p.hangs(c.test, err.Error())
			}
			errs = append(errs, err.Error())
			continue
		}
		f.Stats = addStats(f.Stats, res.Stats)
		confirms := Confirms(f.Warning, c.seq, p.locs, res)
		p.collect(it, res, confirms)
		switch res.Verdict {
		case runner.VerdictCrashed:
			errs = append(errs, fmt.Sprintf("%s crashed: %s", c.test, failureMessage(res)))
			continue
		case rt.VerdictStuck, rt.VerdictDiverged:
			errs = append(errs, fmt.Sprintf("%s: %s: %s", c.test, res.Verdict, failureMessage(res)))
			continue
		}
		if confirms {
			p.confirmed(it, c, res)
			return
		}
		why := p.ended(p.bin, res, f.Warning.Kind == warning.Race, c.seq)
		if c.noDist != "" {
			why += fmt.Sprintf(" (the search was not guided by pfsm distances: %s)", c.noDist)
		}
		causes = append(causes, why)
	}
	switch {
	case len(causes) == 0 && len(errs) > 0:
		f.Verdict, f.Cause = Error, strings.Join(errs, "; ")
	default:
		f.Verdict, f.Cause = Unconfirmed, strings.Join(append(causes, errs...), "; ")
	}
}

// run runs test of bin, a binary of p's package, once no other test
// process of the package runs: like go test, which never runs two
// processes of one package at once, since tests may share files in the
// package's directory (a database file, a fixed temporary name). The
// searches of warnings hold runMu for their whole search instead.
func (p *packagePlan) run(ctx context.Context, bin *runner.Binary, test string, opts runner.RunOptions) (*runner.Result, error) {
	p.runMu.Lock()
	defer p.runMu.Unlock()
	return bin.Run(ctx, test, opts)
}

// hangs records that test hung under control: the searches of the
// package's other warnings do not run it again.
func (p *packagePlan) hangs(test, msg string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.hung == nil {
		p.hung = make(map[string]string)
	}
	p.hung[test] = msg
}

// hungBefore returns how test hung in an earlier search, or "".
func (p *packagePlan) hungBefore(test string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hung[test]
}

// confirmed records the confirmation of it by candidate c's run res.
func (p *packagePlan) confirmed(it *item, c *candidate, res *runner.Result) {
	f := it.finding
	f.Verdict, f.Result, f.Test = Confirmed, res, c.test
	f.Sequence = c.steps
	f.Stats.Preemptions, f.Stats.ShrunkFrom = res.Stats.Preemptions, res.Stats.ShrunkFrom
	if res.Token != "" {
		f.Token = Token{Locations: p.locs, Runner: res.Token}.Encode(p.bin.Dir)
	}
}

// collect keeps the bugs res found on the way: its Found failures, and
// its own failure when it does not confirm the warning.
func (p *packagePlan) collect(it *item, res *runner.Result, confirms bool) {
	keep := func(r *runner.Result) {
		if r.Failure == nil || r.Token == "" {
			return
		}
		b := &Bug{
			Signature:  r.Failure.Signature(),
			Package:    p.bin.Package,
			PackageArg: p.arg,
			Test:       r.Test,
			Result:     r,
			Token:      Token{Locations: p.locs, Runner: r.Token}.Encode(p.bin.Dir),
			FoundBy:    []string{it.finding.Warning.ID},
		}
		it.bugs = append(it.bugs, b)
	}
	for _, r := range res.Found {
		keep(r)
	}
	if !confirms && res.Verdict == rt.VerdictError {
		keep(res)
	}
}

// ended is ended for a candidate whose sequence is seq (indexes into
// p.locs) searched on bin. When a racing access of the sequence could not
// be instrumented, no execution could show the race, and the search's
// end (every schedule explored) is no evidence; when bin has constructs
// the scheduler does not control, every schedule explored is every
// schedule it controls, and the cause names one of them.
func (p *packagePlan) ended(bin *runner.Binary, res *runner.Result, race bool, seq []int) string {
	if bin == nil {
		return ended(res, race, "")
	}
	if race {
		for _, i := range seq {
			if slices.Contains(bin.Unobserved, i) && i < len(p.locs) {
				l := p.locs[i]
				return fmt.Sprintf("the warned %s at %s:%d could not be instrumented as an access, so no execution of %s can show this race", l.Kind, filepath.Base(l.File), l.Line, res.Test)
			}
		}
	}
	return ended(res, race, uncontrolled(bin.Uncontrolled, seq, p.locs))
}

// uncontrolled names one of notes, a binary's constructs the scheduler
// does not control, for a search whose sequence is seq (indexes into
// locs): the one nearest a step of the sequence in the step's file, else
// the first; with how many others there are. It is "" without notes.
func uncontrolled(notes []string, seq []int, locs []rt.Location) string {
	if len(notes) == 0 {
		return ""
	}
	pick, best := notes[0], -1
	for _, n := range notes {
		file, line := notePos(n)
		for _, i := range seq {
			if i < 0 || i >= len(locs) || file == "" || locs[i].File != file {
				continue
			}
			if d := max(line-locs[i].Line, locs[i].Line-line); best < 0 || d < best {
				pick, best = n, d
			}
		}
	}
	if file, _ := notePos(pick); file != "" {
		pick = filepath.Base(file) + strings.TrimPrefix(pick, file)
	}
	if len(notes) > 1 {
		pick += fmt.Sprintf(" (and %d more)", len(notes)-1)
	}
	return pick
}

// notePos returns the file and line a note starts with ("/abs/f.go:12:3:
// ..."), or "" and 0.
func notePos(note string) (string, int) {
	i := strings.Index(note, ".go:")
	if i < 0 || !filepath.IsAbs(note[:i+3]) {
		return "", 0
	}
	digits := note[i+4:]
	digits = digits[:len(digits)-len(strings.TrimLeft(digits, "0123456789"))]
	line, err := strconv.Atoi(digits)
	if err != nil {
		return "", 0
	}
	return note[:i+3], line
}

// ended says why a search that did not confirm the warning ended; race
// says that it searched for a race, limit names a construct of the
// package the scheduler does not control ("" when there is none): a
// search that explored every schedule did not explore its interleavings.
func ended(res *runner.Result, race bool, limit string) string {
	s := res.Stats
	var why string
	switch {
	case res.Verdict == rt.VerdictUnrepeatable:
		why = fmt.Sprintf("%s cannot run twice in one process: %s", res.Test, res.Unrepeatable)
	case s.TooManyGoroutines:
		why = fmt.Sprintf("%s starts more goroutines than Confirm explores (1000)", res.Test)
	case s.Goroutines == 1:
		why = fmt.Sprintf("%s starts no goroutine: it has a single schedule, which does not show this", res.Test)
	case s.OneGoroutine:
		why = fmt.Sprintf("%s runs the warned accesses in one goroutine only (%s): it cannot show this race", res.Test, plural(s.Executions, "execution"))
	case s.Exhausted && limit != "":
		why = fmt.Sprintf("every schedule Confirm controls of %s was explored (%s): none shows this; but not every operation is controlled: %s", res.Test, plural(s.Executions, "execution"), limit)
	case s.Exhausted:
		why = fmt.Sprintf("every schedule of %s was explored (%s): none shows this", res.Test, plural(s.Executions, "execution"))
	case s.Executions > 0 && s.OverBudget == s.Executions:
		why = fmt.Sprintf("the budget ran out during the first execution of %s: an execution takes longer than the budget; raise -budget", res.Test)
	case s.Executions > 0 && s.Truncated+s.OverBudget == s.Executions:
		why = fmt.Sprintf("every execution of %s was cut off at the step bound; raise -max-steps", res.Test)
	default:
		why = fmt.Sprintf("not found within the budget (%s of %s)", plural(s.Executions, "execution"), res.Test)
	}
	if race && s.SiteGoroutines == 0 && s.Executions > 0 {
		why += "; no execution reached the warned accesses"
	}
	if res.Serial != nil {
		why += fmt.Sprintf("; %s fails without any interleaving (%s: %s), so failures like it are no evidence", res.Test, res.Serial.Kind, firstLine(res.Serial.Message))
	}
	return why
}

// testList names the tests of cands.
func testList(cands []*candidate) string {
	var names []string
	for _, c := range cands {
		names = append(names, c.test)
	}
	return strings.Join(names, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// runTrials runs opts.Trials independent searches of candidate c and
// returns the replayed execution of the first trial that found an error.
func (p *packagePlan) runTrials(ctx context.Context, opts Options, it *item, c *candidate, seed int64) (*runner.Result, error) {
	f := it.finding
	sum, err := trials.RunBinary(ctx, p.bin, trials.Spec{
		Test:   c.test,
		Config: it.config(opts, seed, c, p.locs),
		Budget: trials.Budget{Wall: opts.Budget},
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
	return &runner.Result{Package: p.bin.Package, Test: c.test, Verdict: rt.VerdictNone}, nil
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
