package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/internal/longtest"
)

// pipelineTestdata is the pipeline's fixture modules, relative to this
// package's directory.
var pipelineTestdata = filepath.Join("..", "..", "confirm", "pipeline", "testdata")

// confirmIn runs the confirm binary in dir.
func confirmIn(t *testing.T, dir string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runConfirm(t, dir, nil, args...)
}

// finding is the part of the -json schema the tests read.
type finding struct {
	ID        string `json:"id"`
	Analyzer  string `json:"analyzer"`
	Kind      string `json:"kind"`
	Message   string `json:"message"`
	Posn      string `json:"posn"`
	Package   string `json:"package"`
	Test      string `json:"test"`
	Verdict   string `json:"verdict"`
	Cause     string `json:"cause"`
	Unreached []string
	Bugs      []string `json:"bugs"`
	FoundBy   []string `json:"foundBy"`
	Failure   *struct {
		Kind     string `json:"kind"`
		Accesses []struct {
			Label string `json:"label"`
		} `json:"accesses"`
	} `json:"failure"`
	Trace []struct {
		Step int    `json:"step"`
		G    int    `json:"g"`
		Op   string `json:"op"`
		Posn string `json:"posn"`
	} `json:"trace"`
	Sequence []struct {
		Posn string `json:"posn"`
		Kind string `json:"kind"`
	} `json:"sequence"`
	Replay      string `json:"replay"`
	Token       string `json:"token"`
	Synthesized *struct {
		Test   string `json:"test"`
		Source string `json:"source"`
	} `json:"synthesized"`
	Stats *struct {
		Executions  int `json:"executions"`
		Preemptions int `json:"preemptions"`
	} `json:"stats"`
	Trials *struct {
		N     int `json:"n"`
		Found int `json:"found"`
	} `json:"trials"`
	Notes []string `json:"notes"`
}

func parseFindings(t *testing.T, stdout string) []finding {
	t.Helper()
	var fs []finding
	if err := json.Unmarshal([]byte(stdout), &fs); err != nil {
		t.Fatalf("-json output does not parse: %v\n%s", err, stdout)
	}
	return fs
}

