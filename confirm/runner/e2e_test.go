package runner_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
	"github.com/confirm-go/confirm/internal/longtest"
)

// fixtures are the end-to-end fixture modules of testdata/: each has a
// buggy package and its correct twin <pkg>fixed.
var fixtures = []struct {
	module, pkg string
	// kinds are the failure kinds that count as finding the bug.
	kinds []string
}{
	{"bank", "abba", []string{rt.FailDeadlock}},
	{"callback", "observer", []string{rt.FailDeadlock}},
	{"counter", "hits", []string{rt.FailRace, rt.FailTest}},
	{"wronglock", "pool", []string{rt.FailRace, rt.FailTest}},
	{"pipeline", "events", []string{rt.FailDeadlock}},
	{"worker", "stopper", []string{rt.FailPanic}},
	{"waitgroup", "sum", []string{rt.FailTest}},
	// Timers, a context deadline and math/rand in the racing code: the
	// virtual clock and the execution's seed make it replay exactly.
	{"timing", "warm", []string{rt.FailRace}},
}

// cleanExecs is how many executions a clean-shape search must run without
// a failure: n at evaluation size (CONFIRM_LONG=1), a tenth of it in the
// default test run.
func cleanExecs(n int) int {
	if longtest.Enabled() {
		return n
	}
	return n / 10
}

// replays is how many times each found token is replayed.
const replays = 10

func fixtureDir(t testing.TB, module string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", module))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func build(t testing.TB, module, pkg string, accesses bool) *runner.Binary {
	t.Helper()
	if testing.Short() {
		t.Skip("builds instrumented test binaries")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	bin, err := runner.Build(ctx, runner.BuildOptions{Dir: fixtureDir(t, module), Package: "./" + pkg, Accesses: accesses})
	if err != nil {
		t.Fatalf("Build(%s/%s): %v", module, pkg, err)
	}
	t.Cleanup(func() {
		if err := bin.Close(); err != nil {
			t.Error(err)
		}
	})
	return bin
}

func search(seed int64, budget time.Duration) runner.RunOptions {
	return runner.RunOptions{
		Config: rt.Config{Strategy: "random", Seed: seed, BudgetMillis: budget.Milliseconds()},
		Grace:  20 * time.Second,
	}
}

// TestFindAndReplay runs each buggy fixture under the random and the pct
// strategies with a small budget, requires the bug to be found, and replays
// each token repeatedly, requiring the identical verdict, failure and trace
// each time.
func TestFindAndReplay(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.module+"/"+fx.pkg, func(t *testing.T) {
			t.Parallel()
			bin := build(t, fx.module, fx.pkg, true)
			for _, strategy := range []string{"random", "pct"} {
				opts := search(1, 5*time.Second)
				opts.Config.Strategy = strategy
				findAndReplay(t, bin, opts, fx.kinds)
			}
		})
	}
}

func findAndReplay(t *testing.T, bin *runner.Binary, opts runner.RunOptions, kinds []string) {
	t.Helper()
	ctx := context.Background()
	strategy := opts.Config.Strategy
	results, err := bin.RunTests(ctx, bin.Tests, opts)
	if err != nil {
		t.Fatalf("%s: RunTests: %v", strategy, err)
	}
	found := results[len(results)-1]
	if found.Verdict != rt.VerdictError || found.Failure == nil {
		t.Fatalf("%s: verdict %q (%+v) after %d executions, want an error of kind %v", strategy, found.Verdict, found.Failure, found.Stats.Executions, kinds)
	}
	if !slices.Contains(kinds, found.Failure.Kind) {
		t.Errorf("%s: failure kind %q (%s), want one of %v", strategy, found.Failure.Kind, found.Failure.Message, kinds)
	}
	if len(found.Trace) == 0 || found.Token == "" {
		t.Fatalf("%s: no trace or token: %+v", strategy, found)
	}
	tok, err := runner.ParseToken(found.Token)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Test != found.Test || !tok.Accesses {
		t.Errorf("%s: token %+v does not name test %s with accesses", strategy, tok, found.Test)
	}
	for i := range replays {
		got, err := bin.Run(ctx, tok.Test, runner.RunOptions{
			Config:  rt.Config{Strategy: "replay", Replay: tok.Runtime},
			Timeout: time.Minute,
		})
		if err != nil {
			t.Fatalf("%s: replay %d: %v", strategy, i, err)
		}
		if diff := sameExecution(found, got); diff != "" {
			t.Fatalf("%s: replay %d differs from the execution that found the bug: %s", strategy, i, diff)
		}
	}
}

