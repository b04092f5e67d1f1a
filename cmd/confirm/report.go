package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/confirm-go/confirm/confirm/pipeline"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// A report is what confirm run and confirm replay print.
type report struct {
	Package string   // import path
	Arg     string   // the package argument as given
	Tests   []string // the tests run
	Seed    int64    // seed of the search (0 for a replay)
	Replay  bool     // whether this is a replay
	Stats   rt.Stats // over all tests
	Wall    time.Duration
	// Result is the result of the test that stopped the run; nil when
	// no error was found.
	Result *runner.Result
	// Notes say which tests fail without any interleaving or cannot run
	// twice in one process.
	Notes []string
}

// jsonReport is the JSON form of a report: the runner's Result (package,
// test, verdict, failure, trace, goroutines, token, divergence, stats,
// output) plus the run's context.
type jsonReport struct {
	*runner.Result
	// Tests are the tests that were run.
	Tests []string `json:"tests"`
	// Seed is the seed of the search (absent for a replay).
	Seed int64 `json:"seed,omitempty"`
	// ReplayCommand is the command line that replays Token.
	ReplayCommand string `json:"replayCommand,omitempty"`
	// Error explains verdict "hung".
	Error string `json:"error,omitempty"`
	// Notes say which tests fail without any interleaving or cannot run
	// twice in one process (their failures are no concurrency bugs).
	Notes []string `json:"notes,omitempty"`
}

// write writes the report and returns the command's exit status as an
// error (nil for status 0).
func (r *report) write(w io.Writer, asJSON bool) error {
	res := r.Result
	if res == nil {
		res = &runner.Result{Package: r.Package, Verdict: rt.VerdictNone, Stats: r.Stats}
		if len(r.Tests) == 1 {
			res.Test = r.Tests[0]
		}
	}
	res.Stats = r.Stats
	if asJSON {
		if err := writeJSON(w, jsonReport{Result: res, Tests: r.Tests, Seed: r.Seed, ReplayCommand: r.replayCommand(res), Notes: r.Notes}); err != nil {
			return err
		}
	} else {
		r.printText(w, res)
	}
	return statusOf(res)
}

// statusOf maps a verdict to the exit status.
func statusOf(res *runner.Result) error {
	switch res.Verdict {
	case rt.VerdictNone, rt.VerdictUnrepeatable:
		return nil
	case rt.VerdictError, runner.VerdictCrashed:
		return &exitStatus{exitFound}
	default: // stuck, diverged
		return &exitStatus{exitError}
	}
}