// TestCheckFixtures runs `confirm -json ./...` on fixture modules: their
// bugs are confirmed or found by exploration, their correct twins have
// neither, and every token replays to the same failure and trace.
func TestCheckFixtures(t *testing.T) {
	tests := []struct {
		module  string
		confirm []string // packages with a confirmed warning
		found   []string // packages where exploration finds a bug no analyzer flags
		// synthesized says the confirmations are by tests Confirm
		// wrote, whose source the finding shows.
		synthesized bool
		// long marks the modules whose capability another module of the
		// table shows too: run with CONFIRM_LONG=1 only.
		long bool
	}{
		{"bank", []string{"example.com/bank/abba"}, nil, false, false},
		{"counter", []string{"example.com/counter/hits"}, nil, false, false},
		{"callback", []string{"example.com/callback/observer"}, nil, false, true},
		{"wronglock", []string{"example.com/wronglock/pool"}, nil, false, true},
		// The bugs of these modules are beyond the analyzers: nothing may
		// be confirmed in them, twins included; exploration finds the
		// Wait before Add of waitgroup/sum.
		{"waitgroup", nil, []string{"example.com/waitgroup/sum"}, false, true},
		{"worker", nil, nil, false, true},
		// A race between two goroutines of a test function (test code is
		// instrumented), confirmed; a lost wakeup no analyzer flags, found
		// by exploration as a deadlock.
		{"explore", []string{"example.com/explore/tally"}, []string{"example.com/explore/latch"}, false, false},
		// Package counter has no tests; app's test, which uses it from two
		// goroutines, confirms counter's race (reported with app's test).
		{"crosspkg", []string{"example.com/crosspkg/app"}, nil, false, true},
		// No test of these packages calls two methods at once: the races
		// (generic code included) and the AB-BA cycle are confirmed with
		// synthesized tests.
		{"synth", []string{"example.com/synth/registry", "example.com/synth/store", "example.com/synth/accounts"}, nil, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.module, func(t *testing.T) {
			if tt.long {
				longtest.Skip(t, "a module whose capability the others show too")
			}
			t.Parallel()
			dir := filepath.Join("..", "..", "testdata", tt.module)
			stdout, stderr, code := confirmIn(t, dir, "-budget", "5s", "-seed", "1", "-json", "./...")
			fs := parseFindings(t, stdout)
			confirmed, found := make(map[string]bool), make(map[string]bool)
			for _, f := range fs {
				switch {
				case f.Verdict == "confirmed":
					confirmed[f.Package] = true
				case f.Kind == "bug":
					found[f.Package] = true
				default:
					continue
				}
				if strings.HasSuffix(f.Package, "fixed") {
					t.Errorf("correct twin %s: %s %s", f.Package, f.Verdict, f.Message)
				}
				if f.Verdict == "confirmed" && f.Stats != nil && f.Failure != nil && f.Failure.Kind == "deadlock" && f.Stats.Preemptions > 2 {
					t.Errorf("%s: the confirmed deadlock's trace has %d preemptions after shrinking, want at most 2", f.ID, f.Stats.Preemptions)
				}
				if f.Verdict == "confirmed" {
					switch h := f.Synthesized; {
					case tt.synthesized && (h == nil || h.Test != f.Test || !strings.Contains(h.Source, "func "+f.Test+"(t *testing.T)") || strings.Count(h.Source, "go func()") != 2):
						t.Errorf("%s: confirmed by %s, want a synthesized test with its source and two goroutines; got %+v", f.ID, f.Test, h)
					case !tt.synthesized && h != nil:
						t.Errorf("%s: confirmed with a synthesized test, but a test of the package shows it:\n%s", f.ID, h.Source)
					}
				}
				checkReplay(t, dir, f)
			}
			for _, pkg := range tt.confirm {
				if !confirmed[pkg] {
					t.Errorf("nothing confirmed in %s; findings:\n%s", pkg, stdout)
				}
			}
			for _, pkg := range tt.found {
				if !found[pkg] {
					t.Errorf("no bug found in %s; findings:\n%s", pkg, stdout)
				}
			}
			if want := map[bool]int{true: exitFound, false: exitClean}[len(confirmed)+len(found) > 0]; code != want {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, want, stderr)
			}
		})
	}
}