// sameExecution compares what a replay must reproduce exactly; it returns
// "" when a and b agree. Stacks are not compared: they hold addresses.
func sameExecution(a, b *runner.Result) string {
	switch {
	case a.Verdict != b.Verdict:
		return "verdict " + a.Verdict + " vs " + b.Verdict + " " + b.Divergence
	case a.Failure.Kind != b.Failure.Kind:
		return "failure kind " + a.Failure.Kind + " vs " + b.Failure.Kind
	case a.Failure.Message != b.Failure.Message:
		return "failure message\n" + a.Failure.Message + "\nvs\n" + b.Failure.Message
	case !reflect.DeepEqual(a.Trace, b.Trace):
		return "trace"
	case !reflect.DeepEqual(a.Goroutines, b.Goroutines):
		return "goroutines"
	}
	return ""
}

// TestCorrectTwinsClean runs each fixture's correct twin with a small
// budget and requires no error.
func TestCorrectTwinsClean(t *testing.T) {
	for _, fx := range fixtures {
		pkg := fx.pkg + "fixed"
		t.Run(fx.module+"/"+pkg, func(t *testing.T) {
			t.Parallel()
			bin := build(t, fx.module, pkg, true)
			results, err := bin.RunTests(context.Background(), bin.Tests, search(1, time.Second))
			if err != nil {
				t.Fatalf("RunTests: %v", err)
			}
			for _, res := range results {
				if res.Verdict != rt.VerdictNone {
					t.Errorf("%s: verdict %q: %+v", res.Test, res.Verdict, res.Failure)
				}
				if res.Stats.Executions < 10 {
					t.Errorf("%s: only %d executions in the budget", res.Test, res.Stats.Executions)
				}
			}
			truncatedRun(t, bin)
		})
	}
}

