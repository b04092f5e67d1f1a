package golangci_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/confirm-go/confirm/analyzers/golangci"
	"github.com/confirm-go/confirm/cmd/confirmvet/fixturecheck"
	"github.com/confirm-go/confirm/internal/longtest"
)

// golangciRepo is the repository `golangci-lint custom` clones.
const golangciRepo = "https://github.com/golangci/golangci-lint.git"

// TestCustomBinary builds a golangci-lint binary with this plugin, the way
// a user does, with `golangci-lint custom` and the .custom-gcl.yml at the
// root of this repository, and runs it over the fixture module.
//
// `golangci-lint custom` clones golangci-lint with git. To build without
// network access the test makes a local git repository from the
// golangci-lint source in the module cache and redirects the clone to it
// with git's url.<base>.insteadOf, passed through GIT_CONFIG_COUNT,
// GIT_CONFIG_KEY_0 and GIT_CONFIG_VALUE_0, which golangci-lint forwards to
// git.
func TestCustomBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: builds a golangci-lint binary with `golangci-lint custom`")
	}
	longtest.Skip(t, "builds golangci-lint from source twice, minutes on two cores")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	version := customVersion(t, root)
	src := golangciSource(t, version)
	mirror := gitMirror(t, src, version)
	gcl := golangciBinary(t, src)
	bin := buildCustom(t, root, gcl, mirror)

	fixture := fixturecheck.Dir(root)
	exps, err := fixturecheck.Read(fixture)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("fixture", func(t *testing.T) {
		got, code := lint(t, bin, fixture, "", "./...")
		if code != 1 {
			t.Errorf("exit code %d, want 1 (issues found)", code)
		}
		fixturecheck.Check(t, exps, got)
	})
	t.Run("clean package", func(t *testing.T) {
		got, code := lint(t, bin, fixture, "", "./clean")
		if code != 0 || len(got) != 0 {
			t.Errorf("exit code %d with findings %v, want 0 and none", code, got)
		}
	})
	t.Run("disable race", func(t *testing.T) {
		got, _ := lint(t, bin, fixture, "settings:\n          disable: [race]\n", "./...")
		for _, f := range got {
			if f.Analyzer == "race" {
				t.Errorf("race finding with race disabled: %s", f)
			}
		}
		var lockorderOnly []fixturecheck.Expectation
		for _, e := range exps {
			if e.Analyzer != "race" {
				lockorderOnly = append(lockorderOnly, e)
			}
		}
		fixturecheck.Check(t, lockorderOnly, got)
	})
	t.Run("bad settings", func(t *testing.T) {
		stdout, stderr, code := runLint(t, bin, fixture, "settings:\n          disable: [deadlock]\n", "./clean")
		if want := `unknown analyzer "deadlock"`; code == 0 || !strings.Contains(stdout+stderr, want) {
			t.Errorf("exit code %d, want non-zero and an error naming the cause (%s)\nstdout:\n%s\nstderr:\n%s", code, want, stdout, stderr)
		}
	})
}

// customVersion reads the golangci-lint version from .custom-gcl.yml.
func customVersion(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, ".custom-gcl.yml"))
	if err != nil {
		t.Fatalf("reading the plugin build configuration: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "version:"); ok {
			return strings.Trim(strings.TrimSpace(v), `"'`)
		}
	}
	t.Fatalf(".custom-gcl.yml has no version")
	return ""
}

// golangciSource returns the directory of the golangci-lint source of
// version in the module cache, downloading it through the module proxy
// when it is missing. It skips the test when the source cannot be had.
func golangciSource(t *testing.T, version string) string {
	t.Helper()
	mod := "github.com/golangci/golangci-lint"
	if major, _, _ := strings.Cut(strings.TrimPrefix(version, "v"), "."); major != "0" && major != "1" {
		mod += "/v" + major
	}
	cmd := exec.Command("go", "mod", "download", "-json", mod+"@"+version)
	cmd.Dir = t.TempDir() // outside any module
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal(out, &info); jerr != nil && err == nil {
		err = jerr
	}
	if err != nil || info.Error != "" || info.Dir == "" {
		t.Skipf("golangci-lint %s source is not in the module cache and cannot be downloaded (%v %s); "+
			"the offline `golangci-lint custom` build clones it from a local git repository made from that source",
			version, err, info.Error)
	}
	return info.Dir
}

// gitMirror copies src into a temporary git repository with a single
// commit tagged version and returns its file:// URL.
func gitMirror(t *testing.T, src, version string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "golangci-lint")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatalf("copying golangci-lint source: %v", err)
	}
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{
			"-c", "user.name=confirm-test", "-c", "user.email=confirm-test@localhost",
			"-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false", "-c", "init.defaultBranch=main",
		}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skipf("git not found (%v): `golangci-lint custom` needs it", err)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "golangci-lint "+version)
	git("tag", version)
	return "file://" + filepath.ToSlash(dir)
}

