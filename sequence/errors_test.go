package sequence_test

import (
	"go/token"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/sequence"
)

func TestGenerateErrors(t *testing.T) {
	f := load(t, "locks")
	site := func(file string, line, col int, a warning.Access) warning.Site {
		return warning.Site{Position: f.at(file, line, col), Access: a, Object: "x", Func: "f"}
	}
	tests := []struct {
		name  string
		kind  warning.Kind
		sites []warning.Site
		want  string
	}{
		{"no sites", warning.Race, nil, "has no sites"},
		{"unknown kind", "bogus", []warning.Site{site("abba.go", 14, 2, warning.AccessLock)}, `unknown kind "bogus"`},
		{"file not loaded", warning.DoubleLock, []warning.Site{
			{Position: token.Position{Filename: "/nowhere/x.go", Line: 1, Column: 1}},
			site("abba.go", 14, 2, warning.AccessLock),
		}, "site 0 (): /nowhere/x.go is not a file of the loaded packages"},
		{"line out of range", warning.DoubleLock, []warning.Site{
			site("abba.go", 14, 2, warning.AccessLock), site("abba.go", 400, 2, warning.AccessLock),
		}, "abba.go: line 400 out of range"},
		{"no position", warning.LockOrderCycle, []warning.Site{{Role: "acquires A"}}, "site 0 (acquires A) has no position"},
		{"race with one site", warning.Race, []warning.Site{site("abba.go", 16, 2, warning.AccessWrite)}, "want 2 sites"},
		{"race outside a function", warning.Race, []warning.Site{
			site("abba.go", 8, 2, warning.AccessWrite), site("abba.go", 16, 2, warning.AccessWrite),
		}, "site 0 at abba.go:8:2 is not inside a function"},
		{"leak without return", warning.LockLeak, []warning.Site{
			site("leak.go", 12, 2, warning.AccessLock), site("leak.go", 23, 2, warning.AccessLock),
		}, "want an acquisition site and a return site"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warning.Warning{ID: "w1", Kind: tt.kind, Sites: tt.sites}
			_, err := sequence.Generate(w, f.prog, "")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Generate error = %v, want one containing %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), "w1") {
				t.Errorf("error %q does not name the warning", err)
			}
		})
	}
	if _, err := sequence.Generate(nil, f.prog, ""); err == nil {
		t.Error("Generate(nil) succeeded")
	}
	if _, err := sequence.Generate(&warning.Warning{Kind: warning.Race}, nil, ""); err == nil {
		t.Error("Generate without a program succeeded")
	}
}