// truncatedRun bounds executions to a few steps: each one is cut off at
// the bound, which is no failure (not a "livelock"), and counted.
func truncatedRun(t *testing.T, bin *runner.Binary) {
	t.Helper()
	opts := search(1, 2*time.Second)
	opts.Config.MaxSteps = 6
	res, err := bin.Run(context.Background(), bin.Tests[0], opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != rt.VerdictNone || res.Stats.Truncated == 0 {
		t.Fatalf("with 6 steps: verdict %q, failure %+v, stats %+v; want executions cut off without a verdict", res.Verdict, res.Failure, res.Stats)
	}
}

// TestRunTests runs several tests of one package in parallel processes
// and checks that results come back in test order and that the first
// test with an error ends the suite.
func TestRunTests(t *testing.T) {
	t.Run("all clean", func(t *testing.T) {
		t.Parallel()
		bin := build(t, "bench", "wordcount", false)
		want := []string{"TestAdd", "TestConcurrentAdds", "TestTop", "TestEmpty"}
		if !slices.Equal(bin.Tests, want) {
			t.Fatalf("tests %v, want %v", bin.Tests, want)
		}
		// The execution bound is what ends each search; the wall budget
		// only guards against a hang, so it is generous (a loaded 2-core
		// machine ran out of a 2s budget after 19 executions).
		opts := search(1, time.Minute)
		opts.Config.MaxExecs = 20 // the two serial executions included
		results, err := bin.RunTests(context.Background(), bin.Tests, opts)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range results {
			got = append(got, r.Test)
			if r.Verdict != rt.VerdictNone || r.Stats.Executions != 20 {
				t.Errorf("%s: verdict %q after %d executions (%+v), want none after 20", r.Test, r.Verdict, r.Stats.Executions, r.Failure)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("results for %v, want %v", got, want)
		}
	})
	t.Run("stops at first error", func(t *testing.T) {
		t.Parallel()
		bin := build(t, "robust", "exits", false)
		results, err := bin.RunTests(context.Background(), []string{"TestStop", "TestStopInDependency"}, search(1, 2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if len(results) != 1 || results[0].Test != "TestStop" || results[0].Verdict != rt.VerdictError || results[0].Failure.Kind != rt.FailExit {
			t.Fatalf("results %+v, want only TestStop with an exit failure", results)
		}
	})
	t.Run("crash", func(t *testing.T) {
		t.Parallel()
		bin := build(t, "robust", "exits", false)
		res, err := bin.Run(context.Background(), "TestStopInDependency", search(1, 2*time.Second))
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != runner.VerdictCrashed || res.Failure == nil || res.Failure.Kind != runner.FailCrash ||
			!strings.Contains(res.Failure.Message, "exit status 3") || res.Token == "" {
			t.Fatalf("result %+v (failure %+v), want a crash with exit status 3 and a token", res, res.Failure)
		}
	})
	t.Run("hang", func(t *testing.T) {
		t.Parallel()
		bin := build(t, "robust", "hangs", false)
		opts := search(1, time.Second)
		opts.Grace = 2 * time.Second
		start := time.Now()
		_, err := bin.Run(context.Background(), "TestStore", opts)
		var hang *runner.HangError
		if !errors.As(err, &hang) || hang.Test != "TestStore" {
			t.Fatalf("Run = %v, want a HangError for TestStore", err)
		}
		if !strings.Contains(hang.Stacks, "lockbox.go:22") {
			t.Errorf("the stacks do not show where it hangs:\n%s", hang.Stacks)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("the hang was detected after %v, want about 3s", d)
		}
	})
}

// TestModuleWide: a spin lock over atomics in another package of the
// module orders the accesses it guards, because every package of the
// module the test links is instrumented: no race in testdata/spin/tally
// under hundreds of executions (thousands with CONFIRM_LONG=1); the race of tallybad, which forgets the
// lock on one side, is found.
func TestModuleWide(t *testing.T) {
	for _, strategy := range []string{"random", "pct"} {
		t.Run(strategy, func(t *testing.T) {
			t.Parallel()
			opts := search(1, time.Minute)
			execs := cleanExecs(3000)
			opts.Config.Strategy, opts.Config.MaxExecs = strategy, execs
			clean := build(t, "spin", "tally", true)
			res, err := clean.Run(context.Background(), "TestAddN", opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != rt.VerdictNone || res.Stats.Executions < execs {
				t.Errorf("tally: verdict %q (%+v) after %d executions, want none after %d", res.Verdict, res.Failure, res.Stats.Executions, execs)
			}
			racy := build(t, "spin", "tallybad", true)
			res, err = racy.Run(context.Background(), "TestAddN", opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != rt.VerdictError || res.Failure.Kind != rt.FailRace {
				t.Errorf("tallybad: verdict %q (%+v), want the race", res.Verdict, res.Failure)
			}
		})
	}
}

// TestHBShapes runs the happens-before shapes of testdata/hbshapes, which
// `go test -race` finds clean, 1,000 times each (10,000 with CONFIRM_LONG=1) under the random, pct and
// meta strategies (meta stops sooner when it has explored every schedule),
// and requires no race (an access recorded before the
// synchronization that orders it, or synchronization the runtime does not
// see, would report one); and finds the race of each racy twin.
func TestHBShapes(t *testing.T) {
	shapes := build(t, "hbshapes", "shapes", true)
	racy := build(t, "hbshapes", "racy", true)
	for _, strategy := range []string{"random", "pct", "meta"} {
		t.Run(strategy, func(t *testing.T) {
			t.Parallel()
			execs := cleanExecs(10000)
			for _, test := range shapes.Tests {
				opts := search(1, 2*time.Minute)
				opts.Config.Strategy, opts.Config.MaxExecs = strategy, execs
				res, err := shapes.Run(context.Background(), test, opts)
				if err != nil {
					t.Fatalf("%s: %v", test, err)
				}
				if res.Verdict != rt.VerdictNone || res.Serial != nil || res.Stats.Executions < execs && !res.Stats.Exhausted {
					t.Errorf("%s: verdict %q (%+v, serial %+v) after %d executions, want none after %d", test, res.Verdict, res.Failure, res.Serial, res.Stats.Executions, execs)
				}
			}
		})
	}
	t.Run("racy twins", func(t *testing.T) {
		t.Parallel()
		for _, test := range racy.Tests {
			res, err := racy.Run(context.Background(), test, search(1, 10*time.Second))
			if err != nil {
				t.Fatalf("%s: %v", test, err)
			}
			if res.Verdict != rt.VerdictError || res.Failure.Kind != rt.FailRace {
				t.Errorf("%s: verdict %q (%+v), want a race", test, res.Verdict, res.Failure)
			}
		}
	})
}
