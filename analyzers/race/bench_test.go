package race_test

import (
	"syscall"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/analysis/passes/appends"
	"golang.org/x/tools/go/analysis/passes/asmdecl"
	"golang.org/x/tools/go/analysis/passes/assign"
	"golang.org/x/tools/go/analysis/passes/atomic"
	"golang.org/x/tools/go/analysis/passes/bools"
	"golang.org/x/tools/go/analysis/passes/buildtag"
	"golang.org/x/tools/go/analysis/passes/cgocall"
	"golang.org/x/tools/go/analysis/passes/composite"
	"golang.org/x/tools/go/analysis/passes/copylock"
	"golang.org/x/tools/go/analysis/passes/defers"
	"golang.org/x/tools/go/analysis/passes/directive"
	"golang.org/x/tools/go/analysis/passes/errorsas"
	"golang.org/x/tools/go/analysis/passes/framepointer"
	"golang.org/x/tools/go/analysis/passes/httpresponse"
	"golang.org/x/tools/go/analysis/passes/ifaceassert"
	"golang.org/x/tools/go/analysis/passes/loopclosure"
	"golang.org/x/tools/go/analysis/passes/lostcancel"
	"golang.org/x/tools/go/analysis/passes/nilfunc"
	"golang.org/x/tools/go/analysis/passes/printf"
	"golang.org/x/tools/go/analysis/passes/shift"
	"golang.org/x/tools/go/analysis/passes/sigchanyzer"
	"golang.org/x/tools/go/analysis/passes/slog"
	"golang.org/x/tools/go/analysis/passes/stdmethods"
	"golang.org/x/tools/go/analysis/passes/stringintconv"
	"golang.org/x/tools/go/analysis/passes/structtag"
	"golang.org/x/tools/go/analysis/passes/testinggoroutine"
	"golang.org/x/tools/go/analysis/passes/tests"
	"golang.org/x/tools/go/analysis/passes/timeformat"
	"golang.org/x/tools/go/analysis/passes/unmarshal"
	"golang.org/x/tools/go/analysis/passes/unreachable"
	"golang.org/x/tools/go/analysis/passes/unsafeptr"
	"golang.org/x/tools/go/analysis/passes/unusedresult"
	"golang.org/x/tools/go/packages"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"github.com/confirm-go/confirm/analyzers/race"
)

// benchPackages are real packages with goroutines and locks, loaded once
// per benchmark; the analyzers then run over them and their dependencies
// (facts) in every iteration.
var benchPackages = []string{
	"golang.org/x/tools/go/ssa",
	"golang.org/x/tools/go/packages",
	"golang.org/x/tools/internal/jsonrpc2_v2",
}

// vetSuite is the set of analyzers go vet runs by default.
var vetSuite = []*analysis.Analyzer{
	appends.Analyzer, asmdecl.Analyzer, assign.Analyzer, atomic.Analyzer, bools.Analyzer,
	buildtag.Analyzer, cgocall.Analyzer, composite.Analyzer, copylock.Analyzer, defers.Analyzer,
	directive.Analyzer, errorsas.Analyzer, framepointer.Analyzer, httpresponse.Analyzer,
	ifaceassert.Analyzer, loopclosure.Analyzer, lostcancel.Analyzer, nilfunc.Analyzer,
	printf.Analyzer, shift.Analyzer, sigchanyzer.Analyzer, slog.Analyzer, stdmethods.Analyzer,
	stringintconv.Analyzer, structtag.Analyzer, testinggoroutine.Analyzer, tests.Analyzer,
	timeformat.Analyzer, unmarshal.Analyzer, unreachable.Analyzer, unsafeptr.Analyzer,
	unusedresult.Analyzer,
}

// BenchmarkRace and BenchmarkVetSuite run over the same packages, so
// their ratio (measured in one run; the machine is noisy) estimates the
// cost of the race analyzer, with buildssa and lockset, against go vet.
func BenchmarkRace(b *testing.B) { benchmarkAnalyzers(b, race.Analyzer) }

func BenchmarkVetSuite(b *testing.B) { benchmarkAnalyzers(b, vetSuite...) }

// BenchmarkLockset runs only what the race analyzer requires (buildssa
// and lockset), so that BenchmarkRace minus it is the race analyzer's own
// cost.
func BenchmarkLockset(b *testing.B) { benchmarkAnalyzers(b, lockset.Analyzer) }

func benchmarkAnalyzers(b *testing.B, analyzers ...*analysis.Analyzer) {
	cfg := &packages.Config{Mode: packages.LoadAllSyntax}
	pkgs, err := packages.Load(cfg, benchPackages...)
	if err != nil {
		b.Fatalf("loading %v: %v", benchPackages, err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		b.Fatalf("loading %v: packages have errors", benchPackages)
	}
	start := cpuTime()
	n := 0
	for b.Loop() {
		n++
		g, err := checker.Analyze(analyzers, pkgs, nil)
		if err != nil {
			b.Fatal(err)
		}
		for act := range g.All() {
			if act.Err != nil && act.IsRoot {
				b.Fatalf("%s: %v", act, act.Err)
			}
		}
	}
	// CPU time is steadier than wall time on a shared machine.
	b.ReportMetric(float64(cpuTime()-start)/float64(n), "cpu-ns/op")
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
