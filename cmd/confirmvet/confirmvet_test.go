package main_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
)

// fixtureDir is the end-to-end fixture module, relative to this package.
var fixtureDir = filepath.Join("..", "..", "testdata", "lintfixture")

// stub reports whether the named analyzer is still the placeholder that
// reports nothing; its expectations are skipped until it lands.
func stub(analyzer string) bool {
	switch analyzer {
	case lockorder.Analyzer.Name:
		return lockorder.Analyzer.Doc == "stub"
	case race.Analyzer.Name:
		return race.Analyzer.Doc == "stub"
	}
	return false
}

// An expectation says that an analyzer must report at least one finding in
// File (slash-separated, relative to the fixture) on one of Lines.
type expectation struct {
	File     string
	Analyzer string
	Lines    []int
}

// A finding is one diagnostic parsed from a driver's output.
type finding struct {
	File     string // slash-separated, relative to the fixture
	Line     int
	Analyzer string // empty when the output format does not name it
	Message  string
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d: [%s] %s", f.File, f.Line, f.Analyzer, f.Message)
}

var expectRE = regexp.MustCompile(`// expect (\w+)\s*$`)

// readExpectations collects the "// expect <analyzer>" markers of the
// fixture module in dir, one expectation per file and analyzer.
func readExpectations(t *testing.T, dir string) []expectation {
	t.Helper()
	var exps []expectation
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
				exps = append(exps, expectation{File: rel, Analyzer: m[1]})
			}
			exps[i].Lines = append(exps[i].Lines, line)
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatalf("reading fixture expectations: %v", err)
	}
	if len(exps) == 0 {
		t.Fatalf("no // expect markers in %s", dir)
	}
	return exps
}

// checkFindings reports, as test errors, expectations of non-stub analyzers
// that no finding meets, and findings on lines not marked for their
// analyzer (false positives). Findings without an analyzer name match a
// marker of any analyzer.
func checkFindings(t *testing.T, exps []expectation, got []finding) {
	t.Helper()
	for _, e := range exps {
		t.Run(e.File+"/"+e.Analyzer, func(t *testing.T) {
			if stub(e.Analyzer) {
				t.Skipf("analyzer %s is still a stub that reports nothing", e.Analyzer)
			}
			if !slices.ContainsFunc(got, e.meets) {
				t.Errorf("no %s finding in %s on any of lines %v; got:\n%s", e.Analyzer, e.File, e.Lines, list(got))
			}
		})
	}
	for _, f := range got {
		if !slices.ContainsFunc(exps, func(e expectation) bool { return e.meets(f) }) {
			t.Errorf("unexpected finding (no // expect marker on its line): %s", f)
		}
	}
}

func (e expectation) meets(f finding) bool {
	return f.File == e.File && slices.Contains(e.Lines, f.Line) &&
		(f.Analyzer == "" || f.Analyzer == e.Analyzer)
}

func list(fs []finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\t%s\n", f)
	}
	return b.String()
}

// anyReal reports whether at least one analyzer is expected to report.
func anyReal(exps []expectation) bool {
	return slices.ContainsFunc(exps, func(e expectation) bool { return !stub(e.Analyzer) })
}

// buildConfirmvet builds this command into a temporary directory.
func buildConfirmvet(t *testing.T) string {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("go command not found: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "confirmvet")
	out, err := exec.Command(gobin, "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build confirmvet: %v\n%s", err, out)
	}
	return bin
}

// run runs name with args in the fixture module and returns its stdout,
// stderr and exit code.
func run(t *testing.T, dir, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var outb, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatalf("running %s %v: %v", name, args, err)
	}
	return outb.String(), errb.String(), code
}

