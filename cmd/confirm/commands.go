package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/confirm-go/confirm/confirm/pipeline"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// runFlags are the flags of confirm run.
type runFlags struct {
	strategy string
	seed     int64
	budget   time.Duration
	maxExecs int
	maxSteps int
	pctDepth int
	run      string
	races    bool
	json     bool
	grace    time.Duration
}

func (f *runFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.strategy, "strategy", "random", "search `strategy`: random or pct")
	fs.Int64Var(&f.seed, "seed", 0, "`seed` of the search; 0 picks one (printed with the statistics)")
	fs.DurationVar(&f.budget, "budget", 30*time.Second, "wall-time `budget` of the search over all selected tests")
	fs.IntVar(&f.maxExecs, "max-execs", 0, "at most `N` executions per test (0: no bound)")
	fs.IntVar(&f.maxSteps, "max-steps", 0, "at most `N` scheduling points per execution; an execution that needs more is cut off without a verdict (0: the runtime's default)")
	fs.IntVar(&f.pctDepth, "pct-depth", 3, "bug depth `d` of the pct strategy")
	fs.StringVar(&f.run, "run", "", "run only the tests matching `regexp`")
	fs.BoolVar(&f.races, "races", true, "instrument every field and package-level variable access of the package's non-test files, so that the data-race oracle can fire")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON")
	fs.DurationVar(&f.grace, "grace", runner.DefaultGrace, "wall time a test process gets beyond its budget before it is killed as hung")
}

func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		printf(stderr, "usage: %s\n\nFlags:\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

const (
	runSynopsis    = "confirm run [-strategy random|pct] [-seed N] [-budget 30s] [-max-execs N] [-max-steps N] [-run regexp] [-races=true] [-json] package"
	replaySynopsis = "confirm replay -token T [-json] package"
)

// parse parses args into fs and returns the one package argument.
func parse(fs *flag.FlagSet, args []string) (string, error) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return "", err
		}
		return "", &exitStatus{exitError} // flag printed the error and usage
	}
	switch fs.NArg() {
	case 1:
		return fs.Arg(0), nil
	case 0:
		return "", usageFail(fs, "no package given")
	default:
		return "", usageFail(fs, fmt.Sprintf("one package at a time, got %d arguments: %s", fs.NArg(), strings.Join(fs.Args(), " ")))
	}
}

// usageFail prints msg and the usage of fs and returns exit status 2.
func usageFail(fs *flag.FlagSet, msg string) error {
	printf(fs.Output(), "confirm %s: %s\n", fs.Name(), msg)
	fs.Usage()
	return &exitStatus{exitError}
}

// runCmd implements confirm run.
func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	var f runFlags
	fs := newFlagSet("run", runSynopsis, stderr)
	f.register(fs)
	pkg, err := parse(fs, args)
	if err != nil {
		return err
	}
	if f.strategy != "random" && f.strategy != "pct" {
		return usageFail(fs, fmt.Sprintf("unknown strategy %q (want random or pct)", f.strategy))
	}
	if f.budget <= 0 && f.maxExecs <= 0 {
		return usageFail(fs, "need a positive -budget or -max-execs")
	}
	re, err := regexp.Compile(f.run)
	if err != nil {
		return usageFail(fs, fmt.Sprintf("bad -run: %v", err))
	}
	if f.seed == 0 {
		f.seed = time.Now().UnixNano() & (1<<53 - 1)
	}

	start := time.Now()
	bin, err := runner.Instrument(ctx, runner.BuildOptions{Package: pkg, Accesses: f.races})
	if err != nil {
		return err
	}
	defer closeBinary(bin, stderr)
	var tests []string
	for _, t := range bin.Tests {
		if re.MatchString(t) {
			tests = append(tests, t)
		}
	}
	if len(tests) == 0 {
		return fmt.Errorf("no test of %s matches -run %q (tests: %s)", bin.Package, f.run, strings.Join(bin.Tests, ", "))
	}
	if err := bin.Compile(ctx); err != nil {
		return err
	}
	opts := runner.RunOptions{
		Config: rt.Config{
			Strategy:     f.strategy,
			Seed:         f.seed,
			PCTDepth:     f.pctDepth,
			MaxExecs:     f.maxExecs,
			MaxSteps:     f.maxSteps,
			BudgetMillis: f.budget.Milliseconds(),
		},
		Grace: f.grace,
	}
	results, err := bin.RunTests(ctx, tests, opts)
	if err != nil {
		return reportRunError(stdout, stderr, err, f.json)
	}
	rep := &report{
		Package: bin.Package,
		Arg:     pkg,
		Tests:   tests,
		Seed:    f.seed,
		Stats:   runner.Total(results),
		Wall:    time.Since(start),
	}
	if n := len(results); n > 0 && runner.Stops(results[n-1]) {
		rep.Result = results[n-1]
	}
	rep.Notes = runNotes(results)
	return rep.write(stdout, f.json)
}

