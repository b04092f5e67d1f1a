package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/pipeline"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

func TestPrintText(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(wd, "abba", "abba.go")
	testFile := filepath.Join(wd, "abba", "abba_test.go")
	ev := func(step, g int, op string, obj int, kind, name, f string, line, choice int) runner.Event {
		return runner.Event{Event: rt.Event{Step: step, G: g, Op: op, Object: obj, ObjectKind: kind, File: f, Line: line, Choice: choice}, Name: name}
	}
	rep := &report{
		Package: "example.com/bank/abba",
		Arg:     "./abba",
		Tests:   []string{"TestTransfer"},
		Seed:    7,
		Stats:   rt.Stats{Executions: 3, Steps: 40, Seconds: 0.5},
		Result: &runner.Result{
			Package: "example.com/bank/abba",
			Test:    "TestTransfer",
			Verdict: rt.VerdictError,
			Failure: &rt.Failure{Kind: rt.FailDeadlock, Message: "wait-for cycle among lock waiters", Goroutines: []int{1, 2}},
			Trace: []runner.Event{
				ev(1, 0, "go", 0, "", "", testFile, 12, 1),
				ev(2, 0, "go", 0, "", "", testFile, 16, 2),
				ev(3, 1, "lock", 1, "mutex", "(*abba.Account).mu", file, 26, 0),
				ev(4, 2, "lock", 2, "mutex", "(*abba.Account).mu", file, 26, 0),
			},
			Goroutines: []rt.Goroutine{
				{ID: 0, Parent: -1},
				{ID: 1, Parent: 0, File: testFile, Line: 12, Func: "example.com/bank/abba.TestTransfer.func1"},
				{ID: 2, Parent: 0, File: testFile, Line: 16, Func: "example.com/bank/abba.TestTransfer.func2"},
			},
			Token: "c1.TestTransfer.races.v1.AAAA",
		},
	}
	var out bytes.Buffer
	err = rep.write(&out, false)
	var st *exitStatus
	if !errors.As(err, &st) || st.code != exitFound {
		t.Errorf("write returned %v, want exit status %d", err, exitFound)
	}
	got := out.String()
	for _, want := range []string{
		"confirm run: deadlock in TestTransfer of example.com/bank/abba",
		"    wait-for cycle among lock waiters",
		"goroutine 0: the test TestTransfer",
		"go -> goroutine 1",
		"abba/abba_test.go:12",
		"goroutine 1: spawned by goroutine 0 at abba/abba_test.go:12, runs abba.TestTransfer.func1  [involved in the failure]",
		"lock  (*abba.Account).mu [mutex #1]  abba/abba.go:26",
		"confirm replay -token c1.TestTransfer.races.v1.AAAA ./abba",
		"3 executions, 40 steps, 0.50s (seed 7)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Steps of one goroutine are listed together, in order.
	if i, j := strings.Index(got, "goroutine 1:"), strings.Index(got, "goroutine 2:"); i < 0 || j < i {
		t.Errorf("goroutines out of order:\n%s", got)
	}
	if t.Failed() {
		t.Logf("output:\n%s", got)
	}
}

func TestStatusOf(t *testing.T) {
	for verdict, want := range map[string]int{
		rt.VerdictNone:        exitClean,
		rt.VerdictError:       exitFound,
		runner.VerdictCrashed: exitFound,
		rt.VerdictStuck:       exitError,
		rt.VerdictDiverged:    exitError,
	} {
		code := exitClean
		var st *exitStatus
		if errors.As(statusOf(&runner.Result{Verdict: verdict}), &st) {
			code = st.code
		}
		if code != want {
			t.Errorf("status of verdict %q = %d, want %d", verdict, code, want)
		}
	}
}

// TestCheckStatus: a warning Confirm could not check (verdict error) makes
// the status 2 even when others were confirmed; a bug found makes it 1.
func TestCheckStatus(t *testing.T) {
	finding := func(verdict string) *pipeline.Finding { return &pipeline.Finding{Verdict: verdict} }
	tests := []struct {
		name string
		rep  *pipeline.Report
		want int
	}{
		{"nothing", &pipeline.Report{Findings: []*pipeline.Finding{finding(pipeline.Unconfirmed), finding(pipeline.NoTest)}}, exitClean},
		{"confirmed", &pipeline.Report{Findings: []*pipeline.Finding{finding(pipeline.Confirmed)}}, exitFound},
		{"bug found", &pipeline.Report{Findings: []*pipeline.Finding{finding(pipeline.Unconfirmed)}, Bugs: []*pipeline.Bug{{}}}, exitFound},
		{"instrumentation failed", &pipeline.Report{Findings: []*pipeline.Finding{finding(pipeline.Confirmed), finding(pipeline.Error)}}, exitError},
		{"build error", &pipeline.Report{PackageErrors: []pipeline.PackageError{{Package: "p"}}}, exitError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := exitClean
			var st *exitStatus
			if err := checkStatus(tt.rep); errors.As(err, &st) {
				got = st.code
			}
			if got != tt.want {
				t.Errorf("status %d, want %d", got, tt.want)
			}
		})
	}
}

// TestPrintTraceRepeats: steps a goroutine repeats in a row (a ticker's
// goroutine, a polling loop) are printed once, with how often they
// repeat; steps that differ (another object, a go to another goroutine)
// are not folded.
func TestPrintTraceRepeats(t *testing.T) {
	ev := func(step int, op string, obj, line int) runner.Event {
		return runner.Event{Event: rt.Event{Step: step, G: 1, Op: op, Object: obj, ObjectKind: "var", File: "/m/p.go", Line: line}}
	}
	var trace []runner.Event
	step := 1
	for range 5 { // a two-step loop, five times
		trace = append(trace, ev(step, "select", 1, 10), ev(step+1, "atomic", 2, 11))
		step += 2
	}
	trace = append(trace, ev(step, "atomic", 3, 11), ev(step+1, "atomic", 4, 11)) // other objects
	for range 4 {
		step++
		trace = append(trace, ev(step+1, "yield", 0, 20))
	}
	res := &runner.Result{Test: "TestX", Trace: trace, Goroutines: []rt.Goroutine{{ID: 1, Parent: 0}}}
	var out bytes.Buffer
	printTrace(&out, res, func(f string, l int) string { return filepath.Base(f) + ":" + strconv.Itoa(l) })
	got := out.String()
	for _, want := range []string{
		"the 2 steps above 4 times more (steps 3–10)",
		"the step above 3 times more (steps 14–16)",
		"[var #3]",
		"[var #4]",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("trace lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "select"); n != 1 {
		t.Errorf("the loop's select printed %d times, want once:\n%s", n, got)
	}
}

// TestShortFunc: function names lose their package path, and a major
// version suffix is not taken for the package name.
func TestShortFunc(t *testing.T) {
	for in, want := range map[string]string{
		"example.com/bank/abba.Transfer":                        "abba.Transfer",
		"github.com/panjf2000/ants/v2.(*Pool[...]).purge":       "ants.(*Pool[...]).purge",
		"github.com/panjf2000/ants/v2_test.TestPool.func1":      "ants_test.TestPool.func1",
		"github.com/x/y/v10.F":                                  "y.F",
		"github.com/x/v1.F":                                     "v1.F",
		"main.main":                                             "main.main",
		"github.com/jackc/puddle/v2.(*Pool[...]).Acquire.func1": "puddle.(*Pool[...]).Acquire.func1",
	} {
		if got := pipeline.ShortFunc(in); got != want {
			t.Errorf("ShortFunc(%q) = %q, want %q", in, got, want)
		}
	}
}