// textDiagRE matches a diagnostic line of go vet or of the standalone
// driver: file:line:col: message.
var textDiagRE = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: (.*)$`)

// parseText parses text diagnostics; file names are made relative to dir.
func parseText(t *testing.T, dir, out string) []finding {
	t.Helper()
	var fs []finding
	for _, line := range strings.Split(out, "\n") {
		m := textDiagRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		fs = append(fs, finding{File: relTo(t, dir, m[1]), Line: n, Message: m[3]})
	}
	return fs
}

// parseJSON parses the -json output of go vet or of the standalone
// driver: a stream of objects mapping package to analyzer to diagnostics.
func parseJSON(t *testing.T, dir, out string) []finding {
	t.Helper()
	var fs []finding
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var tree map[string]map[string]json.RawMessage
		if err := dec.Decode(&tree); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding -json output: %v\n%s", err, out)
		}
		for _, byAnalyzer := range tree {
			for analyzer, raw := range byAnalyzer {
				var diags []struct {
					Posn    string `json:"posn"`
					Message string `json:"message"`
				}
				if err := json.Unmarshal(raw, &diags); err != nil {
					// An error entry ({"error": ...}) instead of diagnostics.
					t.Errorf("analyzer %s failed: %s", analyzer, raw)
					continue
				}
				for _, d := range diags {
					file, line := splitPosn(t, d.Posn)
					fs = append(fs, finding{File: relTo(t, dir, file), Line: line, Analyzer: analyzer, Message: d.Message})
				}
			}
		}
	}
	return fs
}

// splitPosn splits "file:line:col".
func splitPosn(t *testing.T, posn string) (string, int) {
	t.Helper()
	rest, _, ok := cutLast(posn)
	file, lineStr, ok2 := cutLast(rest)
	line, err := strconv.Atoi(lineStr)
	if !ok || !ok2 || err != nil {
		t.Fatalf("malformed position %q", posn)
	}
	return file, line
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}

// relTo makes file relative to dir (files printed by go vet are relative
// to the working directory already).
func relTo(t *testing.T, dir, file string) string {
	t.Helper()
	if filepath.IsAbs(file) {
		absDir, err := filepath.Abs(dir)
		if err != nil {
			t.Fatal(err)
		}
		if rel, err := filepath.Rel(absDir, file); err == nil {
			file = rel
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// TestConfirmvet builds confirmvet once and runs it, through go vet and on
// its own, over the fixture module.
func TestConfirmvet(t *testing.T) {
	bin := buildConfirmvet(t)
	t.Run("fixture", func(t *testing.T) { testFixture(t, bin) })
	t.Run("clean package", func(t *testing.T) { testCleanPackage(t, bin) })
	t.Run("bad input", func(t *testing.T) { testBadInput(t, bin) })
}

// testFixture checks the findings and exit codes over the whole fixture.
func testFixture(t *testing.T, bin string) {
	exps := readExpectations(t, fixtureDir)
	findingsCode := func(code int) int {
		if anyReal(exps) {
			return code
		}
		return 0
	}
	tests := []struct {
		name     string
		cmd      string
		args     []string
		wantCode int
		json     bool
	}{
		{"go vet", "go", []string{"vet", "-vettool=" + bin, "./..."}, findingsCode(1), false},
		{"go vet -json", "go", []string{"vet", "-vettool=" + bin, "-json", "./..."}, 0, true},
		{"standalone", bin, []string{"./..."}, findingsCode(3), false},
		{"standalone -json", bin, []string{"-json", "./..."}, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, fixtureDir, tt.cmd, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, stdout, stderr)
			}
			var got []finding
			if tt.json {
				got = parseJSON(t, fixtureDir, stdout)
			} else {
				got = parseText(t, fixtureDir, stdout+"\n"+stderr)
			}
			checkFindings(t, exps, got)
		})
	}
}

// testCleanPackage checks that the correct package gives no finding and
// exit code 0.
func testCleanPackage(t *testing.T, bin string) {
	tests := []struct {
		name string
		cmd  string
		args []string
	}{
		{"go vet", "go", []string{"vet", "-vettool=" + bin, "./clean"}},
		{"standalone", bin, []string{"./clean"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, fixtureDir, tt.cmd, tt.args...)
			if code != 0 || strings.TrimSpace(stdout+stderr) != "" {
				t.Errorf("exit code %d, want 0 and no output\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
		})
	}
}

// testBadInput checks that usage errors name their cause and fail.
func testBadInput(t *testing.T, bin string) {
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"missing package", []string{"./nosuchpkg"}, "nosuchpkg"},
		{"no arguments", nil, "Usage"},
		{"unknown flag", []string{"-nosuchflag", "./clean"}, "nosuchflag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, fixtureDir, bin, tt.args...)
			if code == 0 || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("exit code %d and stderr not naming %q, want non-zero exit and the cause\nstdout:\n%s\nstderr:\n%s", code, tt.wantErr, stdout, stderr)
			}
		})
	}
}
