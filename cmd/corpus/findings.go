package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/confirm-go/confirm/confirm/pipeline"
)

// A finding is one warning of the analyzers on a module, and what a
// reader judged of it.
type finding struct {
	module, id, kind, posn, message string
	judged                          *judgement
}

// A findingsTrial is the analyzers' run on one module.
type findingsTrial struct {
	mod      module
	findings []*finding
	errors   int            // packages that could not be analyzed
	differ   []disagreement // entry points that report other findings than confirm
}

// The precision goals of the analyzers on the corpus: overall, and for
// every module.
const (
	minPrecision       = 0.80
	minModulePrecision = 0.50
)

// runFindings runs the analyzers on every module and compares their
// warnings with the judgements in findings.txt; it reports whether every
// warning is judged and precision meets its goals.
func runFindings(ctx context.Context, o options, out, log io.Writer) (bool, error) {
	mods, err := selectModules(o.only)
	if err != nil {
		return false, err
	}
	judged, err := parseJudged(findingsTxt)
	if err != nil {
		return false, err
	}
	if err := ensureDir(&o); err != nil {
		return false, err
	}
	eps, err := buildEntryPoints(ctx, o)
	if err != nil {
		return false, err
	}
	var trials []*findingsTrial
	for _, m := range mods {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		printf(log, "corpus: %s@%s\n", m.path, m.version)
		dir, err := fetch(ctx, m, o.dir)
		if err != nil {
			return false, err
		}
		ws, pkgErrs, err := pipeline.Analyze(pipeline.Options{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			return false, fmt.Errorf("analyzing %s: %w", m.path, err)
		}
		tr := &findingsTrial{mod: m, errors: len(pkgErrs)}
		var keys []string
		for _, w := range ws {
			f := &finding{module: m.name, id: w.ID, kind: string(w.Kind), message: w.Message}
			if len(w.Sites) > 0 {
				p := w.Sites[0].Position
				rel, err := filepath.Rel(dir, p.Filename)
				if err != nil {
					rel = p.Filename
				}
				f.posn = fmt.Sprintf("%s:%d", rel, p.Line)
				keys = append(keys, findingKey(dir, fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column), w.Message))
			}
			f.judged = judged[m.name+" "+w.ID]
			tr.findings = append(tr.findings, f)
		}
		sort.Slice(tr.findings, func(i, j int) bool { return tr.findings[i].posn < tr.findings[j].posn })
		tr.differ = compareEntryPoints(ctx, dir, keys, eps)
		trials = append(trials, tr)
	}
	return reportFindings(out, trials), nil
}

// reportFindings prints precision per module and overall, the findings
// judged false, and those not judged yet (as lines to complete in
// findings.txt); it reports whether every finding is judged and the
// precision goals are met.
func reportFindings(w io.Writer, trials []*findingsTrial) bool {
	good := true
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	printf(tw, "module\tfindings\ttrue\tfalse\tunjudged\tprecision\tpackage errors\tentry points\t\n")
	var allTrue, allJudged int
	for _, tr := range trials {
		var t, f, u int
		for _, fd := range tr.findings {
			switch {
			case fd.judged == nil:
				u++
			case fd.judged.real:
				t++
			default:
				f++
			}
		}
		allTrue += t
		allJudged += t + f
		prec := "-"
		if t+f > 0 {
			p := float64(t) / float64(t+f)
			prec = fmt.Sprintf("%.0f%%", 100*p)
			good = good && p >= minModulePrecision
		}
		good = good && u == 0
		agree := "agree"
		if len(tr.differ) > 0 {
			agree = fmt.Sprintf("%d differ", len(tr.differ))
			good = false
		}
		printf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%s\t\n", tr.mod.name, len(tr.findings), t, f, u, prec, tr.errors, agree)
	}
	_ = tw.Flush()
	if allJudged > 0 {
		p := float64(allTrue) / float64(allJudged)
		printf(w, "\noverall precision %.0f%% (%d of %d judged findings true; goal %.0f%%, every module %.0f%%)\n", 100*p, allTrue, allJudged, 100*minPrecision, 100*minModulePrecision)
		good = good && p >= minPrecision
	}
	for _, tr := range trials {
		for _, d := range tr.differ {
			printf(w, "\n%s: %s differs from confirm ./...\n", tr.mod.name, d.entry)
			if d.err != nil {
				printf(w, "%s\n", indent(d.err.Error()))
			}
			for _, k := range d.missing {
				printf(w, "\tmissing %s\n", k)
			}
			for _, k := range d.extra {
				printf(w, "\textra   %s\n", k)
			}
			for _, k := range d.repeated {
				printf(w, "\ttwice   %s\n", k)
			}
		}
		for _, fd := range tr.findings {
			switch {
			case fd.judged == nil:
				printf(w, "\nUNJUDGED %s %s [%s] %s: %s\n", fd.module, fd.id, fd.kind, fd.posn, fd.message)
			case !fd.judged.real:
				printf(w, "\nfalse %s %s [%s] %s: %s\n\t%s\n", fd.module, fd.id, fd.kind, fd.posn, fd.message, fd.judged.reason)
			}
		}
	}
	return good
}

// selectModules returns the modules of modules.txt, or those named in
// only (comma-separated names).
func selectModules(only string) ([]module, error) {
	mods, err := parseModules(modulesTxt)
	if err != nil {
		return nil, err
	}
	if only == "" {
		return mods, nil
	}
	var out []module
	for _, m := range mods {
		for _, name := range strings.Split(only, ",") {
			if m.name == name {
				out = append(out, m)
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-modules %s names none of modules.txt", only)
	}
	return out, nil
}
