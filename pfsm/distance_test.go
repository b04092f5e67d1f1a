package pfsm_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/pfsm"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const inf = math.MaxInt32

// markers returns the lines named by "// @name" comments in file.
func markers(t testing.TB, file string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`// @(\w+)`)
	lines := make(map[string]int)
	for n, text := range strings.Split(string(data), "\n") {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			lines[m[1]] = n + 1
		}
	}
	return lines
}

// fixture is the dist fixture package with its distance tables for the
// targets @t and @c, compiled after a JSON round trip.
type fixture struct {
	file  string
	lines map[string]int
	d     *rt.Distances
}

var (
	distOnce sync.Once
	distFix  fixture
	distErr  error
)

func loadDist(t *testing.T) fixture {
	t.Helper()
	distOnce.Do(func() {
		file, err := filepath.Abs("testdata/src/dist/dist.go")
		if err != nil {
			distErr = err
			return
		}
		lines := markers(t, file)
		pkgs, err := pfsm.Load(".", false, "./testdata/src/dist")
		if err != nil {
			distErr = err
			return
		}
		targets := []pfsm.Target{{File: file, Line: lines["t"]}, {File: file, Line: lines["c"]}, {File: file, Line: lines["cw"]}}
		d, err := pfsm.Build(pkgs, targets)
		if err != nil {
			distErr = err
			return
		}
		d, err = roundTrip(d)
		if err != nil {
			distErr = err
			return
		}
		distFix = fixture{file: file, lines: lines, d: d}
	})
	if distErr != nil {
		t.Fatal(distErr)
	}
	return distFix
}

// roundTrip encodes d as JSON, decodes it and compiles it, as the driver
// and the test process do.
func roundTrip(d *rt.Distances) (*rt.Distances, error) {
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	var out rt.Distances
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	if err := out.Compile(); err != nil {
		return nil, err
	}
	return &out, nil
}

func TestLookup(t *testing.T) {
	fx := loadDist(t)
	const (
		toT  = 0 // target @t, in tgt
		toC  = 1 // target @c, in straight
		toCW = 2 // target @cw, in chanOps
	)
	tests := []struct {
		name   string
		target int
		stack  string // frames, innermost first: marker[=runtime name], "?" for a frame outside the program
		want   int32
	}{
		{"straight/at target", toC, "c", 0},
		{"straight/one call before", toC, "s1", 2},
		{"straight/two calls before", toC, "s0", 4},
		{"branch/long branch", toT, "b1", 6},
		{"branch/short branch", toT, "b2", 2},
		{"call/descends into the shorter branch", toT, "cb", 3},
		{"poly/closer implementation wins", toT, "p0", 2},
		{"poly/static call to the far implementation", toT, "p1", 6},
		{"closure/call of a func value", toT, "ap", 2},
		{"closure/inside the literal", toT, "c1", 2},
		{"go/statement reaches into the spawned function", toT, "g1", 2},
		{"go/before the statement", toT, "g0", 4},
		{"go/spawned goroutine does not return to the spawner", toT, "i0 g2", inf},
		{"go/spawned goroutine reaching the target", toT, "w0 g1", 2},
		{"go/spawner steps over a useless goroutine", toT, "g2", 1},
		{"return/leaf alone cannot reach", toT, "l0", inf},
		{"return/through the caller", toT, "l0 m0", 8},
		{"return/caller frame alone", toT, "m0", 8},
		{"return/unknown frames are skipped", toT, "? l0 ? m0 ?", 8},
		{"return/never returns", toT, "sp m2", inf},
		{"return/callee never returns", toT, "m2", inf},
		{"recursion/summary of a recursive callee", toT, "ur", 5},
		{"defer/at the defer statement", toT, "d0", 3},
		{"defer/deferred call reached at return", toT, "d1", 2},
		{"generic/inside", toT, "gn0", 2},
		{"generic/through an instance", toT, "ug", 2},
		{"calls on one line/return from fast", toT, "fa tw", 2},
		{"calls on one line/return from slow", toT, "sl tw", 6},
		{"calls on one line/top frame", toT, "tw", 6},
		{"panic/recovered panic returns", toT, "ar", 4},
		// recovers cannot reach the target: its tables hold no lines, a
		// frame in it stands at its entry (End: its summary, 3).
		{"panic/frame in a function that cannot reach", toT, "pa ar", 3 + 1 + 0},
		{"unreachable/target in another function", toC, "b1", inf},
		{"callback/function passed to the standard library", toT, "cbk", 2},
		{"callback/inside it, returning through the library", toT, "cbk1 ? ? cbk", 2},
		{"wrapper/spawned literal does not return to the spawner", toT, "g3a=dist.spawner3.func1.1 g3e=dist.spawner3.func1", inf},
		{"defer/deferred call at the closing brace", toT, "a=dist.a de=dist.deferAfter", inf},
		{"defer/closing brace alone", toT, "de", inf},
		{"wrapper/spawner at the go statement of a literal", toT, "g3=dist.spawner3", 1},
		{"wrapper/spawner without a name", toT, "g3", 1},
		{"wrappers/bound method value", toT, "ap2", 2},
		{"wrappers/method expression thunk", toT, "apt", 2},
		{"chan/at the target", toCW, "cw", 0},
		{"chan/stopped at a send after the target", toCW, "ch1", inf},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var frames []rt.Frame
			for _, m := range strings.Fields(tt.stack) {
				if m == "?" {
					frames = append(frames, rt.Frame{File: "/usr/lib/go/src/runtime/proc.go", Line: 250, Func: "runtime.main"})
					continue
				}
				frames = append(frames, fx.frame(t, m))
			}
			if got := fx.d.Lookup(tt.target, frames); got != tt.want {
				t.Errorf("Lookup(%d, %s) = %d, want %d", tt.target, tt.stack, got, tt.want)
			}
		})
	}
}

