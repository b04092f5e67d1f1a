package main_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/cmd/confirmvet/fixturecheck"
)

// fixtureDir is the end-to-end fixture module, relative to this package.
var fixtureDir = fixturecheck.Dir(filepath.Join("..", ".."))

// TestConfirmvet builds confirmvet once and runs it, through go vet and on
// its own, over the fixture module.
func TestConfirmvet(t *testing.T) {
	bin := buildConfirmvet(t)
	t.Run("fixture", func(t *testing.T) { testFixture(t, bin) })
	t.Run("clean package", func(t *testing.T) { testCleanPackage(t, bin) })
	t.Run("bad input", func(t *testing.T) { testBadInput(t, bin) })
	t.Run("bug kernels", func(t *testing.T) { testKernels(t, bin) })
}

// testFixture checks the findings and exit codes over the whole fixture.
func testFixture(t *testing.T, bin string) {
	exps, err := fixturecheck.Read(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		cmd      string
		args     []string
		wantCode int
		json     bool
	}{
		// With findings go vet exits 1, the standalone driver 3; with
		// -json both exit 0.
		{"go vet", "go", []string{"vet", "-vettool=" + bin, "./..."}, 1, false},
		{"go vet -json", "go", []string{"vet", "-vettool=" + bin, "-json", "./..."}, 0, true},
		{"standalone", bin, []string{"./..."}, 3, false},
		{"standalone -json", bin, []string{"-json", "./..."}, 0, true},
		// A flag of the in-process driver loads the packages in one
		// process instead of running go vet: the same findings.
		{"standalone in one process", bin, []string{"-test=true", "./..."}, 3, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := run(t, fixtureDir, tt.cmd, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, stdout, stderr)
			}
			var got []fixturecheck.Finding
			if tt.json {
				got = parseJSON(t, fixtureDir, stdout)
			} else {
				got = parseText(fixtureDir, stdout+"\n"+stderr)
			}
			fixturecheck.Check(t, exps, got)
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
				t.Errorf("exit code %d, stderr should name %q; want non-zero exit and the cause\nstdout:\n%s\nstderr:\n%s", code, tt.wantErr, stdout, stderr)
			}
		})
	}
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

// run runs name with args in dir and returns its stdout, stderr and exit
// code.
func run(t *testing.T, dir, name string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
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

// textDiagRE matches the first line of a diagnostic of go vet or of the
// standalone driver: file:line:col: message. The related positions of the
// diagnostic follow on lines of the same form whose message starts with a
// tab; they do not match.
var textDiagRE = regexp.MustCompile(`^(\S+\.go):(\d+):\d+: ([^\t].*)$`)

// parseText parses text diagnostics, which do not name their analyzer.
func parseText(dir, out string) []fixturecheck.Finding {
	var fs []fixturecheck.Finding
	for _, line := range strings.Split(out, "\n") {
		m := textDiagRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		fs = append(fs, fixturecheck.Finding{File: fixturecheck.Rel(dir, m[1]), Line: n, Message: m[3]})
	}
	return fs
}

// parseJSON parses the -json output of go vet or of the standalone
// driver: a stream of objects mapping package to analyzer to diagnostics
// (or to an error object when the analyzer failed).
func parseJSON(t *testing.T, dir, out string) []fixturecheck.Finding {
	t.Helper()
	var fs []fixturecheck.Finding
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
					t.Errorf("analyzer %s failed: %s", analyzer, raw)
					continue
				}
				for _, d := range diags {
					file, line, err := splitPosn(d.Posn)
					if err != nil {
						t.Fatal(err)
					}
					fs = append(fs, fixturecheck.Finding{File: fixturecheck.Rel(dir, file), Line: line, Analyzer: analyzer, Message: d.Message})
				}
			}
		}
	}
	return fs
}

// splitPosn splits "file:line:col" into file and line.
func splitPosn(posn string) (string, int, error) {
	rest, _, ok := cutLast(posn)
	file, lineStr, ok2 := cutLast(rest)
	line, err := strconv.Atoi(lineStr)
	if !ok || !ok2 || err != nil {
		return "", 0, errors.New("malformed position " + strconv.Quote(posn))
	}
	return file, line, nil
}

func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