// runNotes says which tests failed without any interleaving or could not
// run twice in one process: their failures are no concurrency bugs.
func runNotes(results []*runner.Result) []string {
	var notes []string
	for _, r := range results {
		switch {
		case r.Verdict == rt.VerdictUnrepeatable:
			notes = append(notes, fmt.Sprintf("%s cannot run twice in one process, so it was not explored: %s", r.Test, r.Unrepeatable))
		case r.Stats.TooManyGoroutines:
			notes = append(notes, fmt.Sprintf("%s starts more goroutines than confirm explores (1000); it was not explored", r.Test))
		case r.Serial != nil:
			notes = append(notes, fmt.Sprintf("%s fails without any interleaving (%s: %s); failures like it are not reported as concurrency bugs",
				r.Test, r.Serial.Kind, firstLine(r.Serial.Message)))
		case r.Stats.OverBudget > 0 && r.Stats.OverBudget == r.Stats.Executions:
			notes = append(notes, fmt.Sprintf("%s was cut off when its share of the budget ran out during its first execution (an execution takes longer); raise -budget", r.Test))
		}
	}
	return notes
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// replayCmd implements confirm replay.
func replayCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("replay", replaySynopsis, stderr)
	tokFlag := fs.String("token", "", "replay `token` (or its handle h1.…) printed by confirm or confirm run")
	jsonOut := fs.Bool("json", false, "print the result as JSON")
	timeout := fs.Duration("timeout", time.Minute, "wall time the replay may take before the test is killed as hung")
	pkg, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *tokFlag == "" {
		return usageFail(fs, "-token is required")
	}
	req := replayRequest{pkg: pkg, timeout: *timeout, json: *jsonOut}
	if *tokFlag, err = newHandles().resolve(*tokFlag); err != nil {
		return err
	}
	if pipeline.IsToken(*tokFlag) {
		// A token of the default command also carries the locations the
		// package was instrumented with, which the schedule passes.
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		ptok, err := pipeline.ParseToken(*tokFlag, wd)
		if err != nil {
			return err
		}
		*tokFlag, req.locs, req.printed = ptok.Runner, ptok.Locations, strings.TrimSpace(*tokFlag)
		for name, src := range ptok.Files {
			if req.files == nil {
				req.files = make(map[string][]byte)
			}
			req.files[name] = []byte(src)
		}
	}
	if req.tok, err = runner.ParseToken(*tokFlag); err != nil {
		return err
	}
	return replayExecution(ctx, stdout, stderr, req)
}

// A replayRequest says which execution to replay and how.
type replayRequest struct {
	pkg string
	tok runner.Token
	// locs are the observe, read and write points the run that printed the
	// token instrumented; the schedule passes them.
	locs []rt.Location
	// files are the synthesized test files the package was built with.
	files map[string][]byte
	// printed, when set, is the token as the user gave it, reported back
	// in place of the runner's token.
	printed string
	timeout time.Duration
	json    bool
}

// replayExecution rebuilds the package instrumented as the token says,
// re-runs the one execution it describes and writes the report.
func replayExecution(ctx context.Context, stdout, stderr io.Writer, req replayRequest) error {
	start := time.Now()
	bin, err := runner.Instrument(ctx, runner.BuildOptions{Package: req.pkg, Locations: req.locs, Accesses: req.tok.Accesses, Files: req.files})
	if err != nil {
		return err
	}
	defer closeBinary(bin, stderr)
	tok := req.tok
	if !contains(bin.Tests, tok.Test) {
		return fmt.Errorf("the token replays test %s, which %s does not have (tests: %s)", tok.Test, bin.Package, strings.Join(bin.Tests, ", "))
	}
	if err := bin.Compile(ctx); err != nil {
		return err
	}
	res, err := bin.Run(ctx, tok.Test, runner.RunOptions{
		Config:  rt.Config{Strategy: "replay", Replay: tok.Runtime, MaxSteps: tok.MaxSteps},
		Timeout: req.timeout,
	})
	if err != nil {
		return reportRunError(stdout, stderr, err, req.json)
	}
	if req.printed != "" && res.Token != "" {
		res.Token = req.printed
	}
	rep := &report{
		Package: bin.Package,
		Arg:     req.pkg,
		Tests:   []string{tok.Test},
		Replay:  true,
		Stats:   res.Stats,
		Wall:    time.Since(start),
		Result:  res,
	}
	return rep.write(stdout, req.json)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// reportRunError reports an error of Run: a hang gets the tail of the
// test's output on stderr (and a JSON record with -json).
func reportRunError(stdout, stderr io.Writer, err error, asJSON bool) error {
	var hang *runner.HangError
	if !errors.As(err, &hang) {
		return err
	}
	if asJSON {
		_ = writeJSON(stdout, jsonReport{
			Result: &runner.Result{Package: hang.Package, Test: hang.Test, Verdict: "hung", Output: hang.Stacks},
			Tests:  []string{hang.Test},
			Error:  hang.Error(),
		})
	}
	printf(stderr, "confirm: %v\n", err)
	wd, _ := os.Getwd()
	if stacks := strings.TrimSpace(hang.Stacks); stacks != "" {
		printf(stderr, "goroutines running the package's code:\n%s\n", indent(relPaths(stacks, wd), "\t"))
	} else if out := strings.TrimSpace(hang.Output); out != "" {
		printf(stderr, "last output of the test process:\n%s\n", indent(relPaths(lastLines(out, 30), wd), "\t"))
	}
	return &exitStatus{exitError}
}

// closeBinary removes the test binary and reports a failure to do so.
func closeBinary(bin *runner.Binary, stderr io.Writer) {
	if err := bin.Close(); err != nil {
		printf(stderr, "confirm: %v\n", err)
	}
}