// frame returns the frame at "marker" or "marker=runtime name".
func (fx fixture) frame(t *testing.T, spec string) rt.Frame {
	t.Helper()
	m, name, _ := strings.Cut(spec, "=")
	line, ok := fx.lines[m]
	if !ok {
		t.Fatalf("no marker @%s", m)
	}
	return rt.Frame{File: fx.file, Line: line, Func: name}
}

// TestLookupStart checks the distance of a goroutine about to run the
// function of its go statement.
func TestLookupStart(t *testing.T) {
	fx := loadDist(t)
	tests := []struct {
		fn   string // marker[=runtime name] of the started function's declaration
		want int32
	}{
		{"g1=dist.spawner.func1", 2},      // wrapper of go worker(): worker's entry
		{"g3=dist.spawner3.func1", inf},   // wrapper of go func(){ a() }(): the literal
		{"g2=dist.spawner2.gowrap1", inf}, // go idle()
		{"cbk=dist.withCallback.func1", 2},
		{"m0", 8}, // inside mid (an entry without prologue): mid's entry
	}
	for _, tt := range tests {
		if got := fx.d.LookupStart(0, fx.frame(t, tt.fn)); got != tt.want {
			t.Errorf("LookupStart(%s) = %d, want %d", tt.fn, got, tt.want)
		}
	}
}

func TestLookupBadInput(t *testing.T) {
	fx := loadDist(t)
	frames := []rt.Frame{{File: fx.file, Line: fx.lines["s0"]}}
	for _, target := range []int{-1, 3, 100} {
		if got := fx.d.Lookup(target, frames); got != inf {
			t.Errorf("Lookup(%d) = %d, want Infinity", target, got)
		}
	}
	if got := fx.d.Lookup(0, nil); got != inf {
		t.Errorf("Lookup(0, nil) = %d, want Infinity", got)
	}
	var empty rt.Distances
	if got := empty.Lookup(0, frames); got != inf {
		t.Errorf("uncompiled Lookup = %d, want Infinity", got)
	}
}

// TestTrimmedPaths checks that frames of binaries built with -trimpath
// (module-relative file names) are found.
func TestTrimmedPaths(t *testing.T) {
	fx := loadDist(t)
	frames := []rt.Frame{{File: "github.com/confirm-go/confirm/pfsm/testdata/src/dist/dist.go", Line: fx.lines["s0"]}}
	if got := fx.d.Lookup(1, frames); got != 4 {
		t.Errorf("Lookup with trimmed path = %d, want 4", got)
	}
}

