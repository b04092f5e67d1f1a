package pfsm_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/pfsm"
	"golang.org/x/tools/go/packages"
)

// largePkg is the package the Build benchmarks analyze: go/ssa itself,
// from the module cache. PFSM_BENCH_PKGS replaces it by a space-separated
// list of patterns, which must include it (the targets are in go/ssa).
const largePkg = "golang.org/x/tools/go/ssa"

// firstTarget returns the first line in [from, to] of file that holds an
// instruction, as a target.
func firstTarget(g *pfsm.Graph, file string, from, to int) []pfsm.Target {
	for line := from; line <= to; line++ {
		t := pfsm.Target{File: file, Line: line}
		if _, err := g.Distances([]pfsm.Target{t}); err == nil {
			return []pfsm.Target{t}
		}
	}
	return nil
}

// largeTargets picks two key locations in largePkg: the first operation
// of (*builder).expr0 and of (*Function).finishBody.
func largeTargets(tb testing.TB, g *pfsm.Graph) []pfsm.Target {
	tb.Helper()
	d, err := g.Distances(nil)
	if err != nil {
		tb.Fatal(err)
	}
	var targets []pfsm.Target
	for _, name := range []string{"(*builder).expr0", "(*Function).finishBody"} {
		for _, f := range d.Funcs {
			if f.Name == name {
				targets = append(targets, firstTarget(g, d.Files[f.File], f.Start+1, f.End)...)
				break
			}
		}
	}
	if len(targets) != 2 {
		tb.Fatalf("found %d of 2 target functions in %s", len(targets), largePkg)
	}
	return targets
}

func loadLarge(tb testing.TB) []*packages.Package {
	tb.Helper()
	patterns := []string{largePkg}
	if env := os.Getenv("PFSM_BENCH_PKGS"); env != "" {
		patterns = strings.Fields(env)
	}
	pkgs, err := pfsm.Load(".", false, patterns...)
	if err != nil {
		tb.Fatal(err)
	}
	return pkgs
}

// BenchmarkBuild measures SSA construction, call graph, summaries and
// the tables of two targets for a large package, and reports the size of
// the tables.
func BenchmarkBuild(b *testing.B) {
	pkgs := loadLarge(b)
	g, err := pfsm.Analyze(pkgs)
	if err != nil {
		b.Fatal(err)
	}
	targets := largeTargets(b, g)
	var d *rt.Distances
	for b.Loop() {
		g, err := pfsm.Analyze(pkgs)
		if err != nil {
			b.Fatal(err)
		}
		if d, err = g.Distances(targets); err != nil {
			b.Fatal(err)
		}
	}
	reportSize(b, d)
}

// BenchmarkDistances measures the per-target part alone (two targets).
func BenchmarkDistances(b *testing.B) {
	g, err := pfsm.Analyze(loadLarge(b))
	if err != nil {
		b.Fatal(err)
	}
	targets := largeTargets(b, g)
	for b.Loop() {
		if _, err := g.Distances(targets); err != nil {
			b.Fatal(err)
		}
	}
}

func reportSize(b *testing.B, d *rt.Distances) {
	data, err := json.Marshal(d)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(data)), "json-bytes")
	b.ReportMetric(float64(len(d.Funcs)), "funcs")
	b.ReportMetric(float64(len(d.End)), "nodes")
	var reach int
	for _, t := range d.Targets {
		reach += len(t.Nodes)
	}
	b.ReportMetric(float64(reach), "reaching-nodes")
}

// BenchmarkFromPCs measures the lookup of a real stack with a warm cache:
// the cost per goroutine per scheduling decision.
func BenchmarkFromPCs(b *testing.B) {
	d := stackDistances(b)
	pcs := captureStack()
	b.ReportMetric(float64(len(pcs)), "pcs")
	b.ReportAllocs()
	for b.Loop() {
		d.FromPCs(0, pcs)
	}
}

// BenchmarkLookup measures the lookup of already expanded frames.
func BenchmarkLookup(b *testing.B) {
	d := stackDistances(b)
	frames := framesOf(captureStack())
	b.ReportAllocs()
	for b.Loop() {
		d.Lookup(0, frames)
	}
}
