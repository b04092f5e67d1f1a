package race_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/confirm-go/confirm/analyzers/race"
)

// generatePackage writes a module with one package of n units, each a
// type with a mutex, methods, goroutines started in loops, waits, and a
// call to the previous unit, so that summaries chain through the whole
// package. It returns the module directory.
func generatePackage(tb testing.TB, n int) string {
	tb.Helper()
	dir := tb.TempDir()
	var b strings.Builder
	b.WriteString("package gen\n\nimport \"sync\"\n\n")
	for i := range n {
		prev := "0"
		if i > 0 {
			prev = fmt.Sprintf("Run%d(xs[1:])", i-1)
		}
		fmt.Fprintf(&b, `type T%[1]d struct {
	mu sync.Mutex
	n  int
	m  map[string]int
}

func (t *T%[1]d) Inc(k string) {
	t.mu.Lock()
	t.n++
	t.m[k]++
	t.mu.Unlock()
}

func (t *T%[1]d) Get() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n + len(t.m)
}

func Run%[1]d(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	t := &T%[1]d{m: map[string]int{}}
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.Inc("k")
			_ = x
		}()
	}
	wg.Wait()
	return t.Get() + %[2]s
}

`, i, prev)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module gen\n\ngo 1.26\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen.go"), []byte(b.String()), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func loadGenerated(tb testing.TB, n int) []*packages.Package {
	tb.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: generatePackage(tb, n)}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		tb.Fatalf("loading generated package: %v", err)
	}
	return pkgs
}

// TestGeneratedPackageSilent checks that a large package of correct
// patterns gives no warning.
func TestGeneratedPackageSilent(t *testing.T) {
	if testing.Short() {
		t.Skip("loads a generated package")
	}
	g, err := checker.Analyze([]*analysis.Analyzer{race.Analyzer}, loadGenerated(t, 50), nil)
	if err != nil {
		t.Fatal(err)
	}
	for act := range g.All() {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		if act.Analyzer == race.Analyzer && act.IsRoot && len(act.Diagnostics) > 0 {
			t.Errorf("%d warnings on correct code, first: %s", len(act.Diagnostics), act.Diagnostics[0].Message)
		}
	}
}

// BenchmarkScaling runs the analyzer over generated packages of growing
// size: the time per op should grow about linearly with n.
func BenchmarkScaling(b *testing.B) {
	for _, n := range []int{250, 500, 1000} {
		b.Run(fmt.Sprintf("units=%d", n), func(b *testing.B) {
			pkgs := loadGenerated(b, n)
			start, ops := cpuTime(), 0
			for b.Loop() {
				ops++
				if _, err := checker.Analyze([]*analysis.Analyzer{race.Analyzer}, pkgs, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(ops), "cpu-ns/op")
		})
	}
}
