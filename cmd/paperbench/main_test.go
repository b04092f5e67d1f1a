package main

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixtures = "../../testdata/paper"

// TestReadSource checks that every subject's key locations and
// configurations are found in the fixture module.
func TestReadSource(t *testing.T) {
	dir, err := filepath.Abs(fixtures)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		subject  string
		locs     int
		smallest string
		largest  string
	}{
		{"TwoStage", 2, "TestTwoStage2_1", "TestTwoStage20_1"},
		{"Reorder", 2, "TestReorder2_1", "TestReorder20_1"},
		{"Wronglock", 3, "TestWronglock1_2", "TestWronglock1_20"},
		{"AbsList", 5, "TestAbsList1_2", "TestAbsList1_20"},
		{"Deadlock", 4, "TestDeadlock1_2", "TestDeadlock1_20"},
	} {
		t.Run(tc.subject, func(t *testing.T) {
			subs, err := pickSubjects(tc.subject)
			if err != nil {
				t.Fatal(err)
			}
			src, err := readSource(dir, subs[0])
			if err != nil {
				t.Fatal(err)
			}
			if len(src.Keys) != tc.locs {
				t.Errorf("%d key locations, want %d", len(src.Keys), tc.locs)
			}
			for i, k := range src.Keys {
				if !filepath.IsAbs(k.File) || k.Line <= 0 || k.Kind != "observe" {
					t.Errorf("key %d: %+v", i+1, k)
				}
			}
			if got := src.Configs[0].Test; got != tc.smallest {
				t.Errorf("smallest configuration %s, want %s", got, tc.smallest)
			}
			if got := src.Configs[len(src.Configs)-1].Test; got != tc.largest {
				t.Errorf("largest configuration %s, want %s", got, tc.largest)
			}
			if len(src.Prefer) != 1 {
				t.Errorf("prefer positions %q, want one", src.Prefer)
			}
		})
	}
}

// TestSmoke regenerates a one-row table: two trials of random search and
// of the meta strategy with the pfsm heuristic (sequence and distances
// from the key locations) on the smallest TwoStage configuration, whose
// bug both find.
func TestSmoke(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary")
	}
	out := filepath.Join(t.TempDir(), "BENCHMARKS.md")
	args := []string{"-trials", "2", "-subjects", "twostage", "-configs", "smallest", "-searches", "random,meta+pfsm", "-dir", fixtures, "-o", out}
	if err := run(context.Background(), args, io.Discard); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, want := range []string{
		"- Command: `go run ./cmd/paperbench " + strings.Join(args, " ") + "`",
		"| Subject | Locs | random | meta+pfsm |",
		"| TwoStage(2,1) | 2 | 1.00 | 1.00 |",
		"- Budget of a trial: 300 executions, 100000 steps in total",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("output lacks %q:\n%s", want, doc)
		}
	}
}

func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-subjects", "Nope", "-dir", fixtures}, `unknown subject "Nope"`},
		{[]string{"-searches", "dfs", "-dir", fixtures}, `unknown search "dfs"`},
		{[]string{"-dir", t.TempDir()}, "not the fixture module"},
		{[]string{"-trials", "0"}, "must be positive"},
		{[]string{"-subjects", "TwoStage", "-configs", "TestNope", "-dir", fixtures}, "no configuration matches"},
	} {
		err := run(context.Background(), tc.args, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one containing %q", tc.args, err, tc.want)
		}
	}
}
