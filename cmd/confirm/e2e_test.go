package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/runner"
)

// confirmBin is the confirm command built once by TestMain; empty when the
// end-to-end tests are skipped.
var confirmBin string

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	flagShort := false
	for _, a := range os.Args[1:] {
		if a == "-test.short" || a == "-test.short=true" {
			flagShort = true
		}
	}
	if !flagShort {
		dir, err := os.MkdirTemp("", "confirm-e2e-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer func() { _ = os.RemoveAll(dir) }()
		// The replay handles the commands print are kept here, not in
		// the user's cache.
		if err := os.Setenv("XDG_CACHE_HOME", filepath.Join(dir, "cache")); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		confirmBin = filepath.Join(dir, "confirm")
		out, err := exec.Command("go", "build", "-o", confirmBin, ".").CombinedOutput()
		if err != nil {
			fmt.Fprintf(os.Stderr, "building confirm: %v\n%s", err, out)
			return 1
		}
	}
	return m.Run()
}

// confirm runs the confirm command in testdata/<module> and returns its
// stdout, stderr and exit status.
func confirm(t *testing.T, module string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return confirmEnv(t, module, nil, args...)
}

// confirmEnv is confirm with extra environment variables.
func confirmEnv(t *testing.T, module string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runConfirm(t, filepath.Join("..", "..", "testdata", module), env, args...)
}

// runConfirm runs the confirm binary in dir with extra environment
// variables and returns its output and exit status.
func runConfirm(t *testing.T, dir string, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	if confirmBin == "" {
		t.Skip("end-to-end tests need the confirm binary (not built in -short mode)")
	}
	cmd := exec.Command(confirmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("confirm %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), code
}

func decode(t *testing.T, stdout string) jsonOutput {
	t.Helper()
	var r jsonOutput
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, stdout)
	}
	return r
}

// jsonOutput mirrors the documented -json schema.
type jsonOutput struct {
	runner.Result
	Tests         []string `json:"tests"`
	Seed          int64    `json:"seed"`
	ReplayCommand string   `json:"replayCommand"`
	Error         string   `json:"error"`
}

