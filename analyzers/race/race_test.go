package race_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/confirm-go/confirm/analyzers/race"
	"github.com/confirm-go/confirm/analyzers/warning"
)

func TestAnalyzer(t *testing.T) {
	// Fixtures of one package are checked without facts, so that their
	// expectations list only diagnostics; the cross-package fixture
	// checks the facts too.
	noFacts := *race.Analyzer
	noFacts.FactTypes = nil
	tests := []struct {
		name     string
		analyzer *analysis.Analyzer
		pkg      string
		shape    []shape // warnings whose structure is checked beyond the message
	}{
		{"lock discipline", &noFacts, "counter", []shape{{
			primaryFunc: "(*counter.Counter).Peek",
			objects:     []string{"(counter.Counter).n"},
			sites: []warning.Site{
				{Access: warning.AccessRead, Object: "(counter.Counter).n", Func: "(*counter.Counter).Peek", FuncLine: 1,
					Role: "reads (counter.Counter).n without holding (counter.Counter).mu"},
				{Access: warning.AccessWrite, Object: "(counter.Counter).n", Held: []string{"(counter.Counter).mu"}},
			},
			column: 9, // "return c.n": the selector expression, not the statement
		}}},
		{"goroutines", &noFacts, "goroutines", []shape{{
			primaryFunc: "goroutines.Captured$1",
			objects:     []string{"captured variable sum in goroutines.Captured"},
			sites: []warning.Site{
				{Access: warning.AccessWrite, Func: "goroutines.Captured$1", Goroutine: "goroutines.Captured$1", FuncLine: 2},
				{Access: warning.AccessRead, Func: "goroutines.Captured", FuncLine: 7},
			},
			column: 4,
		}}},
		{"locks that are not package sync's", &noFacts, "lockers", nil},
		{"writes before publication, helpers under the lock", &noFacts, "published", nil},
		{"waits that join nothing", &noFacts, "misjoined", nil},
		{"allocators other packages may implement", &noFacts, "allocators", nil},
		{"unusual code", &noFacts, "odd", nil},
		{"the lock of another instance", &noFacts, "instances", nil},
		{"a running flag set before the goroutine starts", &noFacts, "flags", nil},
		{"fields published by closing a channel", &noFacts, "closed", nil},
		{"helpers locked around in callbacks", &noFacts, "tickers", nil},
		{"interface calls to types ever converted", &noFacts, "stores", nil},
		{"interface calls on values the package never makes", &noFacts, "dialed", nil},
		{"cgo", &noFacts, "cgouse", nil},
		{"goroutines a constructor leaves running on what it returns", &noFacts, "feeds", nil},
		{"closures run by goroutines a callee leaves running", &noFacts, "workers", nil},
		{"function literals a call runs before it returns", &noFacts, "runners", nil},
		{"functions the standard library runs in goroutines of its own", &noFacts, "starters", nil},
		{"reads after waiting for every goroutine that writes", &noFacts, "joined", nil},
		{"resets after the last reference is released", &noFacts, "refcounts", nil},
		{"locks taken only when a flag asks", &noFacts, "condlocks", nil},
		{"goroutines joined before their spawner returns", &noFacts, "fanout", nil},
		{"setup methods, and receivers kept in cells for function literals", &noFacts, "cells", nil},
		{"write loops started before their connection is published", &noFacts, "writeloops", nil},
		{"disjoint locks, and a test's own types", &noFacts, "collectors", []shape{{
			primaryFunc: "(*collectors.Board).Tally",
			objects:     []string{"(collectors.Counts).Success", "(collectors.peerStats).counts"},
			sites: []warning.Site{
				{Access: warning.AccessRead, Func: "(*collectors.Board).Tally"},
				{Access: warning.AccessWrite, Func: "(*collectors.peerStats).succ"},
			},
		}}},
		{"a lock two functions take: a weak belief", &noFacts, "beliefs", nil},
		{"contracts the documentation gives callers", &noFacts, "contracts", nil},
		{"test suites, whose methods run one at a time", &noFacts, "suites", nil},
		{"channels used as mutexes, atomic flags used as try-locks", &noFacts, "chanlocks", nil},
		{"a test's own accesses next to the package's background goroutines", &noFacts, "pokes", nil},
		{"fields of another package's types under this package's locks", &noFacts, "leases", nil},
		{"values initialized once under a gate", &noFacts, "lazy", nil},
		{"values initialized once under a gate, across packages", race.Analyzer, "lazyuse", nil},
		{"facts across packages", race.Analyzer, "app", []shape{{
			primaryFunc: "app.Report",
			objects:     []string{"stats.Total"},
			sites: []warning.Site{
				{Access: warning.AccessRead, Func: "app.Report"},
				{Access: warning.AccessWrite, Func: "app.Report", Goroutine: "stats.Record", Chain: []string{"stats.Record"}},
			},
		}}},
	}
	// One load per analyzer: the fixtures share their dependencies, whose
	// type checking and lockset summaries are most of the cost.
	for _, a := range []*analysis.Analyzer{&noFacts, race.Analyzer} {
		var pkgs []string
		for _, tt := range tests {
			if tt.analyzer == a {
				pkgs = append(pkgs, tt.pkg)
			}
		}
		byPkg := map[string][]*warning.Result{} // a package and its test variant
		for _, r := range analysistest.Run(t, analysistest.TestData(), a, pkgs...) {
			if r.Err != nil {
				t.Fatalf("analysis failed: %v", r.Err)
			}
			if strings.HasSuffix(r.Pass.Pkg.Path(), ".test") {
				continue // the generated test main
			}
			res, ok := r.Result.(*warning.Result)
			if !ok {
				t.Fatalf("result of %s is %T, want *warning.Result", r.Pass.Pkg.Path(), r.Result)
			}
			byPkg[r.Pass.Pkg.Path()] = append(byPkg[r.Pass.Pkg.Path()], res)
		}
		for _, tt := range tests {
			if tt.analyzer != a || len(tt.shape) == 0 {
				continue
			}
			t.Run(tt.name, func(t *testing.T) {
				if len(byPkg[tt.pkg]) == 0 {
					t.Fatalf("no result for package %s", tt.pkg)
				}
				for _, res := range byPkg[tt.pkg] {
					for _, s := range tt.shape {
						s.check(t, res)
					}
				}
			})
		}
	}
}

