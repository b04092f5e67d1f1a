package synth_test

import (
	"context"
	"errors"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/synth"
	"github.com/confirm-go/confirm/confirm/testselect"
)

// fixtures is the module of the synthesized-test fixtures.
var fixtures = filepath.Join("..", "..", "testdata", "synth")

func load(t *testing.T, pkg string) *testselect.Program {
	t.Helper()
	prog, err := testselect.Load(context.Background(), fixtures, "./"+pkg, nil)
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func site(t *testing.T, pkg, file string, line, col int, access warning.Access) warning.Site {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join(fixtures, pkg, file))
	if err != nil {
		t.Fatal(err)
	}
	return warning.Site{Position: token.Position{Filename: abs, Line: line, Column: col}, Access: access}
}

// TestAdd checks the harnesses written for a race between two methods:
// the receiver from the package's constructor (a generic one
// instantiated, its error checked), each side once and then from two
// goroutines, and a file that parses.
func TestAdd(t *testing.T) {
	tests := []struct {
		pkg, file       string
		read, write     [2]int // line, column
		want            []string
		wantFirstPrefix string
	}{
		{
			pkg: "registry", file: "registry.go", read: [2]int{39, 11}, write: [2]int{22, 2},
			want: []string{
				"recv := New()",
				"go func() {\n\t\tdefer wg.Done()\n\t\trecv.Close(\"k\")\n\t}()",
				"go func() {\n\t\tdefer wg.Done()\n\t\trecv.SetHook(func(string) {})\n\t}()",
			},
			// The writing side first, the reading one not.
			wantFirstPrefix: "recv := New()\n\trecv.SetHook(func(string) {})\n\tvar wg",
		},
		{
			pkg: "store", file: "store.go", read: [2]int{53, 9}, write: [2]int{31, 2},
			want: []string{
				"recv, err := New[string, string](16)",
				"t.Skipf(",
				"recv.Puts()",
				"recv.Put(\"k\", \"k\")",
			},
			wantFirstPrefix: "}\n\trecv.Put(\"k\", \"k\")\n\tvar wg",
		},
	}
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			prog := load(t, tt.pkg)
			w := &warning.Warning{ID: "race-test", Kind: warning.Race, Sites: []warning.Site{
				site(t, tt.pkg, tt.file, tt.read[0], tt.read[1], warning.AccessRead),
				site(t, tt.pkg, tt.file, tt.write[0], tt.write[1], warning.AccessWrite),
			}}
			wr, err := synth.NewWriter(prog, "example.com/synth/"+tt.pkg)
			if err != nil {
				t.Fatal(err)
			}
			hs, err := wr.Add(w, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(hs) < 2 {
				t.Fatalf("%d harnesses, want at least 2 (sides first, nothing first)", len(hs))
			}
			for _, want := range tt.want {
				if !strings.Contains(hs[0].Source, want) {
					t.Errorf("first harness lacks %q:\n%s", want, hs[0].Source)
				}
			}
			if !strings.Contains(hs[0].Source, tt.wantFirstPrefix) {
				t.Errorf("first harness does not call the writing side alone first (%q):\n%s", tt.wantFirstPrefix, hs[0].Source)
			}
			last := hs[len(hs)-1].Source
			if strings.Count(last, "recv.") != 2 {
				t.Errorf("last harness makes calls before the concurrent ones:\n%s", last)
			}
			f, ok := wr.File()
			if !ok {
				t.Fatal("no file")
			}
			if filepath.Base(f.Path) != "confirm_synth_test.go" {
				t.Errorf("file %s", f.Path)
			}
			if _, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Source, 0); err != nil {
				t.Errorf("file does not parse: %v\n%s", err, f.Source)
			}
		})
	}
}

// TestAddCannot checks that warnings a harness cannot show get no
// harness and a reason.
func TestAddCannot(t *testing.T) {
	prog := load(t, "registry")
	wr, err := synth.NewWriter(prog, "example.com/synth/registry")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []*warning.Warning{
		{ID: "one-site", Kind: warning.Race, Sites: []warning.Site{site(t, "registry", "registry.go", 39, 11, warning.AccessRead)}},
		{ID: "double", Kind: warning.DoubleLock, Sites: []warning.Site{site(t, "registry", "registry.go", 21, 2, ""), site(t, "registry", "registry.go", 21, 2, "")}},
		{ID: "test-code", Kind: warning.Race, Sites: []warning.Site{
			site(t, "registry", "registry_test.go", 8, 2, warning.AccessWrite), site(t, "registry", "registry.go", 22, 2, warning.AccessWrite)}},
	} {
		if hs, err := wr.Add(w, nil); !errors.Is(err, synth.ErrCannot) || len(hs) > 0 {
			t.Errorf("%s: %d harnesses, err %v; want none and ErrCannot", w.ID, len(hs), err)
		}
	}
	if _, ok := wr.File(); ok {
		t.Error("a file with no harness")
	}
	// An unexported type that no exported function returns: its clients
	// cannot make one, so neither does a harness; it calls the exported
	// functions that use the package's one instead.
	hidden, err := synth.NewWriter(load(t, "hidden"), "example.com/synth/hidden")
	if err != nil {
		t.Fatal(err)
	}
	w := &warning.Warning{ID: "unexported", Kind: warning.Race, Sites: []warning.Site{
		site(t, "hidden", "hidden.go", 26, 39, warning.AccessRead), site(t, "hidden", "hidden.go", 15, 2, warning.AccessWrite)}}
	hs, err := hidden.Add(w, nil)
	if err != nil || len(hs) == 0 {
		t.Fatalf("unexported type: %d harnesses, err %v", len(hs), err)
	}
	for _, h := range hs {
		if strings.Contains(h.Source, "new(counter)") || !strings.Contains(h.Source, "Requests()") || !strings.Contains(h.Source, "Count()") {
			t.Errorf("harness makes a counter, or does not call the exported functions that use one:\n%s", h.Source)
		}
	}
}

// TestWithout checks that a harness the compiler rejects can be found by
// the line of the error and dropped from the file.
func TestWithout(t *testing.T) {
	prog := load(t, "registry")
	wr, err := synth.NewWriter(prog, "example.com/synth/registry")
	if err != nil {
		t.Fatal(err)
	}
	hs, err := wr.Add(&warning.Warning{ID: "race-test", Kind: warning.Race, Sites: []warning.Site{
		site(t, "registry", "registry.go", 39, 11, warning.AccessRead),
		site(t, "registry", "registry.go", 22, 2, warning.AccessWrite),
	}}, nil)
	if err != nil || len(hs) < 2 {
		t.Fatalf("%d harnesses, err %v", len(hs), err)
	}
	f, _ := wr.File()
	lines := strings.Split(string(f.Source), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "func "+hs[1].Test+"(") {
			if got := f.TestAt(i + 3); got != hs[1].Test {
				t.Errorf("TestAt(%d) = %q, want %q", i+3, got, hs[1].Test)
			}
		}
	}
	if got := f.TestAt(1); got != "" {
		t.Errorf("TestAt(1) = %q, want none", got)
	}
	g, ok := wr.Without(map[string]bool{hs[1].Test: true})
	if !ok || strings.Contains(string(g.Source), hs[1].Test+"(") || !strings.Contains(string(g.Source), hs[0].Test+"(") {
		t.Errorf("Without dropped the wrong harnesses:\n%s", g.Source)
	}
}
