package warning

import (
	"go/token"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestSuppresses(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"//confirm:ignore", true},
		{"//confirm:ignore benign: counter is approximate", true},
		{"//confirm:ignored", false},
		{"//nolint", true},
		{"//nolint // reason", true},
		{"//nolint:race", true},
		{"//nolint:errcheck,race // reason", true},
		{"//nolint:confirm", true},
		{"//nolint:all", true},
		{"//nolint:errcheck", false},
		{"//nolintx", false},
		{"// plain comment", false},
	}
	for _, tt := range tests {
		if got := suppresses(tt.text, "race"); got != tt.want {
			t.Errorf("suppresses(%q, race) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestComputeIDStable(t *testing.T) {
	mk := func(dir string, line int) *Warning {
		return &Warning{
			Analyzer: "lockorder", Kind: LockOrderCycle, Package: "example.com/bank",
			Objects: []string{"bank.A", "bank.B"},
			Sites: []Site{
				{Position: token.Position{Filename: dir + "/bank.go", Line: line}, Func: "f", Role: "acquires A", FuncLine: 2},
				{Position: token.Position{Filename: dir + "/bank.go", Line: line + 10}, Func: "g", Role: "acquires B while holding A", FuncLine: 3},
			},
		}
	}
	a, b := mk("/home/alice/src", 10), mk("/tmp/ci/clone", 40)
	if ComputeID(a, nil) != ComputeID(b, nil) {
		t.Errorf("ID depends on absolute path or absolute line: %s vs %s", ComputeID(a, nil), ComputeID(b, nil))
	}
	c := mk("/tmp", 10)
	c.Sites[1].Role = "acquires A while holding B"
	if ComputeID(a, nil) == ComputeID(c, nil) {
		t.Errorf("different warnings share ID %s", ComputeID(a, nil))
	}
}

// TestReportOnce checks that a diagnostic reported again (one double lock
// found at each return of a function) reaches the pass once, while one
// that differs in a related position is kept.
func TestReportOnce(t *testing.T) {
	fset := token.NewFileSet()
	f := fset.AddFile("a.go", -1, 100)
	f.SetLines([]int{0, 10, 20, 30})
	var got []analysis.Diagnostic
	pass := &analysis.Pass{Analyzer: &analysis.Analyzer{Name: "lockorder"}, Fset: fset, Report: func(d analysis.Diagnostic) { got = append(got, d) }}
	res := &Result{}
	mk := func(related token.Pos) *Warning {
		return &Warning{Kind: DoubleLock, Message: "double lock: f locks mu while already holding it", Sites: []Site{{Pos: f.Pos(12), Role: "locks mu"}, {Pos: related, Role: "locks mu again"}}}
	}
	kept := []bool{Report(pass, res, mk(f.Pos(22))), Report(pass, res, mk(f.Pos(22))), Report(pass, res, mk(f.Pos(32)))}
	if want := []bool{true, false, true}; !slices.Equal(kept, want) {
		t.Errorf("Report kept %v, want %v", kept, want)
	}
	if len(got) != 2 || len(res.Warnings) != 2 {
		t.Errorf("got %d diagnostics and %d warnings, want 2 and 2", len(got), len(res.Warnings))
	}
}
