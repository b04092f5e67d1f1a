package pipeline

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sourcegraph/conc/pool"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/confirm/synth"
)

// DefaultStrategy is the search strategy of Options.Strategy "": Rungta
// and Mercer's greedy depth-first search with the two-tier ranking,
// driven along the warning's sequence.
const DefaultStrategy = "meta"

// Verdicts of a Finding.
const (
	// Confirmed: an error consistent with the warning was found; the
	// Finding has its trace and replay token.
	Confirmed = "confirmed"
	// Unconfirmed: not confirmed within the budget, or every test that
	// could show it was explored without showing it (Cause says which).
	// Failures of other kinds found on the way are bugs of their own
	// (Report.Bugs), never confirmations.
	Unconfirmed = "unconfirmed"
	// NoTest: no test reaches the warning's functions.
	NoTest = "no-test"
	// Error: Confirm could not get an answer; Cause says why (the package
	// does not compile, the test hangs or crashes, ...).
	Error = "error"
)

// Options configure Run.
type Options struct {
	// Dir is the working directory; package patterns and -seq files are
	// relative to it. Empty means the current directory.
	Dir string
	// Patterns are the package patterns, e.g. "./...".
	Patterns []string
	// BuildFlags are extra go build flags, e.g. -tags=x.
	BuildFlags []string

	// Strategy is "random", "pct" or "meta" ("" is DefaultStrategy).
	Strategy string
	// Heuristic is the meta strategy's secondary heuristic: "pfsm",
	// "random" or "prefer".
	Heuristic string
	// BacktrackBound bounds the meta strategy's backtrack set.
	BacktrackBound int
	// Seed seeds the searches; 0 picks one.
	Seed int64
	// Budget is the wall time of the search of one warning.
	Budget time.Duration
	// MaxSteps bounds one execution (0: the runtime's default).
	MaxSteps int
	// Grace is the wall time a test process gets beyond its budget before
	// it is killed as hung (0: runner.DefaultGrace).
	Grace time.Duration
	// Parallel bounds the test processes running at once (0: GOMAXPROCS).
	Parallel int
	// Trials, when above 1, runs that many independent seeded searches
	// per warning and reports their error density.
	Trials int

	// Seq is a user-given sequence ("file.go:LINE,file.go:LINE,...");
	// when set, the analyzers do not run and the result is one Finding
	// for the sequence, confirmed by the tests matching Run.
	Seq string
	// Run selects the tests of a user sequence (a regular expression).
	Run string

	// NoLeaks turns the leak oracle off.
	NoLeaks bool
	// Explore also runs, undirected, every test of the packages that
	// have tests, within ExploreBudget per package (0: 5s), and reports
	// the concurrency failures it finds as bugs found (Report.Bugs).
	Explore       bool
	ExploreBudget time.Duration
	// Synthesize writes, for a race or lock-order warning that no test of
	// its package confirms, concurrent tests that call its two sides
	// from two goroutines (package synth), and confirms it with them:
	// Finding.Synthesized then holds the test.
	Synthesize bool

	// Progress, when non-nil, is called as warnings are decided.
	Progress func(done, total int)
}

// A Report is the outcome of Run.
type Report struct {
	// Findings are the warnings with their verdicts, in position order.
	Findings []*Finding
	// Bugs are the failures the searches found that confirm no warning:
	// concurrency bugs of their own, each once however many searches
	// found it, in package and position order.
	Bugs []*Bug
	// PackageErrors are the packages that could not be analyzed or built,
	// with the compiler's message.
	PackageErrors []PackageError
	// Notes are the instrumenter's notes on the packages whose tests
	// ran: what it left as it is, and why, each once per package, in
	// package order.
	Notes []PackageNote
	// Seed is the base seed of the searches.
	Seed int64
	// Wall is the wall time of Run.
	Wall time.Duration
}

// A PackageError is a package that does not load, type-check or build.
type PackageError struct {
	Package string `json:"package"`
	Message string `json:"message"`
}

// A PackageNote is a note of the instrumenter on a package whose tests
// ran under control: a construct it could not instrument, and why.
type PackageNote struct {
	Package string `json:"package"`
	// Message is the note, "file:line:col: what" (a package of the
	// module that stays uncontrolled has no position).
	Message string `json:"message"`
	// Uncontrolled says that the construct's operations are not
	// scheduling points (see instrument.Result.Uncontrolled): a search
	// that explored every schedule did not explore their interleavings,
	// and its cause says so.
	Uncontrolled bool `json:"uncontrolled,omitempty"`
}

// Counts returns the number of findings with each verdict.
func (r *Report) Counts() map[string]int {
	c := make(map[string]int)
	for _, f := range r.Findings {
		c[f.Verdict]++
	}
	return c
}