// golangciBinary returns a golangci-lint binary to run `custom` with: the
// one on PATH or in $(go env GOPATH)/bin, else one built from src.
func golangciBinary(t *testing.T, src string) string {
	t.Helper()
	if p, err := exec.LookPath("golangci-lint"); err == nil {
		return p
	}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, dir := range filepath.SplitList(strings.TrimSpace(string(out))) {
			p := filepath.Join(dir, "bin", "golangci-lint")
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	bin := filepath.Join(t.TempDir(), "golangci-lint")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/golangci-lint")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("no golangci-lint installed, and building it from %s failed: %v\n%s", src, err, out)
	}
	return bin
}

// buildCustom runs `golangci-lint custom` in root, cloning from mirror,
// and returns the path of the custom binary.
func buildCustom(t *testing.T, root, gcl, mirror string) string {
	t.Helper()
	dest := t.TempDir()
	cmd := exec.Command(gcl, "custom", "--destination", dest, "--name", "custom-gcl")
	cmd.Dir = root
	cmd.Env = append(os.Environ(),
		"TMPDIR="+t.TempDir(), // golangci-lint custom works in os.TempDir()
		"GOWORK=off",
		"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=url."+mirror+".insteadOf",
		"GIT_CONFIG_VALUE_0="+golangciRepo,
	)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s custom: %v\n%s", gcl, err, out)
	}
	t.Logf("golangci-lint custom built the plugin binary in %v", time.Since(start).Round(time.Second))
	return filepath.Join(dest, "custom-gcl")
}

// runLint runs the custom binary over pkgs in dir with only the confirm
// linter enabled, with extra indented under its settings entry, and JSON
// output, and returns its standard output and error and its exit code.
func runLint(t *testing.T, bin, dir, extra string, pkgs ...string) (stdout, stderr string, code int) {
	t.Helper()
	tmp := t.TempDir()
	config := filepath.Join(tmp, ".golangci.yml")
	// Unlimited issues: the defaults drop issues with the same text beyond
	// three, which would hide findings of the fixture.
	yml := fmt.Sprintf(`version: "2"
run:
  relative-path-mode: wd
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
linters:
  default: none
  enable:
    - %[1]s
  settings:
    custom:
      %[1]s:
        type: module
        description: lock-order cycles and data races (Confirm)
        %[2]s`, golangci.Name, extra)
	if err := os.WriteFile(config, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"run", "--config", config, "--output.json.path", "stdout", "--show-stats=false",
		"--allow-parallel-runners"}, pkgs...)
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"GOWORK=off",
		"GOLANGCI_LINT_CACHE="+filepath.Join(tmp, "cache"),
		"TMPDIR="+tmp, // golangci-lint's lock file, away from other runs
	)
	var outb, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &outb, &errb
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("running %s: %v", bin, err)
		}
		code = exit.ExitCode()
	}
	return outb.String(), errb.String(), code
}

// lint is runLint that returns the confirm findings and the exit code. It
// fails the test on issues of other linters, such as typecheck errors.
func lint(t *testing.T, bin, dir, extra string, pkgs ...string) ([]fixturecheck.Finding, int) {
	t.Helper()
	stdout, stderr, code := runLint(t, bin, dir, extra, pkgs...)
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename string
				Line     int
			}
		}
		Report struct {
			Linters []struct {
				Name    string
				Enabled bool
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("decoding golangci-lint output (exit code %d): %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	enabled := false
	for _, l := range report.Report.Linters {
		enabled = enabled || (l.Name == golangci.Name && l.Enabled)
	}
	if !enabled {
		t.Errorf("linter %s not enabled in the custom binary; stderr:\n%s", golangci.Name, stderr)
	}
	var fs []fixturecheck.Finding
	for _, is := range report.Issues {
		if is.FromLinter != golangci.Name {
			t.Errorf("issue from linter %s, want only %s: %s:%d: %s", is.FromLinter, golangci.Name, is.Pos.Filename, is.Pos.Line, is.Text)
			continue
		}
		// A linter with several analyzers prefixes each message with the
		// analyzer name; each related position of a diagnostic comes as an
		// issue of its own, prefixed with "<analyzer>(related information)".
		analyzer, msg, ok := strings.Cut(is.Text, ": ")
		if !ok {
			t.Errorf("issue text %q does not name its analyzer", is.Text)
		}
		if strings.HasSuffix(analyzer, "(related information)") {
			continue
		}
		fs = append(fs, fixturecheck.Finding{File: fixturecheck.Rel(dir, is.Pos.Filename), Line: is.Pos.Line, Analyzer: analyzer, Message: msg})
	}
	return fs, code
}
