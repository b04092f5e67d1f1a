package pipeline

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/sourcegraph/conc/pool"
	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/confirm/synth"
	"github.com/confirm-go/confirm/confirm/testselect"
	"github.com/confirm-go/confirm/pfsm"
	"github.com/confirm-go/confirm/sequence"
)

// A packagePlan is what confirming the warnings of one package needs: the
// union of their key locations and, once built, the instrumented binary.
type packagePlan struct {
	pkgPath string
	// pattern is what the package is built by: its import path, or the
	// directory of a user sequence.
	pattern string
	locs    []rt.Location
	items   []*item
	// borrowed are warnings of other packages that only this package's
	// tests reach (see borrowTests); they are confirmed with its binary.
	borrowed []*item

	bin      *runner.Binary
	arg      string // the package argument of replay commands
	buildErr string // the compiler's message when the package does not build
	instrErr string // why the package could not be instrumented

	// synth is the test file of the harnesses synthesized for the
	// warnings (Options.Synthesize); synthBin the binary built with it,
	// when a warning needs it.
	synth    *synth.File
	synthW   *synth.Writer
	synthBin *runner.Binary

	// runMu is held while a test process of the package runs (see run).
	runMu sync.Mutex

	mu       sync.Mutex        // guards hung and explored: the package's searches run in parallel
	hung     map[string]string // tests that hung under control, and how
	explore  bool              // its tests are also explored (Options.Explore)
	explored []*Bug            // found by exploration
}

// An item is one warning to confirm.
type item struct {
	finding *Finding
	// cands are the tests that may show the warning, best first, each
	// with its sequence; a user sequence's tests share one.
	cands []*candidate
	run   *regexp.Regexp // selects the tests of a user sequence
	bugs  []*Bug         // found by its searches
	// synth are the synthesized tests that may show it, best first, when
	// no test of the package does; noSynth says why there are none.
	synth   []*candidate
	noSynth string
	// lender is the plan of another package whose tests (cands) reach
	// it, when none of its own package does (see borrowTests).
	lender *packagePlan
}

// A candidate is a test that may show a warning and the key-location
// sequence that leads it there.
type candidate struct {
	test  string
	seq   []int         // indexes into the plan's locations
	steps []Step        // the sequence, for the report
	dist  *rt.Distances // pfsm tables of seq, when the strategy uses them
	// noDist says why the pfsm tables could not be computed, when the
	// strategy wanted them; the search then uses another heuristic.
	noDist string
	// harness is the synthesized test, for a candidate of item.synth.
	harness *synth.Harness
}

// maxCandidates bounds the tests tried for one warning: the budget moves
// on to the next when one cannot show it (a single schedule, nothing
// left to explore, no goroutine).
const maxCandidates = 4

