package instrument

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// markerLines returns the line of every "// LINE:name" marker in file.
func markerLines(t *testing.T, file string) map[string]int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	lines := make(map[string]int)
	for i, l := range strings.Split(string(src), "\n") {
		if _, name, ok := strings.Cut(l, "// LINE:"); ok {
			lines[strings.TrimSpace(name)] = i + 1
		}
	}
	return lines
}

// TestLinesPreserved checks that failures and panics in rewritten files
// report the user's file:line.
func TestLinesPreserved(t *testing.T) {
	res := instrumentFixture(t, "testdata/lines", ".", Request{})
	dir, _ := filepath.Abs("testdata/lines")
	src := markerLines(t, filepath.Join(dir, "lines.go"))
	tst := markerLines(t, filepath.Join(dir, "lines_test.go"))
	tests := []struct {
		test string
		want []string
	}{
		{"TestErrorf", []string{fmt.Sprintf("lines_test.go:%d: reported here", tst["errorf"])}},
		{"TestPanic", []string{
			fmt.Sprintf("%s/lines.go:%d\n", dir, src["boom"]),
			fmt.Sprintf("%s/lines_test.go:18\n", dir),
		}},
		{"TestSelectPanic", []string{
			fmt.Sprintf("%s/lines.go:%d\n", dir, src["operand"]),
			fmt.Sprintf("%s/lines.go:26\n", dir), // the case holding index(i)
		}},
		{"TestGoPanic", []string{fmt.Sprintf("%s/lines.go:%d\n", dir, src["goroutine"])}},
	}
	for _, tt := range tests {
		t.Run(tt.test, func(t *testing.T) {
			out, err := goTest(t, res, dir, "-run", "^"+tt.test+"$")
			if err == nil {
				t.Fatalf("%s passed, want a failure:\n%s", tt.test, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(strings.ReplaceAll(out, " +0x", "\n+0x"), w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
