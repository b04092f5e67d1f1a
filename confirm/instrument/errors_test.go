package instrument

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestInstrumentErrors(t *testing.T) {
	broken := writeModule(t, map[string]string{
		"p.go": "package p\n\nfunc f() {\n\tx := 1\n}\n",
	})
	two := writeModule(t, map[string]string{
		"a/a.go": "package a\n",
		"b/b.go": "package b\n",
	})
	clash := writeModule(t, map[string]string{
		"p.go": "package p\n\nvar confirmrt = 1\n",
	})
	gopath := t.TempDir()
	tests := []struct {
		name    string
		dir     string
		pattern string
		flags   []string
		env     map[string]string
		want    []string
	}{
		{"type error", broken, ".", nil, nil, []string{"package example.com/m", "does not load", "declared and not used: x"}},
		{"no such package", broken, "./nope", nil, nil, []string{"./nope"}},
		{"several packages", two, "./...", nil, nil, []string{"matches 2 packages"}},
		{"no package", broken, "", nil, nil, []string{"no package given"}},
		{"identifier clash", clash, ".", nil, nil, []string{"uses the identifier confirmrt"}},
		{"dependency", "../..", "golang.org/x/tools/go/ssa", nil, nil, []string{"golang.org/x/tools/go/ssa belongs to module golang.org/x/tools, a dependency"}},
		{"overlay flag", broken, ".", []string{"-overlay=x.json"}, nil, []string{"build flag -overlay=x.json"}},
		{"GOPATH mode", gopath, "fmt", nil, map[string]string{"GO111MODULE": "off", "GOPATH": gopath}, []string{"not in a module"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			res, err := Instrument(context.Background(), Request{Dir: tt.dir, Package: tt.pattern, BuildFlags: tt.flags})
			if err == nil {
				_ = res.Remove()
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestStripCover(t *testing.T) {
	kept, stripped := stripCover([]string{"-tags=x", "-cover", "-coverpkg", "./...", "-covermode=atomic", "-race", "--coverprofile=c.out"})
	if want := []string{"-tags=x", "-race"}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept %q, want %q", kept, want)
	}
	if want := []string{"-cover", "-coverpkg", "./...", "-covermode=atomic", "--coverprofile=c.out"}; !reflect.DeepEqual(stripped, want) {
		t.Errorf("stripped %q, want %q", stripped, want)
	}
}

func TestFlatten(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x", "x"},
		{"f(a,\n\tb)", "f ( a , b )"},
		{"T{\n\ta: 1, // one\n}", "T { a : 1 , }"},
		{"func() {\n\tx := 1\n\t_ = x\n}", "func ( ) { x := 1 ; _ = x ; }"},
		{"`a\nb`", `"a\nb"`},
	}
	for _, tt := range tests {
		got, err := flatten(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("flatten(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}