// checkReplay runs the replay command of a confirmed finding and compares
// the failure and the trace with the finding's.
func checkReplay(t *testing.T, dir string, f finding) {
	t.Helper()
	fields := strings.Fields(f.Replay)
	if len(fields) < 5 || fields[0] != "confirm" || fields[1] != "replay" || (fields[3] != f.Token && !strings.HasPrefix(fields[3], handlePrefix)) {
		t.Fatalf("replay command %q: want confirm replay -token %s <package> or its handle", f.Replay, f.Token)
	}
	if len(f.Token) > shortToken && len(fields[3]) > len(handlePrefix)+16 {
		t.Errorf("replay command %q prints a long token, not its handle", f.Replay)
	}
	// The printed command, with its handle, replays.
	stdout, stderr, code := confirmIn(t, dir, "replay", "-json", "-token", fields[3], fields[len(fields)-1])
	if code != exitFound {
		t.Fatalf("replay exit status %d, want %d; stderr:\n%s\nstdout:\n%s", code, exitFound, stderr, stdout)
	}
	var rep struct {
		Verdict string `json:"verdict"`
		Failure *struct {
			Kind string `json:"kind"`
		} `json:"failure"`
		Trace []struct {
			Step int    `json:"step"`
			G    int    `json:"g"`
			Op   string `json:"op"`
		} `json:"trace"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("replay -json: %v\n%s", err, stdout)
	}
	if rep.Verdict != "error" || rep.Failure == nil || f.Failure == nil || rep.Failure.Kind != f.Failure.Kind {
		t.Fatalf("replay verdict %s failure %+v, want the confirmed %+v", rep.Verdict, rep.Failure, f.Failure)
	}
	type step struct {
		Step, G int
		Op      string
	}
	var want, got []step
	for _, ev := range f.Trace {
		want = append(want, step{ev.Step, ev.G, ev.Op})
	}
	for _, ev := range rep.Trace {
		got = append(got, step{ev.Step, ev.G, ev.Op})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replayed trace differs:\n got %v\nwant %v", got, want)
	}
}

// TestCheckDemo runs the README example: text output with the
// diagnostics, verdicts, traces, replay commands (which replay) and the
// summary, with -C.
func TestCheckDemo(t *testing.T) {
	t.Parallel()
	demo := filepath.Join(pipelineTestdata, "demo")
	stdout, stderr, code := confirmIn(t, ".", "-C", demo, "-budget", "10s", "-seed", "1", "./...")
	if code != exitFound {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitFound, stderr)
	}
	for _, want := range []string{
		"bank/bank.go:26:14: lock-order cycle:",
		"hits/hits.go:23:2: possible data race:",
		"    Confirmed (test TestTransfer)",
		"    Confirmed (test TestRecord)",
		"    deadlock: wait-for cycle among lock waiters",
		"    race: data race:",
		"Trace (",
		"goroutine 1: spawned by goroutine 0 at bank/bank_test.go:12",
		"confirm: 2 warnings: 2 confirmed, 0 not confirmed, 0 without a test, 0 errors",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "ledger") {
		t.Errorf("output mentions the correct package ledger:\n%s", stdout)
	}
	// Shrunk: the AB-BA trace has at most the two preemptions it needs.
	m := regexp.MustCompile(`Trace \(\d+ steps, (\d+) preemptions?`).FindStringSubmatch(stdout)
	if m == nil {
		t.Errorf("no trace says its preemptions:\n%s", stdout)
	} else if n, _ := strconv.Atoi(m[1]); n > 2 {
		t.Errorf("the AB-BA trace has %d preemptions, want at most 2", n)
	}
	cmds := regexp.MustCompile(`(?m)^\s+confirm -C \S+ replay -token (\S+) (\S+)$`).FindAllStringSubmatch(stdout, -1)
	if len(cmds) != 2 {
		t.Fatalf("want 2 replay commands, got %d:\n%s", len(cmds), stdout)
	}
	for i, c := range cmds {
		// The shrunk AB-BA trace replays 3 times out of 3 (10 of 10
		// with CONFIRM_LONG; package runner replays every fixture's
		// token 10 times).
		n := 1
		switch {
		case i == 0 && longtest.Enabled():
			n = 10
		case i == 0:
			n = 3
		}
		for range n {
			out, errOut, code := confirmIn(t, ".", "-C", demo, "replay", "-token", c[1], c[2])
			if code != exitFound || !strings.Contains(out, "confirm replay: ") {
				t.Fatalf("replay %s: exit %d, want %d\n%s%s", c[2], code, exitFound, out, errOut)
			}
		}
	}
}

// TestCheckRobust checks that a package that does not compile, a test
// that hangs and a warning no test reaches do not lose the confirmed
// warning of another package, and that the status is 2; that a test that
// fails whatever the schedule, after passing a warning's sequence, does
// not confirm it; and that a warning no test reaches is confirmed with a
// synthesized test when exported functions reach it, and stays no-test,
// saying why, when none does.
func TestCheckRobust(t *testing.T) {
	stdout, stderr, code := confirmIn(t, filepath.Join(pipelineTestdata, "mixed"), "-budget", "3s", "-grace", "3s", "-seed", "1", "./...")
	if code != exitError {
		t.Errorf("exit status %d, want %d", code, exitError)
	}
	for _, want := range []string{
		"hits/hits.go:23:2: possible data race:",
		"    Confirmed (test TestRecord)",
		"    Error: hang: test TestPeek of example.com/mixed/stuck hangs",
		"    No test reaches it: no test of example.com/mixed/untested calls untested.forward, untested.backward (the tests of the warning's own package are used); no test can be synthesized: no exported function or method of example.com/mixed/untested reaches untested.",
		"untested/untested.go:14:8: lock-order cycle:",
		"    Confirmed with a synthesized test (TestConfirmSynth_",
		"\t\tForward()\n",
		"1 package could not be built",
		"resets/resets.go:26:2: possible data race:",
		// A harness must not call Free before the concurrent calls: the
		// second Free would hand the freed log to NewLog, a race its
		// callers never make.
		"    Not confirmed: TestFree starts no goroutine: it has a single schedule, which does not show this; TestFree fails without any interleaving (test-failure: resets_test.go:12: len = 0 after Free, want 1), so failures like it are no evidence; synthesized tests did not show it either (every schedule of TestConfirmSynth_",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if want := `broken/broken.go:5:28: cannot use "forty-two"`; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks the compiler's message %q:\n%s", want, stderr)
	}
}

// TestCheckVerbose: -v prints the instrumenter's notes on each package
// to stderr, the mutex that keeps its real sync type among them; -json
// has them on the package's finding, whose cause does not claim that
// every schedule was explored.
func TestCheckVerbose(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := confirmIn(t, filepath.Join(pipelineTestdata, "realsync"),
		"-v", "-json", "-budget", "3s", "-seed", "1", "-explore=false", "-synthesize=false", "./...")
	if code != 0 {
		t.Errorf("exit status %d, want 0; stderr:\n%s", code, stderr)
	}
	const note = "journal/journal.go:35:12: fileMu keeps its real sync type: it flows into code that needs the real type here; its operations are not scheduling points"
	if want := "confirm: example.com/realsync/journal: " + note + "\n"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	fs := parseFindings(t, stdout)
	if len(fs) != 1 || !slices.Contains(fs[0].Notes, note) || !strings.Contains(fs[0].Cause, "every schedule Confirm controls of TestMove") {
		t.Errorf("want one finding with the note and a cause that says not every operation is controlled:\n%s", stdout)
	}
}

// TestCheckNeighbours: two race warnings whose accesses sit side by side
// are each confirmed by the race on their own field; the neighbour's race,
// met first in the same execution, neither ends the search nor comes back
// as a bug found.
func TestCheckNeighbours(t *testing.T) {
	t.Parallel()
	stdout, stderr, code := confirmIn(t, filepath.Join("..", "..", "testdata", "neighbours"), "-budget", "5s", "-seed", "1", "-json", "./...")
	if code != exitFound {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitFound, stderr)
	}
	fs := parseFindings(t, stdout)
	if len(fs) != 2 {
		t.Fatalf("want 2 findings, got %d:\n%s", len(fs), stdout)
	}
	for _, f := range fs {
		field := "Hits"
		if strings.Contains(f.Message, "Misses") {
			field = "Misses"
		}
		if f.Kind != "race" || f.Verdict != "confirmed" || f.Failure == nil || len(f.Bugs) != 0 {
			t.Errorf("finding %+v, want a confirmed race with no bug found", f)
			continue
		}
		for _, a := range f.Failure.Accesses {
			if !strings.Contains(a.Label, field) {
				t.Errorf("the race on %s is confirmed by an access to %s", field, a.Label)
			}
		}
	}
}

// TestCheckSelfLocks: a double lock through a helper, a recursive read
// lock behind a waiting writer and a lock left held on an early return
// (testdata/selflock), each on a path that needs an interleaving, are
// confirmed as the warned kind, and each token replays.
func TestCheckSelfLocks(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "selflock")
	stdout, stderr, code := confirmIn(t, dir, "-budget", "10s", "-seed", "1", "-explore=false", "-json", "./...")
	if code != exitFound {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitFound, stderr)
	}
	fs := parseFindings(t, stdout)
	kinds := map[string]bool{}
	for _, f := range fs {
		kinds[f.Kind] = true
		if f.Verdict != "confirmed" || f.Failure == nil || f.Failure.Kind != "deadlock" {
			t.Errorf("%s: verdict %q failure %+v, want confirmed by a deadlock", f.Kind, f.Verdict, f.Failure)
			continue
		}
		fields := strings.Fields(f.Replay)
		out, errOut, rc := confirmIn(t, dir, "replay", "-token", f.Token, fields[len(fields)-1])
		if rc != exitFound || !strings.Contains(out, "deadlock") {
			t.Errorf("%s: replay exit %d:\n%s%s", f.Kind, rc, out, errOut)
		}
	}
	for _, k := range []string{"double-lock", "rwr-deadlock", "lock-leak", "lock-channel-deadlock"} {
		if !kinds[k] {
			t.Errorf("no %s warning among %v:\n%s", k, kinds, stdout)
		}
	}
}

// TestCheckSequence confirms user-given sequences: the AB-BA interleaving
// of testdata/bank (with -trials) and the Wait-before-Add interleaving of
// testdata/waitgroup, which no analyzer flags; the same sequence on the
// correct twin is not confirmed.
func TestCheckSequence(t *testing.T) {
	tests := []struct {
		module, seq, run string
		trials           int
		confirmed        bool
		first            string // posn of the first step
	}{
		{"bank", "abba/abba.go:26,abba/abba.go:26,abba/abba.go:28,abba/abba.go:28", "^TestTransfer$", 3, true, "abba/abba.go:26:2"},
		{"waitgroup", "sum/sum.go:20,sum/sum.go:37", "^TestBatch$", 1, true, "sum/sum.go:20:3"},
		{"waitgroup", "sumfixed/sumfixed.go:19,sumfixed/sumfixed.go:34", "^TestBatch$", 1, false, "sumfixed/sumfixed.go:19:3"},
	}
	for _, tt := range tests {
		t.Run(tt.seq, func(t *testing.T) {
			dir := filepath.Join("..", "..", "testdata", tt.module)
			stdout, stderr, code := confirmIn(t, dir, "-seq", tt.seq, "-run", tt.run,
				"-trials", strconv.Itoa(tt.trials), "-budget", "3s", "-seed", "1", "-json")
			want := map[bool]int{true: exitFound, false: exitClean}[tt.confirmed]
			if code != want {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, want, stderr)
			}
			fs := parseFindings(t, stdout)
			if len(fs) != 1 {
				t.Fatalf("want 1 finding, got %d:\n%s", len(fs), stdout)
			}
			f := fs[0]
			steps := len(strings.Split(tt.seq, ","))
			if f.Kind != "sequence" || len(f.Sequence) != steps || f.Sequence[0].Posn != tt.first {
				t.Errorf("finding %+v, want a sequence of %d steps from %s", f, steps, tt.first)
			}
			if !tt.confirmed {
				if f.Verdict != "unconfirmed" {
					t.Errorf("verdict %s, want unconfirmed", f.Verdict)
				}
				return
			}
			if f.Verdict != "confirmed" {
				t.Fatalf("verdict %s, want confirmed:\n%s", f.Verdict, stdout)
			}
			if tt.trials > 1 && (f.Trials == nil || f.Trials.N != tt.trials || f.Trials.Found < 1) {
				t.Errorf("trials %+v, want %d with at least one finding the error", f.Trials, tt.trials)
			}
			checkReplay(t, dir, f)
		})
	}
}

// TestCheckUsage checks the usage errors of the default command.
func TestCheckUsage(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "bank")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"bad strategy", []string{"-strategy", "dfs", "./..."}, `unknown -strategy "dfs"`},
		{"bad heuristic", []string{"-heuristic", "x", "./..."}, `unknown -heuristic "x"`},
		{"json and sarif", []string{"-json", "-sarif", "./..."}, "-json and -sarif exclude each other"},
		{"bad format", []string{"-format", "html", "./..."}, `unknown -format "html"`},
		{"markdown and json", []string{"-format", "markdown", "-json", "./..."}, "-format markdown excludes -json and -sarif"},
		{"run without seq", []string{"-run", "X", "./..."}, "-run selects the tests of a -seq sequence"},
		{"bad budget", []string{"-budget", "0s", "./..."}, "-budget must be positive"},
		{"bad trials", []string{"-trials", "0", "./..."}, "-trials must be at least 1"},
		{"missing -C dir", []string{"-C", "nosuchdir", "./..."}, "-C: chdir nosuchdir"},
		{"bad seq file", []string{"-seq", "nosuch.go:3", "-run", "X"}, "-seq:"},
		{"bad flag", []string{"-nope"}, "flag provided but not defined: -nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := confirmIn(t, dir, tt.args...)
			if code != exitError || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("exit status %d, stderr:\n%s\nwant %d and %q", code, stderr, exitError, tt.stderr)
			}
		})
	}
}

// TestCheckSARIF checks the structure of -sarif output: SARIF 2.1.0 with
// the confirmed trace as a codeFlow of one threadFlow per goroutine.
func TestCheckSARIF(t *testing.T) {
	t.Parallel()
	dir := filepath.Join("..", "..", "testdata", "bank")
	stdout, stderr, code := confirmIn(t, dir, "-seq", "abba/abba.go:26,abba/abba.go:26,abba/abba.go:28,abba/abba.go:28",
		"-run", "^TestTransfer$", "-budget", "5s", "-seed", "1", "-sarif")
	if code != exitFound {
		t.Errorf("exit status %d, want %d; stderr:\n%s", code, exitFound, stderr)
	}
	var log struct {
		Schema  string `json:"$schema"`
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name string `json:"name"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine int `json:"startLine"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				CodeFlows []struct {
					ThreadFlows []struct {
						ID        string `json:"id"`
						Locations []struct {
							ExecutionOrder int `json:"executionOrder"`
						} `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatalf("-sarif output does not parse: %v\n%s", err, stdout)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "confirm" {
		t.Fatalf("SARIF header wrong:\n%s", stdout)
	}
	res := log.Runs[0].Results
	if len(res) != 1 || res[0].Level != "error" || len(res[0].CodeFlows) != 1 {
		t.Fatalf("want one error result with a codeFlow:\n%s", stdout)
	}
	if loc := res[0].Locations; len(loc) != 1 || loc[0].PhysicalLocation.ArtifactLocation.URI != "abba/abba.go" ||
		loc[0].PhysicalLocation.ArtifactLocation.URIBaseID != "%SRCROOT%" || loc[0].PhysicalLocation.Region.StartLine != 26 {
		t.Errorf("result location %+v, want abba/abba.go line 26 under %%SRCROOT%%", loc)
	}
	flows := res[0].CodeFlows[0].ThreadFlows
	if len(flows) < 3 {
		t.Errorf("want a threadFlow per goroutine (test and two transfers), got %d", len(flows))
	}
	seen := make(map[int]bool)
	for _, tf := range flows {
		for _, l := range tf.Locations {
			if l.ExecutionOrder <= 0 || seen[l.ExecutionOrder] {
				t.Errorf("threadFlow %s: executionOrder %d is not a fresh step", tf.ID, l.ExecutionOrder)
			}
			seen[l.ExecutionOrder] = true
		}
	}
}

// TestCheckMarkdown checks -format markdown on the demo: a section per
// confirmed warning with a Mermaid sequence diagram of its interleaving
// (one participant per goroutine involved, the blocked locks as arrows to
// their holders, the failure highlighted) and its replay command.
func TestCheckMarkdown(t *testing.T) {
	t.Parallel()
	demo := filepath.Join(pipelineTestdata, "demo")
	// One run writes both reports: -html is written beside -format's.
	page := filepath.Join(t.TempDir(), "report.html")
	stdout, stderr, code := confirmIn(t, demo, "-budget", "10s", "-seed", "1", "-explore=false", "-format", "markdown", "-html", page, "./...")
	if code != exitFound {
		t.Fatalf("exit status %d, want %d; stderr:\n%s", code, exitFound, stderr)
	}
	t.Run("html", func(t *testing.T) { checkHTML(t, page) })
	sections := strings.Split(stdout, "\n### ")
	if len(sections) != 3 {
		t.Fatalf("want a header and 2 sections, got %d:\n%s", len(sections), stdout)
	}
	for _, sec := range sections[1:] {
		for _, want := range []string{"```mermaid\nsequenceDiagram\n", "    participant G1 as goroutine 1", "    participant G2 as goroutine 2", "    rect rgb(", "Replay: `confirm replay -token "} {
			if !strings.Contains(sec, want) {
				t.Errorf("section lacks %q:\n%s", want, sec)
			}
		}
		if strings.Contains(sec, "participant G3") {
			t.Errorf("a goroutine not involved in the failure is a participant:\n%s", sec)
		}
	}
	deadlock := sections[1]
	if !strings.HasPrefix(deadlock, "lock-order-cycle") || !strings.Contains(deadlock, "G1-->>G2: blocked: lock") || !strings.Contains(deadlock, "G2-->>G1: blocked: lock") {
		t.Errorf("the AB-BA section does not show the two goroutines waiting for each other:\n%s", deadlock)
	}
	if race := sections[2]; !strings.HasPrefix(race, "race") || !strings.Contains(race, "Note over G1,G2: race: data race") {
		t.Errorf("the race section does not highlight the race:\n%s", race)
	}
}

// checkHTML checks the -html page of the demo: a self-contained page with a
// swimlane view per confirmed warning (a column per goroutine involved,
// steps linked to their source, the failure marked), rendered in headless
// Chromium (Debian's package; the test is skipped without it): the
// screenshot is a non-empty image and the rendered DOM has the lanes.
func checkHTML(t *testing.T, page string) {
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	src := string(data)
	for what, want := range map[string]int{`class="lanes"`: 2, `class="lane-head"`: 4, `class="step fail"`: 2, `class="step blocked"`: 2} {
		if got := strings.Count(src, what); got != want {
			t.Errorf("the page has %d %s, want %d", got, what, want)
		}
	}
	if !strings.Contains(src, `href="file:///`) || strings.Contains(src, "http://") || strings.Contains(src, "https://") || strings.Contains(src, "<script") {
		t.Errorf("the page is not self-contained with steps linked to their files:\n%s", src)
	}
	chromium, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("rendering the page needs Debian's chromium (apt-get install chromium)")
	}
	dir := t.TempDir()
	browse := func(args ...string) []byte {
		t.Helper()
		args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1200,1000"}, args...)
		cmd := exec.Command(chromium, append(args, "file://"+page)...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("chromium %s: %v", strings.Join(args, " "), err)
		}
		return out.Bytes()
	}
	dom := string(browse("--dump-dom"))
	if got := strings.Count(dom, `class="lane-head"`); got != 4 {
		t.Errorf("the rendered DOM has %d lane heads, want 4 (two goroutines per finding)", got)
	}
	shot := filepath.Join(dir, "report.png")
	browse("--screenshot=" + shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot is no PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 600 {
		t.Errorf("screenshot %v", b)
	}
	// Not blank: the page draws lanes in several colours.
	colours := map[[3]uint32]bool{}
	for y := img.Bounds().Min.Y; y < img.Bounds().Max.Y; y += 7 {
		for x := img.Bounds().Min.X; x < img.Bounds().Max.X; x += 7 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
		}
	}
	if len(colours) < 5 {
		t.Errorf("the screenshot has %d colours: blank", len(colours))
	}
}
