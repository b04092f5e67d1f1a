package fixturecheck

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestRead(t *testing.T) {
	exps, err := Read(Dir(filepath.Join("..", "..", "..")))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		file, analyzer string
		minLines       int
	}{
		{"lockcycle/lockcycle.go", "lockorder", 2},
		{"counter/counter.go", "race", 1},
	}
	for _, tt := range tests {
		i := slices.IndexFunc(exps, func(e Expectation) bool { return e.File == tt.file && e.Analyzer == tt.analyzer })
		if i < 0 {
			t.Errorf("no expectation for %s in %s; got %v", tt.analyzer, tt.file, exps)
			continue
		}
		if n := len(exps[i].Lines); n < tt.minLines {
			t.Errorf("%s in %s: %d marked lines, want at least %d", tt.analyzer, tt.file, n, tt.minLines)
		}
	}
	for _, e := range exps {
		if e.File == "clean/clean.go" {
			t.Errorf("the clean package has markers: %v", e)
		}
	}
}

func TestMeets(t *testing.T) {
	e := Expectation{File: "a/a.go", Analyzer: "race", Lines: []int{3, 7}}
	tests := []struct {
		f    Finding
		want bool
	}{
		{Finding{File: "a/a.go", Line: 7, Analyzer: "race"}, true},
		{Finding{File: "a/a.go", Line: 3}, true},
		{Finding{File: "a/a.go", Line: 4, Analyzer: "race"}, false},
		{Finding{File: "a/a.go", Line: 3, Analyzer: "lockorder"}, false},
		{Finding{File: "b/a.go", Line: 3, Analyzer: "race"}, false},
	}
	for _, tt := range tests {
		if got := e.Meets(tt.f); got != tt.want {
			t.Errorf("Meets(%v) = %v, want %v", tt.f, got, tt.want)
		}
	}
}

func TestRel(t *testing.T) {
	abs, err := filepath.Abs("fixture")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ file, want string }{
		{"counter/counter.go", "counter/counter.go"},
		{"./counter/counter.go", "counter/counter.go"},
		{filepath.Join(abs, "counter", "counter.go"), "counter/counter.go"},
	}
	for _, tt := range tests {
		if got := Rel("fixture", tt.file); got != tt.want {
			t.Errorf("Rel(fixture, %q) = %q, want %q", tt.file, got, tt.want)
		}
	}
}
