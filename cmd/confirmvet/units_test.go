package main

import (
	"encoding/json"
	"go/build"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
)

func TestUnitAnalyzers(t *testing.T) {
	if build.Default.GOROOT == "" {
		t.Skip("no GOROOT")
	}
	all := []*analysis.Analyzer{lockorder.Analyzer, race.Analyzer}
	dir := t.TempDir()
	factsOnly := map[*analysis.Analyzer]*analysis.Analyzer{lockorder.Analyzer: lockorder.FactsAnalyzer, race.Analyzer: race.FactsAnalyzer}
	cfg := func(name string, vetxOnly bool, files ...string) string {
		data, err := json.Marshal(map[string]any{"ImportPath": "p", "GoFiles": files, "VetxOnly": vetxOnly})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	std := cfg("std.cfg", false, filepath.Join(build.Default.GOROOT, "src", "fmt", "print.go"))
	stdDep := cfg("stddep.cfg", true, filepath.Join(build.Default.GOROOT, "src", "fmt", "print.go"))
	user := cfg("user.cfg", false, filepath.Join(dir, "p.go"))
	dep := cfg("dep.cfg", true, filepath.Join(dir, "p.go"))

	for _, args := range [][]string{nil, {"./..."}, {"-flags"}, {filepath.Join(dir, "missing.cfg")}} {
		if got := unitAnalyzers(args, all, factsOnly); len(got) != 2 || got[0] != all[0] || got[1] != all[1] {
			t.Errorf("unitAnalyzers(%q) replaced the analyzers", args)
		}
	}
	// released checks that got are want, each made to require
	// releaseAnalyzer first and otherwise the same; with collect, each
	// runs want's Run through a wrapper (see withCollect).
	released := func(args []string, got []*analysis.Analyzer, collect bool, want ...*analysis.Analyzer) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("unitAnalyzers(%q) = %d analyzers, want %d", args, len(got), len(want))
		}
		for i, a := range got {
			w := want[i]
			sameRun := reflect.ValueOf(a.Run).Pointer() == reflect.ValueOf(w.Run).Pointer()
			if a == w || a.Name != w.Name || sameRun == collect ||
				!slices.Equal(a.FactTypes, w.FactTypes) || a.ResultType != w.ResultType ||
				!slices.Equal(a.Requires, append([]*analysis.Analyzer{releaseAnalyzer}, w.Requires...)) {
				t.Errorf("unitAnalyzers(%q)[%d] = %s requiring %v, want a copy of %s that requires releaseAnalyzer first", args, i, a.Name, a.Requires, w.Name)
			}
		}
		if err := analysis.Validate(got); err != nil {
			t.Errorf("unitAnalyzers(%q): %v", args, err)
		}
	}
	for _, args := range [][]string{{user}, {"-race=false", user}} {
		released(args, unitAnalyzers(args, all, factsOnly), false, lockorder.Analyzer, race.Analyzer)
	}
	// A package analyzed only for its facts: lockorder and race export
	// them without their checks, and collect garbage as they return.
	for _, args := range [][]string{{dep}, {"-race=false", dep}} {
		released(args, unitAnalyzers(args, all, factsOnly), true, lockorder.FactsAnalyzer, race.FactsAnalyzer)
	}
	for _, args := range [][]string{{std}, {stdDep}, {"-json", "-race=false", std}} {
		got := unitAnalyzers(args, all, factsOnly)
		if len(got) != len(all) {
			t.Fatalf("unitAnalyzers(%q) = %d analyzers, want %d", args, len(got), len(all))
		}
		for i, a := range got {
			if a == all[i] || a.Name != all[i].Name {
				t.Errorf("unitAnalyzers(%q)[%d] = %s, want a stand-in named %s", args, i, a.Name, all[i].Name)
			}
			if len(a.FactTypes) != 0 || len(a.Requires) != 1 || a.Requires[0] != ctrlflow.Analyzer {
				t.Errorf("stand-in %s requires %v with facts %v, want ctrlflow alone", a.Name, a.Requires, a.FactTypes)
			}
		}
		if err := analysis.Validate(got); err != nil {
			t.Errorf("stand-ins: %v", err)
		}
	}
}
