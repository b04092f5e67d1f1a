package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/confirm-go/confirm/confirm/pipeline"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

const checkUsage = `Confirm flags possible concurrency bugs in Go packages (lock-order cycles,
double locking, recursive read locks, lock leaks, data races) and confirms
each one by driving the package's own tests into the failure under a
controlled scheduler.

Usage:

	confirm [-C dir] [flags] [packages]
	confirm [-C dir] -seq file.go:LINE,file.go:LINE,... -run regexp [flags]

Every warning gets a verdict: confirmed (its own kind of failure on its
own sites, with the interleaving, goroutine by goroutine, and a replay
command), not confirmed (the budget was spent, or no test could show it;
this never means the code is safe), no-test (no test reaches it) or
error (the package does not build or instrument, the test hangs or
crashes). Any other concurrency failure a search finds on the way is a
bug found, reported with its own interleaving and replay command.

Exit status: 0 nothing confirmed or found, 1 at least one warning
confirmed or bug found, 2 usage error, or a package or warning Confirm
could not check (its verdict is error).

Run 'confirm -h' for the flags.
`

// checkFlags are the flags of the default command.
type checkFlags struct {
	budget         time.Duration
	strategy       string
	heuristic      string
	backtrackBound int
	seed           int64
	parallel       int
	trials         int
	maxSteps       int
	grace          time.Duration
	seq            string
	run            string
	json           bool
	sarif          bool
	format         string
	html           string
	tags           string
	leaks          bool
	explore        bool
	exploreBudget  time.Duration
	synthesize     bool
	verbose        bool
}

func (f *checkFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&f.budget, "budget", 30*time.Second, "wall-time `budget` of the search of each warning")
	fs.StringVar(&f.strategy, "strategy", pipeline.DefaultStrategy, "search `strategy`: meta, random or pct")
	fs.StringVar(&f.heuristic, "heuristic", "pfsm", "secondary `heuristic` of the meta strategy: pfsm, random or prefer")
	fs.IntVar(&f.backtrackBound, "backtrack-bound", 100000, "bound `N` of the meta strategy's backtrack set")
	fs.Int64Var(&f.seed, "seed", 0, "`seed` of the searches; 0 picks one (printed in the summary)")
	fs.IntVar(&f.parallel, "p", 0, "at most `N` builds or test processes at a time (0: GOMAXPROCS)")
	fs.IntVar(&f.trials, "trials", 1, "run `N` independent seeded searches per warning and report the error density")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "at most `N` scheduling points per execution (0: the runtime's default)")
	fs.DurationVar(&f.grace, "grace", runner.DefaultGrace, "wall time a test process gets beyond its budget before it is killed as hung")
	fs.StringVar(&f.seq, "seq", "", "confirm a user-given `sequence` file.go:LINE[:COL],... (relative to the working directory) instead of the analyzers' warnings")
	fs.StringVar(&f.run, "run", "", "with -seq: run the tests matching `regexp`")
	fs.BoolVar(&f.json, "json", false, "print the findings as a JSON array")
	fs.BoolVar(&f.sarif, "sarif", false, "print the findings as SARIF 2.1.0")
	fs.StringVar(&f.html, "html", "", "also write the report as a self-contained HTML page with the interleavings as swimlanes to `file`")
	fs.StringVar(&f.format, "format", "text", "output `format`: text, or markdown for a code-review comment (Mermaid sequence diagrams of the interleavings)")
	fs.StringVar(&f.tags, "tags", "", "comma-separated build `tags`")
	fs.BoolVar(&f.leaks, "leaks", true, "report goroutines left blocked, with nothing that could wake them, when a test returns")
	fs.BoolVar(&f.explore, "explore", true, "also run every test of the packages undirected and report the concurrency bugs found")
	fs.DurationVar(&f.exploreBudget, "explore-budget", 5*time.Second, "wall-time `budget` of the exploration of each package, shared by its tests")
	fs.BoolVar(&f.synthesize, "synthesize", true, "for a race or lock-order warning no test confirms, write a test that calls its two sides from two goroutines and confirm it with that")
	fs.BoolVar(&f.verbose, "v", false, "print to stderr the instrumenter's notes on each package: what it left as it is (such as a mutex that keeps its real type), and why")
}

