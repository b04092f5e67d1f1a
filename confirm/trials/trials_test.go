package trials_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/confirm/trials"
)

// TestRunBinary runs trials of random search on TwoStage(2,1), whose bug
// random search finds within a few dozen executions, and checks the
// summary against the trials' outcomes.
func TestRunBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary")
	}
	dir, err := filepath.Abs("../../testdata/paper")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	bin, err := runner.Build(ctx, runner.BuildOptions{Dir: dir, Package: "./twostage"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := bin.Close(); err != nil {
			t.Error(err)
		}
	})

	base := trials.Spec{
		Test:   "TestTwoStage2_1",
		Config: rt.Config{Strategy: "random", Seed: 40},
		Budget: trials.Budget{Executions: 2000},
		Expect: []string{rt.FailTest},
	}
	for _, tc := range []struct {
		name        string
		edit        func(*trials.Spec)
		n           int
		wantDensity float64
		wantOther   int
	}{
		{"finds", func(*trials.Spec) {}, 3, 1, 0},
		{"any error counts without expectation", func(s *trials.Spec) { s.Expect = nil }, 2, 1, 0},
		{"other kind is not the error", func(s *trials.Spec) { s.Expect = []string{rt.FailDeadlock} }, 2, 0, 2},
		{"step budget", func(s *trials.Spec) { s.Budget.Steps = 1 }, 2, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := base
			tc.edit(&spec)
			s, err := trials.RunBinary(ctx, bin, spec, tc.n)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Trials) != tc.n {
				t.Fatalf("%d trials, want %d", len(s.Trials), tc.n)
			}
			if s.Density != tc.wantDensity || s.Other != tc.wantOther {
				t.Errorf("density %v, other %d; want %v, %d", s.Density, s.Other, tc.wantDensity, tc.wantOther)
			}
			for i, tr := range s.Trials {
				if tr.Seed != spec.Config.Seed+int64(i) {
					t.Errorf("trial %d has seed %d, want %d", i, tr.Seed, spec.Config.Seed+int64(i))
				}
				if tr.Found && (tr.Verdict != rt.VerdictError || tr.Token == "") {
					t.Errorf("trial %d found the error with verdict %q, token %q", i, tr.Verdict, tr.Token)
				}
			}
			if s.Found > 0 {
				checkRange(t, "executions", s.Executions)
				checkRange(t, "steps", s.Steps)
				if s.Steps.Min < s.Executions.Min {
					t.Errorf("fewer steps (%d) than executions (%d)", s.Steps.Min, s.Executions.Min)
				}
			}
		})
	}

	// A trial is reproducible from its seed.
	one := base
	one.Config.Seed = 41
	a, err := trials.RunBinary(ctx, bin, one, 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := trials.RunBinary(ctx, bin, base, 2)
	if err != nil {
		t.Fatal(err)
	}
	if a.Trials[0].Steps != b.Trials[1].Steps || a.Trials[0].Executions != b.Trials[1].Executions {
		t.Errorf("seed 41 alone: %d executions, %d steps; as trial 1 of seed 40: %d, %d",
			a.Trials[0].Executions, a.Trials[0].Steps, b.Trials[1].Executions, b.Trials[1].Steps)
	}

	for _, bad := range []struct {
		name string
		spec trials.Spec
		n    int
		want string
	}{
		{"no trials", base, 0, "need at least 1"},
		{"unknown test", trials.Spec{Test: "TestNope", Config: base.Config}, 1, `no test "TestNope"`},
		{"unknown strategy", trials.Spec{Test: base.Test, Config: rt.Config{Strategy: "nope"}}, 2, "unknown strategy"},
	} {
		if _, err := trials.RunBinary(ctx, bin, bad.spec, bad.n); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: error %v, want one containing %q", bad.name, err, bad.want)
		}
	}
}

func checkRange(t *testing.T, what string, r trials.Range) {
	t.Helper()
	if r.Min <= 0 || float64(r.Min) > r.Avg || r.Avg > float64(r.Max) {
		t.Errorf("%s: min %d, avg %v, max %d: not ordered", what, r.Min, r.Avg, r.Max)
	}
}
