package lockorder_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/packages"

	"github.com/confirm-go/confirm/analyzers/lockorder"
)

// benchPackages are real packages with locks, goroutines and callbacks.
var benchPackages = []string{
	"golang.org/x/tools/go/ssa",
	"golang.org/x/tools/go/packages",
	"golang.org/x/tools/internal/jsonrpc2_v2",
}

// BenchmarkLockorder and BenchmarkBuildSSA run over the same packages and
// all their dependencies (lockorder has facts, so the checker runs it on
// every dependency; ssaEverywhere does the same for buildssa alone). Their
// ratio, in one run (the machine is noisy), is the cost of lockset and
// lockorder over building SSA, which every SSA analyzer with facts pays.
func BenchmarkLockorder(b *testing.B) { benchmarkAnalyzers(b, lockorder.Analyzer) }

func BenchmarkBuildSSA(b *testing.B) { benchmarkAnalyzers(b, ssaEverywhere) }

// noFact makes ssaEverywhere an analyzer with facts.
type noFact struct{}

func (*noFact) AFact() {}

// ssaEverywhere builds SSA for every package, like an SSA analyzer with
// facts, and does nothing else.
var ssaEverywhere = &analysis.Analyzer{
	Name:      "ssaeverywhere",
	Doc:       "build SSA for every package (benchmark baseline)",
	Requires:  []*analysis.Analyzer{buildssa.Analyzer},
	FactTypes: []analysis.Fact{(*noFact)(nil)},
	Run:       func(*analysis.Pass) (any, error) { return nil, nil },
}

func benchmarkAnalyzers(b *testing.B, analyzers ...*analysis.Analyzer) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadAllSyntax}, benchPackages...)
	if err != nil {
		b.Fatalf("loading %v: %v", benchPackages, err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatalf("loading %v: packages have errors", benchPackages)
	}
	for b.Loop() {
		g, err := checker.Analyze(analyzers, pkgs, nil)
		if err != nil {
			b.Fatal(err)
		}
		for act := range g.All() {
			if act.Err != nil {
				b.Fatalf("%s: %v", act, act.Err)
			}
		}
	}
}
