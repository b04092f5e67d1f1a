package race_test

import (
	"fmt"
	"maps"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/confirm-go/confirm/analyzers/race"
)

// quiet is an analysistest.Testing that keeps the expectations' failures
// to itself: FactsAnalyzer reports none of the diagnostics the fixtures
// expect.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// TestFactsAnalyzer checks that FactsAnalyzer reports nothing and exports
// the facts Analyzer does on the fixtures, where no summary is computed
// during a recursive call from another.
func TestFactsAnalyzer(t *testing.T) {
	facts := func(r *analysistest.Result) map[string]string {
		out := map[string]string{}
		for obj, fs := range r.Facts {
			for _, f := range fs {
				out[fmt.Sprint(obj)] += fmt.Sprint(f) + ";"
			}
		}
		return out
	}
	// One load for the three fixtures: their dependencies are shared.
	pkgs := []string{"app", "feeds", "workers"}
	full := analysistest.Run(quiet{}, analysistest.TestData(), race.Analyzer, pkgs...)
	only := analysistest.Run(quiet{}, analysistest.TestData(), race.FactsAnalyzer, pkgs...)
	if len(full) != len(only) {
		t.Fatalf("%d results with FactsAnalyzer, %d with Analyzer", len(only), len(full))
	}
	exported := map[string]int{}
	for i, r := range only {
		if r.Err != nil || full[i].Err != nil {
			t.Fatalf("analysis failed: %v, %v", r.Err, full[i].Err)
		}
		pkg := r.Pass.Pkg.Path()
		if full[i].Pass.Pkg.Path() != pkg {
			t.Fatalf("result %d is of %s with FactsAnalyzer, of %s with Analyzer", i, pkg, full[i].Pass.Pkg.Path())
		}
		if len(r.Diagnostics) > 0 {
			t.Errorf("FactsAnalyzer reported %d diagnostics on %s, want none", len(r.Diagnostics), pkg)
		}
		got, want := facts(r), facts(full[i])
		exported[pkg] += len(want)
		if !maps.Equal(got, want) {
			for _, k := range slices.Sorted(maps.Keys(want)) {
				if got[k] != want[k] {
					t.Errorf("%s: FactsAnalyzer exported %q, Analyzer %q", k, got[k], want[k])
				}
			}
			for _, k := range slices.Sorted(maps.Keys(got)) {
				if _, ok := want[k]; !ok {
					t.Errorf("%s: FactsAnalyzer exported %q, Analyzer nothing", k, got[k])
				}
			}
		}
	}
	if exported["app"] == 0 {
		t.Errorf("no fact exported on app")
	}
}