// A Finding is one warning (or a user sequence) and its verdict.
type Finding struct {
	Warning *warning.Warning
	// Sequence is the key-location sequence the search followed.
	Sequence []Step
	// Test is the test that ran it.
	Test string
	// Verdict is Confirmed, Unconfirmed, NoTest or Error.
	Verdict string
	// Cause explains Error and NoTest, and why the search of an
	// Unconfirmed warning ended (the budget, every schedule tried, a test
	// that cannot show it, a test that fails without any interleaving);
	// Unreached names the functions no test reaches (NoTest).
	Cause     string
	Unreached []string
	// Result is the run whose failure confirmed the warning; nil
	// otherwise.
	Result *runner.Result
	// Bugs are the signatures of the bugs its search found on the way
	// (see Report.Bugs).
	Bugs []string
	// Token replays Result (see ParseToken); PackageArg is the package
	// argument of the replay command.
	Token      string
	PackageArg string
	// Stats are the search statistics (over all trials).
	Stats rt.Stats
	// Trials summarises -trials.
	Trials *TrialStats
	// Synthesized is the synthesized test that confirmed the warning,
	// when no test of the package did (Options.Synthesize).
	Synthesized *synth.Harness
}

// A Bug is a failure a search found that is not the warning it searched
// for: a concurrency bug of its own (a race on another variable, a
// deadlock, a leak, a test failure or panic that the test does not have
// without preemption), with its trace and replay token.
type Bug struct {
	// Signature identifies the bug across searches (rt.Failure.Signature).
	Signature string
	// Package is the import path of the package whose test found it;
	// PackageArg the package argument of its replay command.
	Package    string
	PackageArg string
	// Test is the test that found it.
	Test string
	// Result has its failure, trace and runner token.
	Result *runner.Result
	// Token replays it (see ParseToken).
	Token string
	// FoundBy are the IDs of the warnings whose searches found it.
	FoundBy []string
}

// A Step is one key location of a Finding's sequence.
type Step struct {
	rt.Location
	Why string
}

// TrialStats summarise the independent trials of a warning.
type TrialStats struct {
	N     int `json:"n"`
	Found int `json:"found"`
	// Density is Found / N.
	Density    float64 `json:"density"`
	Executions Range   `json:"executions"`
	Steps      Range   `json:"steps"`
	Other      int     `json:"other"`
}

// A Range is the min, average and max of a measure over finding trials.
type Range struct {
	Min int64   `json:"min"`
	Avg float64 `json:"avg"`
	Max int64   `json:"max"`
}

// Run analyzes, plans, builds and confirms as the package doc says. The
// error is non-nil only when nothing could be done (bad options, the
// patterns do not load); package-level failures are in the Report.
func Run(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	opts, err := opts.normalize()
	if err != nil {
		return nil, err
	}
	rep := &Report{Seed: opts.Seed}
	var plans []*packagePlan
	if opts.Seq != "" {
		p, err := planUserSequence(ctx, opts)
		if err != nil {
			return nil, err
		}
		plans = []*packagePlan{p}
	} else {
		warnings, pkgErrs, ld, err := analyze(opts)
		if err != nil {
			return nil, err
		}
		rep.PackageErrors = pkgErrs
		plans = planPackages(ctx, opts, warnings)
		plans = borrowTests(ctx, opts, plans, ld.importers)
		if opts.Explore {
			plans = withExploration(plans, ld.tested)
		}
	}
	total := 0
	for _, p := range plans {
		total += len(p.items)
	}
	done := 0
	var mu sync.Mutex
	tick := func() {
		mu.Lock()
		defer mu.Unlock()
		done++
		if opts.Progress != nil {
			opts.Progress(done, total)
		}
	}
	if opts.Progress != nil {
		opts.Progress(0, total)
	}
	confirmAll(ctx, opts, plans, tick)
	if opts.Synthesize {
		confirmSynthesized(ctx, opts, plans)
	}
	if opts.Explore {
		exploreAll(ctx, opts, plans)
	}
	rep.Bugs = collectBugs(plans)
	for _, p := range plans {
		switch {
		case p.buildErr != "":
			rep.PackageErrors = append(rep.PackageErrors, PackageError{Package: p.pkgPath, Message: p.buildErr})
		case p.instrErr != "" && len(p.items) == 0:
			// Its warnings say it; a package explored only has none.
			rep.PackageErrors = append(rep.PackageErrors, PackageError{Package: p.pkgPath, Message: p.instrErr})
		}
		for _, it := range p.items {
			rep.Findings = append(rep.Findings, it.finding)
		}
		rep.Notes = append(rep.Notes, p.notes()...)
		p.close()
	}
	sortFindings(rep.Findings)
	sort.SliceStable(rep.Notes, func(i, j int) bool { return rep.Notes[i].Package < rep.Notes[j].Package })
	rep.Wall = time.Since(start)
	return rep, nil
}

