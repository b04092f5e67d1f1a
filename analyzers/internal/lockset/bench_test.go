package lockset

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// genPackage returns the source of a package of n functions that lock
// package mutexes and fields, call each other in a chain, use defers,
// closures and lock helpers.
func genPackage(n int) string {
	var b strings.Builder
	b.WriteString("package gen\n\nimport \"sync\"\n\ntype T struct {\n\tmu sync.Mutex\n\trw sync.RWMutex\n\tn  int\n}\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "var mu%d sync.Mutex\n", i)
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `
func lock%[1]d() { mu%[1]d.Lock() }

func F%[1]d(t *T, k int) int {
	lock%[1]d()
	defer mu%[1]d.Unlock()
	if k > 0 {
		t.mu.Lock()
		t.n++
		t.mu.Unlock()
	}
	func() {
		t.rw.RLock()
		defer t.rw.RUnlock()
		k += t.n
	}()
`, i)
		if i+1 < n {
			fmt.Fprintf(&b, "\treturn F%d(t, k-1)\n}\n", i+1)
		} else {
			b.WriteString("\treturn k\n}\n")
		}
	}
	return b.String()
}

func buildGen(tb testing.TB, n int) (*ssa.Package, []*ssa.Function) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "gen.go", genPackage(n), 0)
	if err != nil {
		tb.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("gen", "gen"), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		tb.Fatal(err)
	}
	var funcs []*ssa.Function
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			fn := pkg.Func(fd.Name.Name)
			funcs = append(funcs, fn)
			funcs = append(funcs, fn.AnonFuncs...)
		}
	}
	return pkg, funcs
}

// analyze runs the whole lockset analysis of a package, as Run does.
func analyze(pkg *ssa.Package, funcs []*ssa.Function) *engine {
	e := newEngine(pkg, funcs, nil)
	for _, fn := range funcs {
		e.finalFlow(fn)
		e.summary(fn)
	}
	return e
}

func TestGenerated(t *testing.T) {
	pkg, funcs := buildGen(t, 20)
	e := analyze(pkg, funcs)
	f0 := pkg.Func("F0")
	s := e.summary(f0)
	// F0 calls F1 ... F19: it acquires every muI, T.mu and T.rw.
	if got, want := len(s.Acquires), 20+2; got != want {
		t.Errorf("F0 acquires %d locks, want %d: %v", got, want, s)
	}
	if len(s.Holds) != 0 || len(s.Releases) != 0 {
		t.Errorf("F0 should be balanced: %v", s)
	}
	if s := e.summary(pkg.Func("lock3")); len(s.Holds) != 1 || s.Holds[0].Class != "gen.mu3" {
		t.Errorf("lock3 should hold gen.mu3: %v", s)
	}
}

// BenchmarkAnalyze measures the lockset analysis of generated packages of
// growing size; the time per function should stay about flat.
func BenchmarkAnalyze(b *testing.B) {
	for _, n := range []int{50, 200, 800} {
		pkg, funcs := buildGen(b, n)
		b.Run(fmt.Sprintf("funcs=%d", len(funcs)), func(b *testing.B) {
			for b.Loop() {
				analyze(pkg, funcs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(funcs)), "ns/func")
		})
	}
}
