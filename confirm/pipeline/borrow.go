package pipeline

import (
	"context"
	"fmt"
	"strings"

	"github.com/confirm-go/confirm/confirm/testselect"
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
	progs := make(map[string]*testProg)
	load := func(q string) *testProg {
		tp, ok := progs[q]
		if !ok {
			if prog, err := testselect.Load(ctx, opts.Dir, q, opts.BuildFlags); err == nil {
				tp = newTestProg(prog)
			} // a package that does not load lends no tests
			progs[q] = tp
		}
		return tp
	}
	for _, p := range plans {
		for _, it := range p.items {
			f := it.finding
			qs := importers[p.pkgPath]
			if f.Verdict != NoTest || len(qs) == 0 {
				continue
			}
			for _, q := range qs {
				tp := load(q)
				if tp == nil {
					continue
				}
				qp := byPath[q]
				if qp == nil {
					qp = &packagePlan{pkgPath: q, pattern: q}
					byPath[q] = qp
					plans = append(plans, qp)
				}
				if qp.lend(it, tp, opts) {
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
// package that reach it (tp is p's package loaded), and reports whether
// any does.
func (p *packagePlan) lend(it *item, tp *testProg, opts Options) bool {
	f := it.finding
	tests, _ := tp.prog.Select(f.Warning)
	var cands []*candidate
	for _, test := range tests[:min(len(tests), maxCandidates)] {
		seq, err := tp.sequence(f.Warning, test)
		if err != nil {
			continue
		}
		c := &candidate{test: shortTest(test)}
		if c.dist, c.noDist, err = tp.tables(seq, opts); err != nil {
			continue
		}
		p.index(it, c, seq)
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