// checkCmd implements the default command: analyze, sequence, confirm.
func checkCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f checkFlags
	fs := flag.NewFlagSet("confirm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		printString(stderr, checkUsage)
		printf(stderr, "\nFlags:\n")
		fs.PrintDefaults()
		printf(stderr, "\nOther commands:\n\n\tconfirm run ...     run one package's tests under control (confirm run -h)\n\tconfirm replay ...  replay a token (confirm replay -h)\n")
	}
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitStatus{exitError}
	}
	if err := f.check(fs); err != nil {
		printf(stderr, "confirm: %v\n", err)
		return &exitStatus{exitError}
	}
	opts := pipeline.Options{
		Patterns:       fs.Args(),
		Strategy:       f.strategy,
		Heuristic:      f.heuristic,
		BacktrackBound: f.backtrackBound,
		Seed:           f.seed,
		Budget:         f.budget,
		MaxSteps:       f.maxSteps,
		Grace:          f.grace,
		Parallel:       f.parallel,
		Trials:         f.trials,
		Seq:            f.seq,
		Run:            f.run,
		NoLeaks:        !f.leaks,
		Explore:        f.explore && f.seq == "",
		ExploreBudget:  f.exploreBudget,
		Synthesize:     f.synthesize && f.seq == "",
	}
	if f.tags != "" {
		opts.BuildFlags = []string{"-tags=" + f.tags}
	}
	if isTerminal(stderr) && !f.json && !f.sarif && f.format == "text" {
		opts.Progress = func(done, total int) {
			printf(stderr, "\rconfirm: %d/%d warnings decided", done, total)
			if done == total {
				printf(stderr, "\r\033[K")
			}
		}
	}
	rep, err := pipeline.Run(ctx, opts)
	if err != nil {
		printf(stderr, "confirm: %v\n", err)
		return &exitStatus{exitError}
	}
	wd, _ := os.Getwd()
	r := pipeline.Renderer{WD: wd, Command: commandName(ctx), Handle: newHandles().short}
	if f.verbose {
		for _, n := range rep.Notes {
			printf(stderr, "confirm: %s: %s\n", n.Package, r.Text(n.Message))
		}
	}
	for _, e := range rep.PackageErrors {
		printf(stderr, "confirm: package %s:\n%s\n", e.Package, indent(r.Text(e.Message), "\t"))
	}
	if f.html != "" {
		if err := os.WriteFile(f.html, []byte(r.HTML(rep)), 0o644); err != nil {
			printf(stderr, "confirm: -html: %v\n", err)
			return &exitStatus{exitError}
		}
	}
	switch {
	case f.json:
		if err := writeJSON(stdout, r.JSON(rep)); err != nil {
			return err
		}
	case f.sarif:
		if err := writeJSON(stdout, r.SARIF(rep)); err != nil {
			return err
		}
	case f.format == "markdown":
		printString(stdout, r.Markdown(rep))
	default:
		printCheckText(stdout, r, rep)
	}
	return checkStatus(rep)
}

func (f *checkFlags) check(fs *flag.FlagSet) error {
	switch {
	case f.json && f.sarif:
		return errors.New("-json and -sarif exclude each other")
	case f.format != "text" && f.format != "markdown":
		return fmt.Errorf("unknown -format %q (want text or markdown)", f.format)
	case f.format != "text" && (f.json || f.sarif):
		return fmt.Errorf("-format %s excludes -json and -sarif", f.format)
	case f.budget <= 0:
		return fmt.Errorf("-budget must be positive, got %v", f.budget)
	case f.trials < 1:
		return fmt.Errorf("-trials must be at least 1, got %d", f.trials)
	case f.backtrackBound < 1:
		return fmt.Errorf("-backtrack-bound must be positive, got %d", f.backtrackBound)
	case f.run != "" && f.seq == "":
		return errors.New("-run selects the tests of a -seq sequence; without -seq the tests are selected per warning")
	case f.seq != "" && fs.NArg() > 0:
		return fmt.Errorf("-seq names its package through its files; got package arguments too: %s", strings.Join(fs.Args(), " "))
	}
	switch f.strategy {
	case "meta", "random", "pct":
	default:
		return fmt.Errorf("unknown -strategy %q (want meta, random or pct)", f.strategy)
	}
	switch f.heuristic {
	case "pfsm", "random", "prefer":
	default:
		return fmt.Errorf("unknown -heuristic %q (want pfsm, random or prefer)", f.heuristic)
	}
	return nil
}

// checkStatus is the exit status of a report: 2 when a package did not
// build or a warning could not be checked (verdict error: a check that
// passes because the tool failed would be the worst kind of green), else
// 1 when a warning was confirmed or a bug found, else 0.
func checkStatus(rep *pipeline.Report) error {
	c := rep.Counts()
	if len(rep.PackageErrors) > 0 || c[pipeline.Error] > 0 {
		return &exitStatus{exitError}
	}
	if c[pipeline.Confirmed] > 0 || len(rep.Bugs) > 0 {
		return &exitStatus{exitFound}
	}
	return nil
}

