// Paperbench regenerates BENCHMARKS.md: the analog of Tables 1 and 2 of
// Rungta and Mercer's meta heuristic paper on the Go subjects of
// testdata/paper. For every subject and configuration it runs N
// independent trials of each search (random, pct, and the meta strategy
// with the pfsm, random and prefer secondary heuristics) and reports the
// error density and the steps to the error.
//
// Usage, from the repository root:
//
//	go run ./cmd/paperbench [-trials 100] [-o BENCHMARKS.md] [-subjects TwoStage,Reorder] [-configs largest]
//
// The defaults regenerate the committed BENCHMARKS.md (about 17 minutes on
// a 2-core machine); the header of the output records the command, the
// machine, the budgets and the total time.
//
// A search the runtime does not offer (the meta strategy before it
// exists) is shown as "not available", with the runtime's reason.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "paperbench: %v\n", err)
		os.Exit(2)
	}
}

// defaultConfigs are the configurations of the committed BENCHMARKS.md:
// the paper's largest where random search still finds the bug now and
// then, and (20,1) or (1,20), where it does not. With 100 trials they
// take about 17 minutes on a 2-core machine.
const defaultConfigs = "TestTwoStage10_1,TestTwoStage20_1,TestReorder10_1,TestReorder20_1,TestWronglock1_20,TestAbsList1_20,TestDeadlock1_10,TestDeadlock1_20"

// options are paperbench's flags.
type options struct {
	trials     int
	out        string
	dir        string
	subjects   string
	configs    string
	searches   string
	seed       int64
	execs      int
	steps      int64
	wall       time.Duration
	args       []string
	progress   io.Writer
	searchList []search
}

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	o := &options{args: args, progress: stderr}
	fs := flag.NewFlagSet("paperbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&o.trials, "trials", 100, "independent trials per search and configuration")
	fs.StringVar(&o.out, "o", "BENCHMARKS.md", "output `file` (- for standard output)")
	fs.StringVar(&o.dir, "dir", "testdata/paper", "the fixture module's `directory`")
	fs.StringVar(&o.subjects, "subjects", "", "comma-separated `subjects` (default all: "+subjectNames()+")")
	fs.StringVar(&o.configs, "configs", defaultConfigs, "configurations per subject: all, largest, smallest, or test `names`")
	fs.StringVar(&o.searches, "searches", "random,pct,meta+pfsm,meta+random,meta+prefer", "comma-separated `searches`")
	fs.Int64Var(&o.seed, "seed", 1, "base `seed`: trial i uses seed+i")
	fs.IntVar(&o.execs, "execs", 300, "executions budget of a trial")
	fs.Int64Var(&o.steps, "steps", 100000, "total steps budget of a trial")
	fs.DurationVar(&o.wall, "wall", time.Minute, "wall-time budget of a trial")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if o.trials < 1 || o.execs < 1 || o.steps < 1 || o.wall <= 0 {
		return nil, fmt.Errorf("-trials, -execs, -steps and -wall must be positive")
	}
	for name := range strings.SplitSeq(o.searches, ",") {
		s, err := parseSearch(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		o.searchList = append(o.searchList, s)
	}
	return o, nil
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	o, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	dir, err := filepath.Abs(o.dir)
	if err != nil {
		return err
	}
	if err := checkDir(dir); err != nil {
		return err
	}
	subs, err := pickSubjects(o.subjects)
	if err != nil {
		return err
	}
	start := time.Now()
	var rows []row
	for _, s := range subs {
		r, err := benchSubject(ctx, o, dir, s)
		if err != nil {
			return err
		}
		rows = append(rows, r...)
	}
	if len(rows) == 0 {
		return fmt.Errorf("no configuration matches -configs %q", o.configs)
	}
	doc := render(o, rows, start, time.Since(start))
	if o.out == "-" {
		_, err = io.WriteString(os.Stdout, doc)
		return err
	}
	if err := os.WriteFile(o.out, []byte(doc), 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", o.out, err)
	}
	return nil
}
