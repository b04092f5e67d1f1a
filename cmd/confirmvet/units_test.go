package main

import (
	"encoding/json"
	"go/build"
	"os"
	"path/filepath"
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
	cfg := func(name string, files ...string) string {
		data, err := json.Marshal(map[string]any{"ImportPath": "p", "GoFiles": files})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	std := cfg("std.cfg", filepath.Join(build.Default.GOROOT, "src", "fmt", "print.go"))
	user := cfg("user.cfg", filepath.Join(dir, "p.go"))

	for _, args := range [][]string{nil, {"./..."}, {"-flags"}, {user}, {"-race=false", user}, {filepath.Join(dir, "missing.cfg")}} {
		if got := unitAnalyzers(args, all); len(got) != 2 || got[0] != all[0] || got[1] != all[1] {
			t.Errorf("unitAnalyzers(%q) replaced the analyzers", args)
		}
	}
	for _, args := range [][]string{{std}, {"-json", "-race=false", std}} {
		got := unitAnalyzers(args, all)
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