// printCheckText writes the human report: per finding the diagnostic as
// go vet prints it, the verdict, and for a failure found its trace,
// replay command and statistics; then a summary line.
func printCheckText(w io.Writer, r pipeline.Renderer, rep *pipeline.Report) {
	for i, f := range rep.Findings {
		if i > 0 {
			printf(w, "\n")
		}
		printFinding(w, r, f)
	}
	for i, b := range rep.Bugs {
		if i > 0 || len(rep.Findings) > 0 {
			printf(w, "\n")
		}
		printBug(w, r, b)
	}
	if len(rep.Findings)+len(rep.Bugs) > 0 {
		printf(w, "\n")
	}
	printf(w, "%s\n", summaryLine(rep))
}

// printBug writes a bug found on the way: where and what, the warnings
// whose searches found it, its failure, trace and replay command.
func printBug(w io.Writer, r pipeline.Renderer, b *pipeline.Bug) {
	posn := pipeline.BugPosn(b)
	if posn != "" {
		posn = r.Text(posn) + ": "
	}
	printf(w, "%s%s [%s]\n", posn, r.Text(pipeline.BugMessage(b)), pipeline.BugID(b.Signature))
	printf(w, "    %s\n", foundByText(b))
	printFailure(w, r, b.Result, r.Replay(b.Token, b.PackageArg))
}

func printFinding(w io.Writer, r pipeline.Renderer, f *pipeline.Finding) {
	wn := f.Warning
	posn := ""
	if len(wn.Sites) > 0 {
		p := wn.Sites[0].Position
		posn = r.Posn(p.Filename, p.Line, p.Column) + ": "
	}
	printf(w, "%s%s (%s)\n", posn, r.Text(wn.Message), wn.Analyzer)
	for _, s := range wn.Related() {
		printf(w, "\t%s: %s\n", r.Posn(s.Position.Filename, s.Position.Line, s.Position.Column), s.Role)
	}
	verdict := strings.ToUpper(pipeline.VerdictText(f)[:1]) + pipeline.VerdictText(f)[1:]
	switch {
	case f.Verdict == pipeline.NoTest && f.Cause != "":
		verdict += ": " + f.Cause
	case f.Verdict == pipeline.Unconfirmed && f.Cause != "":
		verdict += ": " + f.Cause
	case f.Synthesized != nil:
		verdict += " (" + f.Test + ", written by Confirm because no test of the package runs both sides at once; it exists only in the build overlay)"
	case f.Test != "" && f.Verdict != pipeline.NoTest:
		verdict += " (test " + f.Test + ")"
	}
	printf(w, "    %s\n", r.Text(verdict))
	if h := f.Synthesized; h != nil {
		printf(w, "\n%s\n", indentLines(strings.TrimRight(h.Source, "\n"), "        "))
	}
	if n := len(f.Bugs); n > 0 {
		var ids []string
		for _, sig := range f.Bugs {
			ids = append(ids, pipeline.BugID(sig))
		}
		printf(w, "    The search found %s on the way: %s (below)\n", plural(n, "other bug"), strings.Join(ids, ", "))
	}
	if f.Trials != nil {
		t := f.Trials
		printf(w, "    Trials: %d/%d found it (error density %.2f); to the error: executions min %d avg %.1f max %d, steps min %d avg %.1f max %d\n",
			t.Found, t.N, t.Density, t.Executions.Min, t.Executions.Avg, t.Executions.Max, t.Steps.Min, t.Steps.Avg, t.Steps.Max)
	}
	if res := f.Result; res != nil && f.Verdict == pipeline.Confirmed {
		printFailure(w, r, res, r.ReplayCommand(f))
	}
	if f.Verdict == pipeline.Confirmed || f.Verdict == pipeline.Unconfirmed {
		s := f.Stats
		printf(w, "    %s, %s, %.2fs\n", plural(s.Executions, "execution"), plural(int(s.Steps), "step"), s.Seconds)
		if s.ForeignOps > 0 {
			printf(w, "    %s\n", foreignNote(s.ForeignOps))
		}
	}
}

