// Package fixturecheck checks the findings of an analysis driver (go vet
// with confirmvet, confirmvet on its own, golangci-lint with the confirm
// plugin) over the end-to-end fixture module testdata/lintfixture against
// the markers in its source.
//
// A line that ends in the comment "// expect <analyzer>" is a line where
// that analyzer may report. The marked lines of one file for one analyzer
// form one Expectation: at least one finding of the analyzer must be on
// one of them. Every finding must be on a line marked for its analyzer.
package fixturecheck

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// An Expectation says that Analyzer must report at least one finding in
// File on one of Lines.
type Expectation struct {
	File     string // slash-separated, relative to the fixture module
	Analyzer string
	Lines    []int
}

// A Finding is one diagnostic parsed from a driver's output.
type Finding struct {
	File     string // slash-separated, relative to the fixture module
	Line     int
	Analyzer string // empty when the output format does not name it
	Message  string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d: [%s] %s", f.File, f.Line, f.Analyzer, f.Message)
}

// Meets reports whether f is on one of the lines of e and, when f names
// its analyzer, whether that is the analyzer of e.
func (e Expectation) Meets(f Finding) bool {
	return f.File == e.File && slices.Contains(e.Lines, f.Line) &&
		(f.Analyzer == "" || f.Analyzer == e.Analyzer)
}

// Dir returns the fixture module directory given the path of the
// repository root.
func Dir(root string) string {
	return filepath.Join(root, "testdata", "lintfixture")
}

var expectRE = regexp.MustCompile(`// expect (\w+)\s*$`)

// Read returns the expectations of the fixture module in dir.
func Read(dir string) ([]Expectation, error) {
	var exps []Expectation
	index := map[[2]string]int{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for line := 1; sc.Scan(); line++ {
			m := expectRE.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			key := [2]string{rel, m[1]}
			i, ok := index[key]
			if !ok {
				i = len(exps)
				index[key] = i
				exps = append(exps, Expectation{File: rel, Analyzer: m[1]})
			}
			exps[i].Lines = append(exps[i].Lines, line)
		}
		return sc.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("reading fixture expectations in %s: %w", dir, err)
	}
	if len(exps) == 0 {
		return nil, fmt.Errorf("no // expect markers in %s", dir)
	}
	return exps, nil
}

// Check runs one subtest per expectation, which fails when no finding
// meets it, and fails t for every finding that meets no expectation (a
// false positive).
func Check(t *testing.T, exps []Expectation, got []Finding) {
	t.Helper()
	for _, e := range exps {
		t.Run(e.File+"/"+e.Analyzer, func(t *testing.T) {
			if !slices.ContainsFunc(got, e.Meets) {
				t.Errorf("no %s finding in %s on any of lines %v; got:\n%s", e.Analyzer, e.File, e.Lines, list(got))
			}
		})
	}
	for _, f := range got {
		if !slices.ContainsFunc(exps, func(e Expectation) bool { return e.Meets(f) }) {
			t.Errorf("unexpected finding (no // expect marker for it on its line): %s", f)
		}
	}
}

func list(fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\t%s\n", f)
	}
	return b.String()
}

// Rel returns file relative to dir, slash-separated. Relative names are
// taken to be relative to dir already.
func Rel(dir, file string) string {
	if filepath.IsAbs(file) {
		if absDir, err := filepath.Abs(dir); err == nil {
			if rel, err := filepath.Rel(absDir, file); err == nil {
				file = rel
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}