func (o Options) normalize() (Options, error) {
	if o.Strategy == "" {
		o.Strategy = DefaultStrategy
	}
	switch o.Strategy {
	case "random", "pct", "meta":
	default:
		return o, fmt.Errorf("unknown strategy %q (want random, pct or meta)", o.Strategy)
	}
	switch o.Heuristic {
	case "", "pfsm", "random", "prefer":
	default:
		return o, fmt.Errorf("unknown heuristic %q (want pfsm, random or prefer)", o.Heuristic)
	}
	if o.Budget <= 0 {
		return o, fmt.Errorf("the budget must be positive, got %v", o.Budget)
	}
	if o.Parallel <= 0 {
		o.Parallel = runtime.GOMAXPROCS(0)
	}
	if o.ExploreBudget <= 0 {
		o.ExploreBudget = 5 * time.Second
	}
	if o.Seed == 0 {
		o.Seed = time.Now().UnixNano() & (1<<53 - 1)
	}
	if len(o.Patterns) == 0 {
		o.Patterns = []string{"."}
	}
	dir, err := absDir(o.Dir)
	if err != nil {
		return o, err
	}
	o.Dir = dir
	return o, nil
}

// confirmAll builds each plan's binary and confirms its warnings, with at
// most opts.Parallel builds or test processes at a time.
func confirmAll(ctx context.Context, opts Options, plans []*packagePlan, tick func()) {
	builds := pool.New().WithMaxGoroutines(opts.Parallel)
	for _, p := range plans {
		builds.Go(func() { p.build(ctx, opts) })
	}
	builds.Wait()
	runs := pool.New().WithMaxGoroutines(opts.Parallel)
	for _, p := range plans {
		for i, it := range p.items {
			runs.Go(func() {
				defer tick()
				if it.finding.Verdict != "" { // decided while planning
					return
				}
				if it.lender != nil {
					// Run with the binary of the package whose tests reach it.
					it.lender.confirm(ctx, opts, it, opts.Seed+int64(i)*1000003)
					return
				}
				p.confirm(ctx, opts, it, opts.Seed+int64(i)*1000003)
			})
		}
	}
	runs.Wait()
}

// collectBugs gathers the bugs the searches of the plans found, each once
// per package and signature with every warning whose search found it, in
// package and signature order. A failure that confirms a warning is
// reported there, not again as a bug found by another warning's search.
func collectBugs(plans []*packagePlan) []*Bug {
	key := func(pkg, sig string) string { return pkg + "\x00" + sig }
	confirmed := make(map[string]bool)
	for _, p := range plans {
		for _, it := range p.items {
			if f := it.finding; f.Verdict == Confirmed && f.Result.Failure != nil {
				confirmed[key(f.Result.Package, f.Result.Failure.Signature())] = true
			}
		}
	}
	byKey := make(map[string]*Bug)
	var bugs []*Bug
	add := func(b *Bug) {
		k := key(b.Package, b.Signature)
		switch {
		case confirmed[k]:
		case byKey[k] != nil:
			byKey[k].FoundBy = appendNew(byKey[k].FoundBy, b.FoundBy...)
		default:
			byKey[k] = b
			bugs = append(bugs, b)
		}
	}
	for _, p := range plans {
		for _, it := range p.items {
			f := it.finding
			f.Bugs = nil
			for _, b := range it.bugs {
				if confirmed[key(b.Package, b.Signature)] {
					continue
				}
				add(b)
				f.Bugs = appendNew(f.Bugs, b.Signature)
			}
		}
	}
	for _, p := range plans {
		for _, b := range p.explored {
			add(b)
		}
	}
	sort.SliceStable(bugs, func(i, j int) bool {
		a, b := bugs[i], bugs[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Signature < b.Signature
	})
	return bugs
}

// notes returns the instrumenter's notes on the package of p's binaries,
// each once.
func (p *packagePlan) notes() []PackageNote {
	var out []PackageNote
	seen := make(map[string]bool)
	for _, bin := range []*runner.Binary{p.bin, p.synthBin} {
		if bin == nil {
			continue
		}
		for _, n := range bin.Notes {
			if !seen[n] {
				seen[n] = true
				out = append(out, PackageNote{Package: bin.Package, Message: n, Uncontrolled: slices.Contains(bin.Uncontrolled, n)})
			}
		}
	}
	return out
}

// appendNew appends the elements of add that s does not hold yet.
func appendNew(s []string, add ...string) []string {
	for _, a := range add {
		if !slices.Contains(s, a) {
			s = append(s, a)
		}
	}
	return s
}

// sortFindings orders findings by primary position.
func sortFindings(fs []*Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i].Warning, fs[j].Warning
		if len(a.Sites) == 0 || len(b.Sites) == 0 {
			return len(a.Sites) > len(b.Sites)
		}
		pa, pb := a.Sites[0].Position, b.Sites[0].Position
		if pa.Filename != pb.Filename {
			return pa.Filename < pb.Filename
		}
		if pa.Line != pb.Line {
			return pa.Line < pb.Line
		}
		return slices.Compare([]int{pa.Column}, []int{pb.Column}) < 0
	})
}