// planPackages groups the warnings by package and plans each package, at
// most opts.Parallel at a time.
func planPackages(ctx context.Context, opts Options, warnings []*warning.Warning) []*packagePlan {
	byPkg := make(map[string][]*warning.Warning)
	for _, w := range warnings {
		path := strings.TrimSuffix(w.Package, "_test")
		byPkg[path] = append(byPkg[path], w)
	}
	paths := make([]string, 0, len(byPkg))
	for path := range byPkg {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	plans := make([]*packagePlan, len(paths))
	p := pool.New().WithMaxGoroutines(opts.Parallel)
	for i, path := range paths {
		plans[i] = &packagePlan{pkgPath: path, pattern: path}
		p.Go(func() { plans[i].plan(ctx, opts, byPkg[path]) })
	}
	p.Wait()
	return plans
}

// plan selects a test and generates a sequence for every warning of the
// package; a warning no test reaches is decided NoTest here.
func (p *packagePlan) plan(ctx context.Context, opts Options, ws []*warning.Warning) {
	for _, w := range ws {
		p.items = append(p.items, &item{finding: &Finding{Warning: w}})
	}
	prog, err := testselect.Load(ctx, opts.Dir, p.pattern, opts.BuildFlags)
	if err != nil {
		p.fail(fmt.Sprintf("loading the tests of %s: %v", p.pkgPath, err))
		return
	}
	tp := newTestProg(prog)
	for _, it := range p.items {
		f := it.finding
		tests, unreached := prog.Select(f.Warning)
		if len(tests) == 0 {
			f.Verdict, f.Unreached = NoTest, unreached
			f.Cause = fmt.Sprintf("no test of %s calls %s (the tests of the warning's own package are used)", p.pkgPath, strings.Join(unreached, ", "))
			continue
		}
		f.Test = shortTest(tests[0])
		var firstErr error
		for _, test := range tests[:min(len(tests), maxCandidates)] {
			seq, err := tp.sequence(f.Warning, test)
			if err != nil {
				firstErr = cmp.Or(firstErr, fmt.Errorf("generating the key-location sequence for %s: %w", shortTest(test), err))
				continue
			}
			c := &candidate{test: shortTest(test)}
			if c.dist, c.noDist, err = tp.tables(seq, opts); err != nil {
				p.fail(fmt.Sprintf("building the pfsm graph of %s: %v", p.pkgPath, err))
				return
			}
			p.add(it, c, seq)
		}
		if len(it.cands) == 0 {
			f.Verdict, f.Cause = Error, firstErr.Error()
			continue
		}
		f.Test, f.Sequence = it.cands[0].test, it.cands[0].steps
	}
	if opts.Synthesize {
		if err := p.synthesize(tp, opts); err != nil {
			for _, it := range p.items {
				it.noSynth = err.Error()
			}
		}
	}
}

// synthesize writes the harness tests of the package's warnings (see
// package synth), each a candidate of its warning's item.synth with the
// warning's sequence for no test in particular.
func (p *packagePlan) synthesize(tp *testProg, opts Options) error {
	wr, err := synth.NewWriter(tp.prog, p.pkgPath)
	if err != nil {
		return err
	}
	for _, it := range p.items {
		w := it.finding.Warning
		if it.finding.Verdict == Error {
			continue
		}
		defs, err := tp.gen.DataDefs(w)
		if err != nil {
			it.noSynth = err.Error()
			continue
		}
		hs, err := wr.Add(w, defs)
		if err != nil {
			it.noSynth = err.Error()
			continue
		}
		seq, err := tp.sequence(w, "")
		if err != nil {
			it.noSynth = fmt.Sprintf("generating the key-location sequence: %v", err)
			continue
		}
		dist, noDist, err := tp.tables(seq, opts)
		if err != nil {
			return fmt.Errorf("building the pfsm graph of %s: %w", p.pkgPath, err)
		}
		for _, h := range hs {
			c := &candidate{test: h.Test, dist: dist, noDist: noDist, harness: h}
			p.index(it, c, seq)
			it.synth = append(it.synth, c)
		}
	}
	if f, ok := wr.File(); ok {
		p.synth, p.synthW = f, wr
	}
	return nil
}

// add appends the steps of seq to the plan's locations and records them
// as c's sequence, c as a candidate of it.
func (p *packagePlan) add(it *item, c *candidate, seq sequence.Sequence) {
	p.index(it, c, seq)
	it.cands = append(it.cands, c)
}

// index appends the steps of seq to the plan's locations and records them
// as c's sequence.
func (p *packagePlan) index(it *item, c *candidate, seq sequence.Sequence) {
	seq.Steps = shortLabels(seq.Steps, it.finding.Warning)
	p.locs, c.seq = seq.Indexed(p.locs)
	for i, l := range seq.Steps {
		st := Step{Location: l}
		if i < len(seq.Why) {
			st.Why = seq.Why[i]
		}
		c.steps = append(c.steps, st)
	}
}

// fail decides every undecided warning of the plan as Error with cause.
func (p *packagePlan) fail(cause string) {
	for _, it := range p.items {
		if it.finding.Verdict == "" && it.lender == nil {
			it.finding.Verdict, it.finding.Cause = Error, cause
		}
	}
}

// A testProg is a package loaded with its tests: its program, the
// generator of its warnings' sequences and, built on first use, the pfsm
// graph of its code.
type testProg struct {
	prog  *testselect.Program
	gen   *sequence.Generator
	graph *pfsm.Graph
}

func newTestProg(prog *testselect.Program) *testProg {
	return &testProg{prog: prog, gen: sequence.NewGenerator(prog)}
}

// sequence returns the best key-location sequence of w for test ("": for
// no test in particular).
func (tp *testProg) sequence(w *warning.Warning, test string) (sequence.Sequence, error) {
	seqs, err := tp.gen.Generate(w, test)
	if err == nil && len(seqs) == 0 {
		err = errors.New("no sequence")
	}
	if err != nil {
		return sequence.Sequence{}, err
	}
	return seqs[0], nil
}

// tables returns the pfsm tables of seq when the strategy uses them, or
// why they could not be computed (the search then goes without them);
// an error is the one building the program's graph.
func (tp *testProg) tables(seq sequence.Sequence, opts Options) (*rt.Distances, string, error) {
	if !usesDistances(opts) {
		return nil, "", nil
	}
	if tp.graph == nil {
		g, err := newGraph(tp.prog)
		if err != nil {
			return nil, "", err
		}
		tp.graph = g
	}
	d, err := distances(tp.graph, seq)
	if err != nil {
		return nil, err.Error(), nil
	}
	return d, "", nil
}

// usesDistances reports whether the search needs the pfsm tables.
func usesDistances(opts Options) bool {
	return opts.Strategy == "meta" && (opts.Heuristic == "" || opts.Heuristic == "pfsm")
}

// newGraph builds the pfsm graph of the packages prog loaded from source.
func newGraph(prog *testselect.Program) (*pfsm.Graph, error) {
	var scope []*ssa.Package
	for _, p := range prog.Packages {
		if sp := prog.SSA.Package(p.Types); sp != nil {
			scope = append(scope, sp)
		}
	}
	return pfsm.NewGraph(prog.SSA, scope)
}

// distances computes the pfsm tables whose targets are seq's steps.
func distances(g *pfsm.Graph, seq sequence.Sequence) (*rt.Distances, error) {
	targets := make([]pfsm.Target, len(seq.Steps))
	for i, s := range seq.Steps {
		targets[i] = pfsm.Target{File: s.File, Line: s.Line, Col: s.Col}
	}
	d, err := g.Distances(targets)
	if err != nil {
		return nil, fmt.Errorf("computing pfsm distances: %w", err)
	}
	return d, nil
}

// shortTest turns "import/path.TestX" into "TestX".
func shortTest(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// planUserSequence plans the one Finding of a user sequence (opts.Seq),
// run by the tests of the package holding its first step that match
// opts.Run.
func planUserSequence(ctx context.Context, opts Options) (*packagePlan, error) {
	seq, err := sequence.Parse(opts.Seq, opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("-seq: %w", err)
	}
	if len(seq.Steps) == 0 {
		return nil, errors.New("-seq: no steps")
	}
	re, err := regexp.Compile(opts.Run)
	if err != nil {
		return nil, fmt.Errorf("-run: %w", err)
	}
	dir := filepath.Dir(seq.Steps[0].File)
	rel, err := filepath.Rel(opts.Dir, dir)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil, fmt.Errorf("-seq: %s is not below the working directory %s", dir, opts.Dir)
	}
	p := &packagePlan{pattern: "./" + filepath.ToSlash(rel)}
	first := seq.Steps[0]
	w := &warning.Warning{
		ID:       "user",
		Analyzer: "user",
		Kind:     "sequence",
		Message:  "user sequence " + seq.String(),
		Sites:    []warning.Site{{Role: "first step"}},
	}
	w.Sites[0].Position.Filename, w.Sites[0].Position.Line, w.Sites[0].Position.Column = first.File, first.Line, first.Col
	it := &item{finding: &Finding{Warning: w}}
	p.items = []*item{it}
	c := &candidate{}
	p.add(it, c, seq)
	it.finding.Sequence = c.steps
	it.run = re
	if usesDistances(opts) {
		prog, err := testselect.Load(ctx, opts.Dir, p.pattern, opts.BuildFlags)
		if err != nil {
			return nil, fmt.Errorf("loading the tests of %s: %w", p.pattern, err)
		}
		g, err := newGraph(prog)
		if err != nil {
			return nil, fmt.Errorf("building the pfsm graph of %s: %w", p.pattern, err)
		}
		if c.dist, err = distances(g, seq); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// shortLabels labels the racing accesses of a race warning's sequence by
// the variable alone ("(hits.Counter).total"), which is how the trace and
// the race failure ("write at (hits.Counter).total (hits.go:23)") name them.
func shortLabels(steps []rt.Location, w *warning.Warning) []rt.Location {
	if w.Kind != warning.Race || len(w.Objects) != 1 {
		return steps
	}
	out := make([]rt.Location, len(steps))
	for i, l := range steps {
		if l.Kind == "read" || l.Kind == "write" {
			l.Label = w.Objects[0]
		}
		out[i] = l
	}
	return out
}
