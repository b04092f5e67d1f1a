package instrument

import (
	"slices"
	"strings"
	"testing"
)

// TestUncontrolled: the notes of constructs whose operations are not
// scheduling points are in Uncontrolled as well as in Notes; the other
// notes only in Notes.
func TestUncontrolled(t *testing.T) {
	tests := []struct {
		name string
		dir  string // a fixture; else a module of the file p.go with src
		src  string
		note string
		// uncontrolled says whether the note limits what the scheduler
		// controls.
		uncontrolled bool
	}{
		{
			name:         "a mutex passed to a dependency keeps its real type",
			dir:          "testdata/vendored",
			note:         "app.go:19:11: mu keeps its real sync type",
			uncontrolled: true,
		},
		{
			name:         "a send on a type parameter channel",
			src:          `func f[C ~chan int](c C) { c <- 1 }`,
			note:         "send on a channel of type parameter type not instrumented",
			uncontrolled: true,
		},
		{
			name:         "context.AfterFunc runs a real goroutine",
			src:          `import "context"; func f(ctx context.Context) { context.AfterFunc(ctx, func() {}) }`,
			note:         "context.AfterFunc uses a real goroutine, which runs outside the controlled scheduler",
			uncontrolled: true,
		},
		{
			name: "(*log.Logger).Fatal exits for real",
			src:  `import "log"; func f(l *log.Logger) { l.Fatal("x") }`,
			note: "(*log.Logger).Fatal exits the process for real",
		},
		{
			name: "a go statement argument evaluated in the new goroutine",
			src:  `type B bool; func g(B) {}; func f(x int) { go g(x == 1) }`,
			note: "go statement argument evaluated in the new goroutine",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = writeModule(t, map[string]string{"p.go": "package p\n\n" + tt.src + "\n"})
			}
			res := instrumentFixture(t, dir, ".", Request{})
			has := func(notes []string) bool {
				return slices.ContainsFunc(notes, func(n string) bool { return strings.Contains(n, tt.note) })
			}
			if !has(res.Notes) {
				t.Fatalf("Notes lack %q: %q", tt.note, res.Notes)
			}
			if got := has(res.Uncontrolled); got != tt.uncontrolled {
				t.Errorf("the note %q in Uncontrolled: %v, want %v; Uncontrolled: %q", tt.note, got, tt.uncontrolled, res.Uncontrolled)
			}
		})
	}
}
