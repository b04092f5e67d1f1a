package lockorder_test

import (
	"fmt"
	"reflect"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/confirm-go/confirm/analyzers/lockorder"
)

// quiet is an analysistest.Testing that keeps the expectations' failures
// to itself: FactsAnalyzer reports none of the diagnostics the fixtures
// expect.
type quiet struct{}

func (quiet) Errorf(string, ...any) {}

// testFactsAnalyzer checks that FactsAnalyzer reports nothing and exports
// the very facts Analyzer does (full, the results of Analyzer).
func testFactsAnalyzer(t *testing.T, full []*analysistest.Result) {
	facts := func(r *analysistest.Result) map[string]*lockorder.Orders {
		out := map[string]*lockorder.Orders{}
		for obj, fs := range r.Facts {
			for _, f := range fs {
				if o, ok := f.(*lockorder.Orders); ok {
					out[fmt.Sprint(obj)] = o
				}
			}
		}
		return out
	}
	only := analysistest.Run(quiet{}, analysistest.TestData(), lockorder.FactsAnalyzer, fixtures...)
	if len(full) != len(only) {
		t.Fatalf("%d results with FactsAnalyzer, %d with Analyzer", len(only), len(full))
	}
	edges := 0
	for i, r := range only {
		if r.Err != nil || full[i].Err != nil {
			t.Fatalf("analysis failed: %v, %v", r.Err, full[i].Err)
		}
		if len(r.Diagnostics) > 0 {
			t.Errorf("FactsAnalyzer reported %d diagnostics on %s, want none", len(r.Diagnostics), r.Pass.Pkg.Path())
		}
		got, want := facts(r), facts(full[i])
		for _, o := range want {
			edges += len(o.Edges)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: FactsAnalyzer exported %+v, Analyzer %+v", r.Pass.Pkg.Path(), got, want)
		}
	}
	if edges == 0 {
		t.Error("no lock-order edge exported")
	}
}