// A shape is the expected structure of one warning, found by the Func of
// its first site. Zero fields of expected sites are not checked.
type shape struct {
	primaryFunc string
	objects     []string
	sites       []warning.Site
	column      int
}

func (s shape) check(t *testing.T, res *warning.Result) {
	t.Helper()
	var w *warning.Warning
	for _, x := range res.Warnings {
		if len(x.Sites) > 0 && x.Sites[0].Func == s.primaryFunc {
			w = x
			break
		}
	}
	if w == nil {
		t.Errorf("no warning with first site in %s", s.primaryFunc)
		return
	}
	if w.Kind != warning.Race || w.Analyzer != "race" || w.ID == "" {
		t.Errorf("warning %s: kind %q, analyzer %q, ID %q", s.primaryFunc, w.Kind, w.Analyzer, w.ID)
	}
	if !slices.Equal(w.Objects, s.objects) {
		t.Errorf("warning %s: objects %q, want %q", s.primaryFunc, w.Objects, s.objects)
	}
	if len(w.Sites) != len(s.sites) {
		t.Fatalf("warning %s: %d sites, want %d", s.primaryFunc, len(w.Sites), len(s.sites))
	}
	for i, want := range s.sites {
		got := w.Sites[i]
		if !got.Pos.IsValid() {
			t.Errorf("warning %s: site %d has no position", s.primaryFunc, i)
		}
		check := func(field string, got, want any) {
			if !reflect.ValueOf(want).IsZero() && !reflect.DeepEqual(got, want) {
				t.Errorf("warning %s: site %d %s = %v, want %v", s.primaryFunc, i, field, got, want)
			}
		}
		check("Access", got.Access, want.Access)
		check("Object", got.Object, want.Object)
		check("Func", got.Func, want.Func)
		check("FuncLine", got.FuncLine, want.FuncLine)
		check("Goroutine", got.Goroutine, want.Goroutine)
		check("Role", got.Role, want.Role)
		check("Held", got.Held, want.Held)
		check("Chain", got.Chain, want.Chain)
	}
	if s.column != 0 && w.Sites[0].Position.Column != s.column {
		t.Errorf("warning %s: column %d, want %d (start of the access expression)", s.primaryFunc, w.Sites[0].Position.Column, s.column)
	}
}