func (r *report) replayCommand(res *runner.Result) string {
	if res.Token == "" || res.Verdict == rt.VerdictDiverged {
		return ""
	}
	return fmt.Sprintf("confirm replay -token %s %s", newHandles().short(res.Token), r.Arg)
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// printText writes the human form of the report.
func (r *report) printText(w io.Writer, res *runner.Result) {
	wd, _ := os.Getwd()
	rel := func(file string, line int) string { return relPos(wd, file, line) }
	what := "confirm run"
	if r.Replay {
		what = "confirm replay"
	}
	switch res.Verdict {
	case rt.VerdictNone, rt.VerdictUnrepeatable:
		printf(w, "%s: no concurrency bug found in %s (%s)\n", what, r.Package, strings.Join(r.Tests, ", "))
		for _, n := range r.Notes {
			printf(w, "note: %s\n", relPaths(n, wd))
		}
	case rt.VerdictDiverged:
		printf(w, "%s: %s of %s: the replay diverged from its token: %s\n", what, res.Test, r.Package, res.Divergence)
		if !strings.Contains(res.Divergence, rt.UncontrolledCause) {
			printf(w, "(the code changed since the token was made, or the test depends on something the schedule does not fix, such as state left by other tests or the real time)\n")
		}
	default:
		kind := res.Verdict
		if res.Failure != nil {
			kind = res.Failure.Kind
		}
		printf(w, "%s: %s in %s of %s\n", what, kind, res.Test, r.Package)
	}
	if f := res.Failure; f != nil {
		printf(w, "\n%s\n", indent(relPaths(f.Message, wd), "    "))
		if f.Stack != "" {
			printf(w, "\n%s\n", indent(relPaths(lastLines(f.Stack, 60), wd), "    "))
		}
	}
	if len(res.Trace) > 0 {
		printf(w, "\nTrace (%s), goroutine by goroutine:\n", plural(len(res.Trace), "step"))
		printTrace(w, res, rel)
	}
	if cmd := r.replayCommand(res); cmd != "" {
		printf(w, "\nReplay:\n    %s\n", cmd)
	}
	printf(w, "\n%s\n", r.statsLine())
	if n := r.Stats.ForeignOps; n > 0 {
		printf(w, "%s\n", foreignNote(n))
	}
}

// foreignNote says that operations ran outside control.
func foreignNote(n int64) string {
	return fmt.Sprintf("note: %s ran in goroutines confirm does not control (started by code it does not rewrite, such as a testing/synctest bubble or a net/http server); they ran unscheduled, so their interleavings were not explored",
		plural(int(n), "operation"))
}

func (r *report) statsLine() string {
	s := fmt.Sprintf("%s, %s, %.2fs", plural(r.Stats.Executions, "execution"), plural(int(r.Stats.Steps), "step"), r.Stats.Seconds)
	if r.Seed != 0 {
		s += fmt.Sprintf(" (seed %d)", r.Seed)
	}
	return s + fmt.Sprintf("; %.1fs with the build", r.Wall.Seconds())
}

// printTrace lists the trace's steps grouped by goroutine, in the order
// the goroutines were created.
func printTrace(w io.Writer, res *runner.Result, rel func(string, int) string) {
	byG := make(map[int][]runner.Event)
	for _, ev := range res.Trace {
		byG[ev.G] = append(byG[ev.G], ev)
	}
	gs := res.Goroutines
	if len(gs) == 0 { // older runtimes: derive the goroutines from the trace
		seen := make(map[int]bool)
		for _, ev := range res.Trace {
			if !seen[ev.G] {
				seen[ev.G] = true
				gs = append(gs, rt.Goroutine{ID: ev.G, Parent: -1})
			}
		}
	}
	involved := make(map[int]bool)
	if res.Failure != nil {
		for _, g := range res.Failure.Goroutines {
			involved[g] = true
		}
	}
	// The goroutines involved and those that started them are printed;
	// the rest gets one line.
	keep := make(map[int]bool)
	parent := make(map[int]int)
	for _, g := range gs {
		parent[g.ID] = g.Parent
	}
	for id := range involved {
		for g, n := id, 0; g >= 0 && !keep[g] && n <= len(gs); g, n = parent[g], n+1 {
			keep[g] = true
			if _, ok := parent[g]; !ok {
				break
			}
		}
	}
	var others []string
	otherSteps := 0
	for _, g := range gs {
		if len(involved) > 0 && !keep[g.ID] {
			others = append(others, strconv.Itoa(g.ID))
			otherSteps += len(byG[g.ID])
			continue
		}
		printf(w, "\n  %s\n", goroutineHeader(g, res.Test, involved[g.ID], rel))
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		evs := byG[g.ID]
		for i := 0; i < len(evs); {
			k, n := repeated(evs, i)
			for _, ev := range evs[i : i+k] {
				printf(tw, "    %d\t%s\t%s\t%s\n", ev.Step, opText(ev), objectText(ev), rel(ev.File, ev.Line))
			}
			if n > 1 {
				what := "step"
				if k > 1 {
					what = fmt.Sprintf("%d steps", k)
				}
				printf(tw, "    …\t\t\tthe %s above %s more (steps %d–%d)\n", what, plural(n-1, "time"), evs[i+k].Step, evs[i+k*n-1].Step)
			}
			i += k * n
		}
		_ = tw.Flush() // the writes it flushes are unchecked as well
	}
	if len(others) > 0 {
		printf(w, "\n  %s (%s), %s: not involved in the failure (-json has their steps)\n",
			plural(len(others), "other goroutine"), strings.Join(others, ", "), plural(otherSteps, "step"))
	}
}

// minRepeats is how many times in a row a goroutine must do the same
// steps for the trace to print them once (a loop polling, a ticker's
// goroutine ticking).
const minRepeats = 3

// repeated finds the block of at most 8 steps at evs[i:] that the
// goroutine repeats, the same operations on the same objects at the same
// positions, at least minRepeats times in a row; it returns the block's
// length and the number of repetitions, or 1, 1.
func repeated(evs []runner.Event, i int) (k, n int) {
	same := func(a, b runner.Event) bool {
		return a.Op == b.Op && a.Choice == b.Choice && a.Object == b.Object && a.Name == b.Name &&
			a.File == b.File && a.Line == b.Line
	}
	for size := 1; size <= 8 && i+size*minRepeats <= len(evs); size++ {
		reps := 1
	blocks:
		for j := i + size; j+size <= len(evs); j += size {
			for d := range size {
				if !same(evs[i+d], evs[j+d]) {
					break blocks
				}
			}
			reps++
		}
		if reps >= minRepeats {
			return size, reps
		}
	}
	return 1, 1
}

func goroutineHeader(g rt.Goroutine, test string, involved bool, rel func(string, int) string) string {
	var b strings.Builder
	printf(&b, "goroutine %d", g.ID)
	switch {
	case g.ID == 0:
		printf(&b, ": the test %s", test)
	case g.File != "":
		printf(&b, ": spawned by goroutine %d at %s", g.Parent, rel(g.File, g.Line))
	case g.Parent >= 0:
		printf(&b, ": spawned by goroutine %d", g.Parent)
	}
	if g.Func != "" && g.ID != 0 {
		printf(&b, ", runs %s", pipeline.ShortFunc(g.Func))
	}
	if involved {
		b.WriteString("  [involved in the failure]")
	}
	return b.String()
}

// opText is the operation of ev with its choice.
func opText(ev runner.Event) string {
	switch ev.Op {
	case "go":
		return fmt.Sprintf("go -> goroutine %d", ev.Choice)
	case "select":
		if ev.Choice < 0 {
			return "select default"
		}
		return fmt.Sprintf("select case %d", ev.Choice)
	}
	return ev.Op
}

// objectText names the object of ev.
func objectText(ev runner.Event) string {
	var parts []string
	if ev.Name != "" {
		parts = append(parts, ev.Name)
	}
	if ev.Object != 0 {
		kind := ev.ObjectKind
		if kind == "" {
			kind = "object"
		}
		parts = append(parts, fmt.Sprintf("[%s #%d]", kind, ev.Object))
	}
	return strings.Join(parts, " ")
}

// relPos returns file:line relative to the working directory when the file
// is below it.
func relPos(wd, file string, line int) string {
	if file == "" {
		return ""
	}
	if wd != "" && filepath.IsAbs(file) {
		if r, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(r, "..") {
			file = r
		}
	}
	return fmt.Sprintf("%s:%d", file, line)
}

// relPaths shortens the absolute paths below wd in s to relative ones.
func relPaths(s, wd string) string {
	if wd == "" || wd == string(filepath.Separator) {
		return s
	}
	return strings.ReplaceAll(s, wd+string(filepath.Separator), "")
}

// plural returns "1 thing" or "n things".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func indent(s, prefix string) string {
	s = strings.TrimRight(s, "\n")
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) <= n {
		return strings.Join(lines, "\n")
	}
	return "...\n" + strings.Join(lines[len(lines)-n:], "\n")
}