func TestTargetAt(t *testing.T) {
	fx := loadDist(t)
	if got := fx.d.TargetAt(fx.file, fx.lines["c"]); got != 1 {
		t.Errorf("TargetAt(@c) = %d, want 1", got)
	}
	if got := fx.d.TargetAt(fx.file, fx.lines["s0"]); got != -1 {
		t.Errorf("TargetAt(@s0) = %d, want -1", got)
	}
}

func TestBuildErrors(t *testing.T) {
	file, err := filepath.Abs("testdata/src/dist/dist.go")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := pfsm.Load(".", false, "./testdata/src/dist")
	if err != nil {
		t.Fatal(err)
	}
	g, err := pfsm.Analyze(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		target pfsm.Target
		want   string
	}{
		{pfsm.Target{File: "/nowhere/x.go", Line: 3}, "not part of the analyzed packages"},
		{pfsm.Target{File: file, Line: 1}, "no instruction at this line"},
		{pfsm.Target{File: file, Line: 0}, "line must be positive"},
	}
	for _, tt := range tests {
		_, err := g.Distances([]pfsm.Target{tt.target})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Distances(%v) error = %v, want %q", tt.target, err, tt.want)
		}
	}
	// A target named by a path suffix is found.
	d, err := g.Distances([]pfsm.Target{{File: "dist/dist.go", Line: markers(t, file)["c"]}})
	if err != nil {
		t.Fatalf("Distances(suffix) = %v", err)
	}
	if d.Targets[0].File != filepath.ToSlash(file) {
		t.Errorf("target file = %s, want %s", d.Targets[0].File, file)
	}
}

func TestParseTarget(t *testing.T) {
	tests := []struct {
		in      string
		want    pfsm.Target
		wantErr bool
	}{
		{"a/b.go:12", pfsm.Target{File: "a/b.go", Line: 12}, false},
		{"a/b.go:12:5", pfsm.Target{File: "a/b.go", Line: 12, Col: 5}, false},
		{"C:/x/b.go:3", pfsm.Target{File: "C:/x/b.go", Line: 3}, false},
		{"b.go", pfsm.Target{}, true},
		{"b.go:x", pfsm.Target{}, true},
		{"b.go:0", pfsm.Target{}, true},
		{"b.go:3:0", pfsm.Target{}, true},
	}
	for _, tt := range tests {
		got, err := pfsm.ParseTarget(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseTarget(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	if _, err := pfsm.Analyze(nil); err == nil || !strings.Contains(err.Error(), "no packages") {
		t.Errorf("Analyze(nil) error = %v", err)
	}
	if _, err := pfsm.Analyze([]*packages.Package{nil}); err == nil || !strings.Contains(err.Error(), "nil package") {
		t.Errorf("Analyze([nil]) error = %v", err)
	}
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles}
	pkgs, err := packages.Load(cfg, "./testdata/src/dist")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pfsm.Analyze(pkgs); err == nil || !strings.Contains(err.Error(), "without syntax or types") {
		t.Errorf("Analyze(names only) error = %v", err)
	}
	_, err = pfsm.Load(".", false, "./testdata/src/broken")
	if err == nil || !strings.Contains(err.Error(), "broken.go:4") {
		t.Errorf("Load(broken) error = %v, want the type error's position", err)
	}
}

// TestGenericsInstantiated: built as the pipeline builds (with
// ssa.InstantiateGenerics, where ssautil.AllFunctions lists a generic
// function's instances but not the function itself), a line inside a
// generic function is a target like any other.
func TestGenericsInstantiated(t *testing.T) {
	fx := loadDist(t)
	pkgs, err := pfsm.Load(".", false, "./testdata/src/dist")
	if err != nil {
		t.Fatal(err)
	}
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	g, err := pfsm.NewGraph(prog, ssaPkgs)
	if err != nil {
		t.Fatal(err)
	}
	d, err := g.Distances([]pfsm.Target{{File: fx.file, Line: fx.lines["gn0"]}, {File: fx.file, Line: fx.lines["gm0"]}})
	if err != nil {
		t.Fatalf("a target in a generic function: %v", err)
	}
	if len(d.Funcs) == 0 {
		t.Errorf("no functions in the tables")
	}
}
