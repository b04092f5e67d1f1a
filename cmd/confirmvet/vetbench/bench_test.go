package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var fixture = filepath.Join("..", "..", "..", "testdata", "lintfixture")

// TestRun benchmarks the fixture module and checks the report: both rows,
// the ratio, the findings of each tool, and that the fixture was not
// written.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("skipped with -short: builds confirmvet and runs go vet twice")
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	before := tree(t, fixture)
	var out, log bytes.Buffer
	o := options{dir: fixture, pkgs: "./...", rounds: 1, gocache: strings.TrimSpace(string(gocache)), verbose: true}
	if err := run(context.Background(), o, &out, &log); err != nil {
		t.Fatalf("run: %v\nlog:\n%s", err, log.String())
	}
	report := out.String()
	t.Logf("report:\n%s", report)
	tests := []struct {
		row          string
		minFindings  int
		wantFindings int // -1: any number at least minFindings
	}{
		{"go vet", 0, 0},                      // the fixture's bugs are not go vet's business
		{"go vet -vettool=confirmvet", 2, -1}, // at least the cycle and the race
	}
	for _, tt := range tests {
		re := regexp.MustCompile(`(?m)^\s*` + regexp.QuoteMeta(tt.row) + `\s+(\d+\.\d)s\s+(\d+\.\ds )+\s*(\d+\.\d)s\s+(\d+ MiB|n/a)\s+(\d+)\s*$`)
		m := re.FindStringSubmatch(report)
		if m == nil {
			t.Errorf("no row for %q in the report", tt.row)
			continue
		}
		n, _ := strconv.Atoi(m[5])
		if n < tt.minFindings || (tt.wantFindings >= 0 && n != tt.wantFindings) {
			t.Errorf("%s: %d findings, want %d (at least %d)", tt.row, n, tt.wantFindings, tt.minFindings)
		}
	}
	if !regexp.MustCompile(`ratio confirmvet / go vet\s+\d+\.\d\dx`).MatchString(report) {
		t.Errorf("no wall-time ratio in the report")
	}
	if got := strings.Count(log.String(), "/vettool-"); got != 2 {
		t.Errorf("%d go vet runs logged, want 2 (1 round x 2 tools):\n%s", got, log.String())
	}
	if after := tree(t, fixture); after != before {
		t.Errorf("the fixture tree changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

// tree lists the files under dir with their sizes and modification times.
func tree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		b.WriteString(path + " " + strconv.FormatInt(info.Size(), 10) + " " + info.ModTime().String() + "\n")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRunBadOptions(t *testing.T) {
	notModule := t.TempDir()
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatalf("go env GOCACHE: %v", err)
	}
	tests := []struct {
		name    string
		o       options
		wantErr string
	}{
		{"no rounds", options{pkgs: "./...", rounds: 0}, "-n must be at least 1"},
		{"module and dir", options{module: "golang.org/x/tools@v0.52.0", dir: fixture, pkgs: "./...", rounds: 1}, "exclusive"},
		{"no packages", options{dir: fixture, pkgs: " ", rounds: 1}, "-pkgs is empty"},
		{"dir not a module", options{dir: notModule, pkgs: "./...", rounds: 1}, "is not a module root"},
		{"module without version", options{module: "golang.org/x/tools", pkgs: "./...", rounds: 1}, "want path@version"},
		{"missing vettool", options{dir: fixture, pkgs: "./...", rounds: 1, vettool: filepath.Join(notModule, "nosuchtool")}, "nosuchtool"},
		{"unknown confirm flag", options{dir: fixture, pkgs: "./...", rounds: 1, confirmFlags: "-nosuchflag", gocache: strings.TrimSpace(string(gocache))}, "nosuchflag"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, log bytes.Buffer
			err := run(context.Background(), tt.o, &out, &log)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("run error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestDiagRE(t *testing.T) {
	out := "# example.com/m/counter\n" +
		"counter/counter.go:16:2: possible data race\n" +
		"counter/counter.go:22:2: \twrites n holding mu\n" +
		"vet: some error\n" +
		"lockcycle/lockcycle.go:18:17: lock-order cycle\n"
	if got := len(diagRE.FindAllStringIndex(out, -1)); got != 2 {
		t.Errorf("diagRE matched %d diagnostics, want 2 (related lines excluded)", got)
	}
}

func TestUncached(t *testing.T) {
	b := &bench{modDir: filepath.Join(t.TempDir(), "module")}
	tool := filepath.Join(t.TempDir(), "it's a tool")
	if err := os.WriteFile(tool, []byte("#!/bin/sh\necho \"ran $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for range 2 {
		w, err := b.uncached(tool)
		if err != nil {
			t.Fatal(err)
		}
		id, err := exec.Command(w, "-V=full").Output()
		if err != nil {
			t.Fatalf("%s -V=full: %v", w, err)
		}
		if !regexp.MustCompile(`^\S+ version devel \S+ buildID=[0-9a-f]+\n$`).Match(id) {
			t.Errorf("-V=full printed %q, not a devel tool identity", id)
		}
		ids[string(id)] = true
		got, err := exec.Command(w, "-flags", "x y").Output()
		if err != nil || string(got) != "ran -flags x y\n" {
			t.Errorf("wrapper did not pass its arguments through: %q, %v", got, err)
		}
	}
	if len(ids) != 2 {
		t.Errorf("two wrappers share the identity %v", ids)
	}
}
