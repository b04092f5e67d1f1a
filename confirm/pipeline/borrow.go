package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/confirm-go/confirm/confirm/testselect"
	"github.com/confirm-go/confirm/pfsm"
	"github.com/confirm-go/confirm/sequence"
)

// borrowTests gives each warning that no test of its own package reaches
// the tests of the other packages that import its package (importers): an
// integration test elsewhere in the module may run the warned code. The
// first importer with a test that reaches it takes the warning into its
// plan (created when it has none), whose binary its search then runs;
// the warning stays in its own plan too, for its synthesized tests.
func borrowTests(ctx context.Context, opts Options, plans []*packagePlan, importers map[string][]string) []*packagePlan {
	byPath := make(map[string]*packagePlan, len(plans))
	for _, p := range plans {
		byPath[p.pkgPath] = p
	}
	progs := make(map[string]*testselect.Program)
	gens := make(map[string]*sequence.Generator)
	graphs := make(map[*testselect.Program]*pfsm.Graph)
	graph := func(prog *testselect.Program) (*pfsm.Graph, error) {
		if g, ok := graphs[prog]; ok {
			return g, nil
		}
		g, err := newGraph(prog)
		if err == nil {
			graphs[prog] = g
		}
		return g, err
	}
	load := func(q string) (*testselect.Program, *sequence.Generator) {
		if prog, ok := progs[q]; ok {
			return prog, gens[q]
		}
		prog, err := testselect.Load(ctx, opts.Dir, q, opts.BuildFlags)
		if err != nil {
			prog = nil // a package that does not load lends no tests
		}
		progs[q] = prog
		if prog != nil {
			gens[q] = sequence.NewGenerator(prog)
		}
		return prog, gens[q]
	}
	for _, p := range plans {
		for _, it := range p.items {
			f := it.finding
			qs := importers[p.pkgPath]
			if f.Verdict != NoTest || len(qs) == 0 {
				continue
			}
			for _, q := range qs {
				prog, gen := load(q)
				if prog == nil {
					continue
				}
				qp := byPath[q]
				if qp == nil {
					qp = &packagePlan{pkgPath: q, pattern: q}
					byPath[q] = qp
					plans = append(plans, qp)
				}
				if qp.lend(it, prog, gen, graph, opts) {
					break
				}
			}
			if f.Verdict == NoTest {
				f.Cause = fmt.Sprintf("no test of %s or of the packages that import it (%s) calls %s", p.pkgPath, strings.Join(qs, ", "), strings.Join(f.Unreached, ", "))
			}
		}
	}
	return plans
}

// lend plans it, a warning of another package, with the tests of p's
// package that reach it (prog is p's package loaded), and reports
// whether any does.
func (p *packagePlan) lend(it *item, prog *testselect.Program, gen *sequence.Generator, graph func(*testselect.Program) (*pfsm.Graph, error), opts Options) bool {
	f := it.finding
	tests, _ := prog.Select(f.Warning)
	var cands []*candidate
	for _, test := range tests[:min(len(tests), maxCandidates)] {
		seqs, err := gen.Generate(f.Warning, test)
		if err != nil || len(seqs) == 0 {
			continue
		}
		c := &candidate{test: shortTest(test)}
		if usesDistances(opts) {
			g, err := graph(prog)
			if err != nil {
				continue
			}
			if c.dist, err = distances(g, seqs[0]); err != nil {
				c.noDist = err.Error()
			}
		}
		p.index(it, c, seqs[0])
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return false
	}
	it.cands, it.lender = cands, p
	f.Verdict, f.Cause, f.Unreached = "", "", nil
	f.Test, f.Sequence = cands[0].test, cands[0].steps
	p.borrowed = append(p.borrowed, it)
	return true
}
