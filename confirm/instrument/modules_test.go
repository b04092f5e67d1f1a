package instrument

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/internal/longtest"
)

// copyDir copies the fixture directory src to a new temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// checkFallback checks that the mutex passed to a dependency kept its real
// type, that the other one was replaced, and that the tests pass.
func checkFallback(t *testing.T, dir string) {
	t.Helper()
	res := instrumentFixture(t, dir, ".", Request{})
	got := rewrittenFile(t, res, "app.go")
	if !strings.Contains(got, "mu    sync.Mutex") || !strings.Contains(got, "other confirmrt.Mutex") {
		t.Errorf("want S.mu real and S.other replaced:\n%s", got)
	}
	notes := strings.Join(res.Notes, "\n")
	if !strings.Contains(notes, "mu keeps its real sync type") || !strings.Contains(notes, "sync.Mutex stays the real type") {
		t.Errorf("no note on the fallbacks: %q", res.Notes)
	}
	if !strings.Contains(notes, "parameter m of lockIt keeps its real sync type") || !strings.Contains(got, "func lockIt(m *sync.Mutex)") {
		t.Errorf("want lockIt's parameter real: %q", res.Notes)
	}
	if !strings.Contains(got, "dep.With(new(sync.Mutex)") || !strings.Contains(got, "dep.With(&sync.Mutex{}") {
		t.Errorf("want the mutexes passed to dep real:\n%s", got)
	}
	out, err := goTest(t, res, dir, "-v")
	if err != nil || !strings.Contains(out, "--- PASS: TestInc") {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}

func TestFallbackToRealSyncType(t *testing.T) {
	checkFallback(t, "testdata/vendored")
}

func TestVendoredModule(t *testing.T) {
	dir := copyDir(t, "testdata/vendored")
	run(t, dir, "go", "mod", "vendor")
	if _, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err != nil {
		t.Fatal(err)
	}
	checkFallback(t, dir)
}

func TestWorkspace(t *testing.T) {
	dir := writeModule(t, map[string]string{
		"go.work":         "go 1.22\n\nuse (\n\t./app\n\t./lib\n)\n",
		"lib/go.mod":      "module example.com/lib\n\ngo 1.22\n",
		"lib/lib.go":      "package lib\n\n// Double doubles.\nfunc Double(n int) int { return 2 * n }\n",
		"app/go.mod":      "module example.com/app\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n",
		"app/app.go":      "package app\n\nimport (\n\t\"sync\"\n\n\t\"example.com/lib\"\n)\n\nvar mu sync.Mutex\n\n// F doubles under a lock.\nfunc F(n int) int {\n\tmu.Lock()\n\tdefer mu.Unlock()\n\treturn lib.Double(n)\n}\n",
		"app/app_test.go": "package app\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tif F(2) != 4 {\n\t\tt.Fatal(F(2))\n\t}\n}\n",
	})
	// writeModule adds a go.mod at the root; a workspace root has none.
	if err := os.Remove(filepath.Join(dir, "go.mod")); err != nil {
		t.Fatal(err)
	}
	res := instrumentFixture(t, dir, "example.com/app", Request{})
	if !strings.HasPrefix(res.RuntimePath, "example.com/app/confirmrt_") {
		t.Errorf("runtime path %s, want inside example.com/app", res.RuntimePath)
	}
	out, err := goTest(t, res, dir, "-v")
	if err != nil || !strings.Contains(out, "--- PASS: TestF") {
		t.Fatalf("go test: %v\n%s", err, out)
	}
}

// TestOldLanguageVersion checks that the runtime and the rewritten files,
// which call generic functions, build in a module that declares a Go
// version older than they need (gcache says go 1.15), with or without a
// build constraint of their own, and that positions stay those of the
// original lines (runtime.Caller in the rewritten file).
func TestOldLanguageVersion(t *testing.T) {
	for _, v := range []string{"1.13", "1.19", ""} {
		t.Run("go "+v, func(t *testing.T) {
			if v != "1.13" {
				longtest.Skip(t, "go 1.13 shows the oldest language version")
			}
			dir := writeModule(t, map[string]string{
				"p.go": "package p\n\nimport (\n\t\"runtime\"\n\t\"sync\"\n)\n\nvar mu sync.Mutex\n\ntype S struct{ n int }\n\n" +
					"// F locks.\nfunc F(c chan int, s *S) { mu.Lock(); s.n++; c <- s.n; mu.Unlock() }\n\n" +
					"// Line is the line it is on.\nfunc Line() int { _, _, l, _ := runtime.Caller(0); return l }\n",
				"q.go":      "// Package p.\n\n//go:build !plan9\n\npackage p\n\n// G is F.\nfunc G(c chan int, s *S) { F(c, s) }\n",
				"p_test.go": "package p\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) {\n\tc := make(chan int, 1)\n\tG(c, new(S))\n\t<-c\n\tif l := Line(); l != 16 {\n\t\tt.Fatalf(\"Line() = %d, want 16\", l)\n\t}\n}\n",
			})
			mod := "module example.com/m\n"
			if v != "" {
				mod += "\ngo " + v + "\n"
			}
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
				t.Fatal(err)
			}
			res := instrumentFixture(t, dir, ".", Request{Accesses: true})
			if q := rewrittenFile(t, res, "q.go"); !strings.Contains(q, "//go:build go1.21 && (!plan9)") {
				t.Errorf("q.go's constraint not raised:\n%s", q)
			}
			out, err := goTest(t, res, dir, "-v")
			if err != nil || !strings.Contains(out, "--- PASS: TestF") {
				t.Fatalf("go test: %v\n%s", err, out)
			}
		})
	}
}
