package sequence_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/sequence"
)

// TestStepsObservedAtRunTime builds the races fixture with the steps of
// a race sequence as instrumented locations, runs its test under the
// controlled scheduler, and checks that the failing execution passes the
// observe steps and ends in the race between the two access steps.
func TestStepsObservedAtRunTime(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs an instrumented test binary")
	}
	f := load(t, "races")
	w := &warning.Warning{ID: "hits", Kind: warning.Race, Sites: []warning.Site{
		{Position: f.at("guard.go", 20, 3), Access: warning.AccessWrite, Object: "hits"},
		{Position: f.at("guard.go", 25, 9), Access: warning.AccessRead, Object: "hits"},
	}}
	seqs, err := sequence.Generate(w, f.prog, "TestServer")
	if err != nil {
		t.Fatal(err)
	}
	locs, idx := seqs[0].Indexed(nil)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin, err := runner.Build(ctx, runner.BuildOptions{Dir: f.dir, Package: ".", Locations: locs})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := bin.Close(); err != nil {
			t.Error(err)
		}
	}()
	res, err := bin.Run(ctx, "TestServer", runner.RunOptions{
		Config: rt.Config{Strategy: "random", Seed: 1, BudgetMillis: 20_000},
		Grace:  time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != "error" || res.Failure == nil || res.Failure.Kind != rt.FailRace {
		t.Fatalf("verdict %s, failure %+v; want a race", res.Verdict, res.Failure)
	}
	var observed []int
	for _, ev := range res.Trace {
		if ev.Op == "observe" {
			observed = append(observed, ev.Loc)
		}
	}
	for i, loc := range idx {
		if locs[loc].Kind == sequence.KindObserve && !slices.Contains(observed, loc) {
			t.Errorf("step %d (%s:%d) was not observed; observed locations %v", i, locs[loc].File, locs[loc].Line, observed)
		}
	}
}