// TestRunAndReplay finds the AB-BA deadlock with confirm run and replays
// it with the printed command, which must reproduce the same trace.
func TestRunAndReplay(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := confirm(t, "bank", "run", "-json", "-seed", "1", "-budget", "5s", "./abba")
	if code != exitFound {
		t.Fatalf("confirm run: status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFound, stdout, stderr)
	}
	found := decode(t, stdout)
	if found.Verdict != "error" || found.Failure == nil || found.Failure.Kind != "deadlock" {
		t.Fatalf("verdict %q, failure %+v; want a deadlock", found.Verdict, found.Failure)
	}
	if found.Package != "example.com/bank/abba" || found.Test != "TestTransfer" || found.Seed != 1 {
		t.Errorf("package %q, test %q, seed %d", found.Package, found.Test, found.Seed)
	}
	named := false
	for _, ev := range found.Trace {
		named = named || ev.Name == "(*abba.Account).mu"
	}
	if !named {
		t.Errorf("no trace event names the mutex (*abba.Account).mu: %+v", found.Trace)
	}
	args := strings.Fields(found.ReplayCommand)
	if len(args) != 5 || args[0] != "confirm" || args[1] != "replay" || args[2] != "-token" || args[4] != "./abba" {
		t.Fatalf("replay command %q", found.ReplayCommand)
	}
	stdout, stderr, code = confirm(t, "bank", append(args[1:2], append([]string{"-json"}, args[2:]...)...)...)
	if code != exitFound {
		t.Fatalf("confirm replay: status %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitFound, stdout, stderr)
	}
	replayed := decode(t, stdout)
	if replayed.Failure == nil || replayed.Failure.Message != found.Failure.Message {
		t.Errorf("replayed failure %+v, want %+v", replayed.Failure, found.Failure)
	}
	if !reflect.DeepEqual(replayed.Trace, found.Trace) {
		t.Errorf("replayed trace differs:\n%+v\nwant\n%+v", replayed.Trace, found.Trace)
	}
}

// divergingToken returns a token for test whose schedule (in the
// runtime's v1 format: the test, then decisions goroutine<<5|op) runs a
// goroutine that does not exist.
func divergingToken(test string) string {
	b := binary.AppendUvarint(nil, uint64(len(test)))
	b = append(b, test...)
	b = binary.AppendUvarint(b, 3)
	for range 3 {
		b = binary.AppendUvarint(b, 7<<5|1)
	}
	return "c1." + test + ".races.v1." + base64.RawURLEncoding.EncodeToString(b)
}

// TestStatus checks the exit status and the message of confirm run on a
// correct package, the robustness fixtures and usage errors.
func TestStatus(t *testing.T) {
	tests := []struct {
		name   string
		module string
		env    []string
		args   []string
		code   int
		stdout []string // substrings of stdout
		stderr []string // substrings of stderr
		absent []string // substrings stderr must not have
	}{
		{
			name: "clean", module: "bank", args: []string{"run", "-budget", "1s", "./abbafixed"},
			code: exitClean, stdout: []string{"no concurrency bug found in example.com/bank/abbafixed (TestTransfer)", "executions"},
		},
		{
			name: "coverage flags", module: "bank", env: []string{"GOFLAGS=-cover -covermode=atomic"},
			args: []string{"run", "-budget", "1s", "./abbafixed"},
			code: exitClean, stdout: []string{"no concurrency bug found in example.com/bank/abbafixed"},
		},
		{
			name: "panic", module: "robust", args: []string{"run", "-budget", "2s", "./panics"},
			code: exitFound, stdout: []string{"panic in TestFirst of example.com/robust/panics", "index out of range", "panics/panics.go:5", "confirm replay -token c1.TestFirst."},
		},
		{
			name: "fails without any interleaving", module: "robust", args: []string{"run", "-budget", "2s", "-run", "TestWrongSum", "./serial"},
			code: exitClean, stdout: []string{"no concurrency bug found in example.com/robust/serial (TestWrongSum)",
				"note: TestWrongSum fails without any interleaving (test-failure: serial_test.go:8: Sum = 10, want 11)"},
		},
		{
			name: "cannot run twice", module: "robust", args: []string{"run", "-budget", "2s", "-run", "TestRegisterOnce", "./serial"},
			code: exitClean, stdout: []string{"no concurrency bug found in example.com/robust/serial (TestRegisterOnce)",
				"note: TestRegisterOnce cannot run twice in one process, so it was not explored: its first execution passed and the second, in the same process and without preemption, failed: serial_test.go:16: serial was registered already"},
		},
		{
			name: "hang", module: "robust", args: []string{"run", "-budget", "1s", "-grace", "2s", "./hangs"},
			code: exitError, stderr: []string{"TestStore", "example.com/robust/hangs"},
		},
		{
			name: "exit", module: "robust", args: []string{"run", "-budget", "1s", "-run", "^TestStop$", "./exits"},
			code: exitFound, stdout: []string{"exit in TestStop of example.com/robust/exits", "os.Exit(4)"},
		},
		{
			name: "exit in dependency", module: "robust", args: []string{"run", "-budget", "1s", "-run", "InDependency", "./exits"},
			code: exitFound, stdout: []string{"crash in TestStopInDependency", "exit status 3", "confirm replay -token c1.TestStopInDependency."},
		},
		{
			name: "does not compile", module: "robust", args: []string{"run", "./broken"},
			code: exitError, stderr: []string{"confirm: package example.com/robust/broken does not load:\n\tbroken/broken.go:5:28: cannot use"},
			absent: []string{"-: ", "# example.com", "[example.com/robust/broken.test]"},
		},
		{
			name: "missing package", module: "robust", args: []string{"run", "./nosuchpkg"},
			code: exitError, stderr: []string{"confirm: ", "nosuchpkg"}, absent: []string{"-: "},
		},
		{
			name: "synctest bubble", module: "bubble", args: []string{"run", "-budget", "1s", "./ping"},
			code: exitClean, stdout: []string{"no concurrency bug found in example.com/bubble/ping (TestPing)", "operations ran in goroutines confirm does not control (started by code it does not rewrite, such as a testing/synctest bubble"},
		},
		{
			name: "no test matches", module: "robust", args: []string{"run", "-run", "Nothing", "./panics"},
			code: exitError, stderr: []string{"no test of example.com/robust/panics matches -run \"Nothing\""},
		},
		{
			name: "no package", module: "robust", args: []string{"run"},
			code: exitError, stderr: []string{"no package given", "usage: confirm run"},
		},
		{
			name: "bad strategy", module: "robust", args: []string{"run", "-strategy", "dfs", "./panics"},
			code: exitError, stderr: []string{`unknown strategy "dfs"`},
		},
		{
			name: "bad flag", module: "robust", args: []string{"run", "-nope", "./panics"},
			code: exitError, stderr: []string{"flag provided but not defined: -nope"},
		},
		{
			name: "bad token", module: "robust", args: []string{"replay", "-token", "v1.AAAA", "./panics"},
			code: exitError, stderr: []string{"malformed replay token"},
		},
		{
			name: "token of another test", module: "robust", args: []string{"replay", "-token", "c1.TestNope.races.v1.AAAA", "./panics"},
			code: exitError, stderr: []string{"TestNope", "does not have"},
		},
		{
			name: "replay diverges", module: "robust", args: []string{"replay", "-token", divergingToken("TestFirst"), "./panics"},
			code: exitError, stdout: []string{"the replay diverged from its token"},
		},
		{
			name: "unknown command", module: "robust", args: []string{"vet"},
			code: exitError, stderr: []string{`unknown command "vet"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := confirmEnv(t, tt.module, tt.env, tt.args...)
			if code != tt.code {
				t.Errorf("status %d, want %d", code, tt.code)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("stdout lacks %q", s)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("stderr lacks %q", s)
				}
			}
			for _, s := range tt.absent {
				if strings.Contains(stderr, s) {
					t.Errorf("stderr has %q", s)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
		})
	}
}
