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
	for _, pkg := range []string{"app", "feeds", "workers"} {
		t.Run(pkg, func(t *testing.T) {
			full := analysistest.Run(quiet{}, analysistest.TestData(), race.Analyzer, pkg)
			only := analysistest.Run(quiet{}, analysistest.TestData(), race.FactsAnalyzer, pkg)
			if len(full) != len(only) {
				t.Fatalf("%d results with FactsAnalyzer, %d with Analyzer", len(only), len(full))
			}
			exported := 0
			for i, r := range only {
				if r.Err != nil || full[i].Err != nil {
					t.Fatalf("analysis failed: %v, %v", r.Err, full[i].Err)
				}
				if len(r.Diagnostics) > 0 {
					t.Errorf("FactsAnalyzer reported %d diagnostics on %s, want none", len(r.Diagnostics), r.Pass.Pkg.Path())
				}
				got, want := facts(r), facts(full[i])
				exported += len(want)
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
			if pkg == "app" && exported == 0 {
				t.Errorf("no fact exported on %s", pkg)
			}
		})
	}
}
