package lockorder_test

import (
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/warning"
	"golang.org/x/tools/go/analysis/analysistest"
)

// fixtures are the packages of testdata/src, loaded once: their shared
// dependencies' type checking and summaries are most of the cost.
var fixtures = []string{"a", "b", "silent", "silentcalls", "unusual", "leaks", "indirect", "chanflags", "rangefunc"}

// TestAnalyzer checks the fixtures' expectations, then the sites of
// package a's warnings and the facts FactsAnalyzer exports, on the same
// results.
func TestAnalyzer(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), lockorder.Analyzer, fixtures...)
	var res *warning.Result
	for _, r := range results {
		if r.Err != nil {
			t.Fatalf("analysis of %s failed: %v", r.Pass.Pkg.Path(), r.Err)
		}
		if r.Pass.Pkg.Path() == "a" {
			res = r.Result.(*warning.Result)
		}
	}
	if res == nil {
		t.Fatal("no result for package a")
	}
	t.Run("sites", func(t *testing.T) { testSites(t, res) })
	t.Run("facts only", func(t *testing.T) { testFactsAnalyzer(t, results) })
}

// testSites checks the order and content of the sites the sequence
// generator reads.
func testSites(t *testing.T, res *warning.Result) {
	tests := []struct {
		name  string
		kind  warning.Kind
		obj   string
		sites []site
	}{
		{
			name: "2-cycle: A (path 1), B (path 2), B holding A (path 1), A holding B (path 2)",
			kind: warning.LockOrderCycle, obj: "a.muA",
			sites: []site{
				{14, warning.AccessLock, "acquires a.muA (path 1)"},
				{21, warning.AccessLock, "acquires a.muB (path 2)"},
				{15, warning.AccessLock, "acquires a.muB while holding a.muA (path 1)"},
				{22, warning.AccessLock, "acquires a.muA while holding a.muB (path 2)"},
			},
		},
		{
			name: "double lock through a call: first lock, second lock",
			kind: warning.DoubleLock, obj: "(a.Account).mu",
			sites: []site{
				{181, warning.AccessLock, "acquires (a.Account).mu"},
				{183, warning.AccessLock, "acquires (a.Account).mu via (*a.Account).Deposit again while holding it"},
			},
		},
		{
			name: "leak: acquisition, return",
			kind: warning.LockLeak, obj: "(a.Cache).mu",
			sites: []site{
				{279, warning.AccessRLock, "read-acquires (a.Cache).mu"},
				{282, warning.AccessReturn, "returns with (a.Cache).mu held"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkSites(t, res, tt.kind, tt.obj, tt.sites)
		})
	}

	t.Run("goroutine", func(t *testing.T) {
		w := find(res, warning.LockOrderCycle, "a.muL")
		if w == nil {
			t.Fatal("no cycle on a.muL")
		}
		if got := w.Sites[0].Goroutine; got != "a.spawn$1" {
			t.Errorf("goroutine of the first site = %q, want a.spawn$1", got)
		}
		if got := w.Sites[1].Goroutine; got != "" {
			t.Errorf("goroutine of the second site = %q, want none", got)
		}
	})

	// A cycle closed across packages: the sites of package b come from
	// its Orders fact, with positions but no token.Pos of this pass.
	t.Run("cross-package cycle", func(t *testing.T) {
		w := find(res, warning.LockOrderCycle, "(b.Store).mu")
		if w == nil {
			t.Fatal("no cross-package cycle")
		}
		want := []struct {
			file string
			line int
			fn   string
		}{
			{"a/a.go", 301, "a.crossCycle"},
			{"b/b.go", 32, "(*b.Store).Sync"},
			{"a/a.go", 302, "a.crossCycle"},
			{"b/b.go", 34, "(*b.Store).Sync"},
		}
		if len(w.Sites) != len(want) {
			t.Fatalf("got %d sites, want %d", len(w.Sites), len(want))
		}
		for i, s := range w.Sites {
			if !strings.HasSuffix(s.Position.Filename, want[i].file) || s.Position.Line != want[i].line || s.Func != want[i].fn {
				t.Errorf("site %d = %s:%d in %s, want %s:%d in %s", i, s.Position.Filename, s.Position.Line, s.Func, want[i].file, want[i].line, want[i].fn)
			}
		}
		if got := w.Sites[3].Chain; len(got) != 1 || got[0] != "(*b.Store).Get" {
			t.Errorf("chain of the last site = %v, want [(*b.Store).Get]", got)
		}
	})
}

func find(res *warning.Result, kind warning.Kind, obj string) *warning.Warning {
	for _, x := range res.Warnings {
		if x.Kind == kind && len(x.Objects) > 0 && x.Objects[0] == obj {
			return x
		}
	}
	return nil
}

type site struct {
	line   int
	access warning.Access
	role   string
}

func checkSites(t *testing.T, res *warning.Result, kind warning.Kind, obj string, sites []site) {
	t.Helper()
	w := find(res, kind, obj)
	if w == nil {
		t.Fatalf("no %s warning on %s", kind, obj)
	}
	if len(w.Sites) != len(sites) {
		t.Fatalf("got %d sites, want %d: %+v", len(w.Sites), len(sites), w.Sites)
	}
	for i, want := range sites {
		got := w.Sites[i]
		if got.Position.Line != want.line || got.Access != want.access || got.Role != want.role {
			t.Errorf("site %d = line %d %s %q, want line %d %s %q", i, got.Position.Line, got.Access, got.Role, want.line, want.access, want.role)
		}
		if got.Func == "" || got.Object == "" {
			t.Errorf("site %d lacks Func or Object: %+v", i, got)
		}
	}
	if w.ID == "" || len(w.Funcs) == 0 {
		t.Errorf("warning not finished: %+v", w)
	}
}