// printFailure writes the failure of res, its trace and the replay
// command cmd.
func printFailure(w io.Writer, r pipeline.Renderer, res *runner.Result, cmd string) {
	if fl := res.Failure; fl != nil {
		printf(w, "\n    %s: %s\n", fl.Kind, indent(r.Text(fl.Message), "    ")[4:])
		if fl.Stack != "" && fl.Kind != rt.FailDeadlock {
			printf(w, "\n%s\n", indentLines(r.Text(lastLines(fl.Stack, 30)), "        "))
		}
	}
	if len(res.Trace) > 0 {
		printf(w, "\n    Trace (%s), goroutine by goroutine:\n", traceSize(res))
		var b strings.Builder
		printTrace(&b, res, func(file string, line int) string { return r.Posn(file, line, 0) })
		printf(w, "%s\n", indentLines(strings.TrimLeft(b.String(), "\n"), "  "))
	}
	if cmd != "" {
		printf(w, "\n    Replay:\n        %s\n\n", cmd)
	}
}

// foundByText says how a bug was found: by exploring a test, while
// confirming warnings, or both.
func foundByText(b *pipeline.Bug) string {
	var warnings []string
	explored := false
	for _, by := range b.FoundBy {
		if by == pipeline.ExploreBy {
			explored = true
		} else {
			warnings = append(warnings, by)
		}
	}
	switch {
	case len(warnings) == 0:
		return fmt.Sprintf("Bug found by exploring test %s", b.Test)
	case explored:
		return fmt.Sprintf("Bug found while confirming %s, and by exploring (test %s)", strings.Join(warnings, ", "), b.Test)
	}
	return fmt.Sprintf("Bug found while confirming %s (test %s)", strings.Join(warnings, ", "), b.Test)
}

// summaryLine counts the verdicts.
func summaryLine(rep *pipeline.Report) string {
	c := rep.Counts()
	parts := []string{
		fmt.Sprintf("%d confirmed", c[pipeline.Confirmed]),
		fmt.Sprintf("%d not confirmed", c[pipeline.Unconfirmed]),
		fmt.Sprintf("%d without a test", c[pipeline.NoTest]),
		fmt.Sprintf("%d %s", c[pipeline.Error], pluralWord(c[pipeline.Error], "error")),
	}
	s := fmt.Sprintf("confirm: %s: %s", plural(len(rep.Findings), "warning"), strings.Join(parts, ", "))
	if n := len(rep.Bugs); n > 0 {
		s += fmt.Sprintf("; %s found", plural(n, "other bug"))
	}
	if n := len(rep.PackageErrors); n > 0 {
		s += fmt.Sprintf("; %s could not be built (errors on stderr)", plural(n, "package"))
	}
	return s + fmt.Sprintf(" (%.1fs, seed %d)", rep.Wall.Seconds(), rep.Seed)
}

func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// chdirKey carries the -C directory to the replay commands printed.
type chdirKey struct{}

// commandName is how a replay command starts: "confirm", with -C dir when
// confirm ran with -C.
func commandName(ctx context.Context) string {
	if dir, ok := ctx.Value(chdirKey{}).(string); ok && dir != "" {
		return "confirm -C " + dir
	}
	return "confirm"
}

// chdirFlag handles a leading -C dir (or -C=dir): like the go command,
// confirm runs as if started in dir. It returns the remaining arguments.
func chdirFlag(ctx context.Context, args []string) (context.Context, []string, error) {
	if len(args) == 0 {
		return ctx, args, nil
	}
	var dir string
	switch {
	case args[0] == "-C" || args[0] == "--C":
		if len(args) < 2 {
			return ctx, nil, errors.New("flag -C needs a directory")
		}
		dir, args = args[1], args[2:]
	case strings.HasPrefix(args[0], "-C="):
		dir, args = strings.TrimPrefix(args[0], "-C="), args[1:]
	default:
		return ctx, args, nil
	}
	if err := os.Chdir(dir); err != nil {
		return ctx, nil, fmt.Errorf("-C: %w", err)
	}
	return context.WithValue(ctx, chdirKey{}, dir), args, nil
}

// first returns the first argument, or "".
func first(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

// isCommandLike reports whether arg looks like a mistyped command rather
// than a package pattern: a bare word that names no directory.
func isCommandLike(arg string) bool {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "./\\") {
		return false
	}
	st, err := os.Stat(arg)
	return err != nil || !st.IsDir()
}

// indentLines is indent without trailing blanks on empty lines.
func indentLines(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "" {
			lines[i] = prefix + l
		} else {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// traceSize says how long a trace is: its steps and, once shrunk, its
// preemptions and how many it had before.
func traceSize(res *runner.Result) string {
	size := plural(len(res.Trace), "step")
	if st := res.Stats; st.ShrunkFrom > 0 || st.Preemptions > 0 {
		size += ", " + plural(st.Preemptions, "preemption")
		if st.ShrunkFrom > st.Preemptions {
			size += fmt.Sprintf(", shrunk from %d", st.ShrunkFrom)
		}
	}
	return size
}
