package pfsm_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/pfsm"
)

// TestTestVariants loads the fixture with its tests: the package and its
// test variant hold the same functions, which must appear once, and the
// test's own functions get nodes.
func TestTestVariants(t *testing.T) {
	file, err := filepath.Abs("testdata/src/dist/dist.go")
	if err != nil {
		t.Fatal(err)
	}
	testFile, err := filepath.Abs("testdata/src/dist/dist_test.go")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := pfsm.Load(".", true, "./testdata/src/dist")
	if err != nil {
		t.Fatal(err)
	}
	lines := markers(t, file)
	d, err := pfsm.Build(pkgs, []pfsm.Target{{File: file, Line: lines["t"]}})
	if err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for _, f := range d.Funcs {
		if ff := d.Files[f.File]; ff != filepath.ToSlash(testFile) && ff != filepath.ToSlash(file) {
			t.Errorf("function %s of file %s: only the package's files have functions", f.Name, ff)
		}
		k := fmt.Sprintf("%s:%d:%s", d.Files[f.File], f.Start, f.Name)
		if seen[k] {
			t.Errorf("function %s appears twice", k)
		}
		seen[k] = true
	}
	if err := d.Compile(); err != nil {
		t.Fatal(err)
	}
	ts := markers(t, testFile)["ts"]
	for _, tt := range []struct {
		frame rt.Frame
		want  int32
	}{
		{rt.Frame{File: testFile, Line: ts}, 4},
		{rt.Frame{File: file, Line: lines["p0"]}, 2},
		{rt.Frame{File: file, Line: lines["ur"]}, 5},
	} {
		if got := d.Lookup(0, []rt.Frame{tt.frame}); got != tt.want {
			t.Errorf("Lookup(%s:%d) = %d, want %d", filepath.Base(tt.frame.File), tt.frame.Line, got, tt.want)
		}
	}
}

// TestLargePackage checks invariants of the tables of a large package
// (go/ssa): every target line's own operation is at distance 0, every
// function's entry distance to its return is at least 1, and distances
// along a function's lines are consistent with the targets being reached.
func TestLargePackage(t *testing.T) {
	if testing.Short() {
		t.Skip("loads golang.org/x/tools/go/ssa")
	}
	g, err := pfsm.Analyze(loadLarge(t))
	if err != nil {
		t.Fatal(err)
	}
	targets := largeTargets(t, g)
	d, err := g.Distances(targets)
	if err != nil {
		t.Fatal(err)
	}
	d, err = roundTrip(d)
	if err != nil {
		t.Fatal(err)
	}
	for i, tg := range targets {
		if got := d.Lookup(i, []rt.Frame{{File: tg.File, Line: tg.Line}}); got != 0 {
			t.Errorf("target %d (%s): distance at the target = %d, want 0", i, tg, got)
		}
		if n := len(d.Targets[i].Nodes); n < 10 {
			t.Errorf("target %d (%s): only %d nodes reach it", i, tg, n)
		}
	}
	for _, f := range d.Funcs {
		if e := d.End[f.Entry]; e < 1 {
			t.Errorf("%s: entry End = %d, want >= 1", f.Name, e)
		}
	}
}
