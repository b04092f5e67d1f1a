// Corpus runs confirm on real modules pinned in modules.txt and compares
// what it claims with the judgements in judged.txt, written by reading the
// code: every confirmed warning and every bug found must be judged true,
// and every token must replay.
//
// Usage:
//
//	go run ./cmd/corpus [-dir DIR] [-modules ants,puddle] [-budget 10s] [-replays 10]
//	go run ./cmd/corpus -analyzers [-dir DIR] [-modules ants,puddle] [-golangci ./custom-gcl]
//	go run ./cmd/corpus -heldout [-sets h2,h8] [-modules pq,zk] [-vettool BIN] [-compare BIN2] [-dir DIR] [-v]
//
// It fetches each module through the module proxy (go mod download), copies
// it to DIR (a temporary directory by default) and makes it writable, adds
// a go.mod where the module has none, builds confirm from this checkout and
// runs `confirm -json ./...` in each copy. For every confirmed warning and
// bug found it replays the token -replays times. It prints, per module, the
// verdict counts, the confirmations and bugs judged true and false (and
// those not judged yet, with what to write in judged.txt), the replays that
// reproduced, and the wall time; and exits 1 when a claim is judged false,
// not judged, or does not replay.
//
// With -analyzers it judges the analyzers instead: it runs them on each
// module as confirm ./... does (packages with their tests, each warning
// once), compares every warning with the judgements in findings.txt
// ("module id true|false reason", written by reading the code), and prints
// the precision per module and overall. It also runs confirmvet ./...,
// go vet -vettool=confirmvet ./... and, with -golangci, a golangci-lint
// binary built with the confirm plugin, and checks that each reports the
// same findings as confirm, each once. It exits 1 when a warning is not
// judged, precision is below its goals (80% overall, 50% for every
// module), or an entry point differs.
//
// With -heldout it measures the analyzers' precision on the held-out
// modules of heldout.txt ("set dir module@version [patterns...]"), which
// they were not tuned on, as the trials in trials/ did: in each copy it
// runs go vet -vettool=BIN on the module's packages (./... unless
// heldout.txt names others) with GOWORK=off and GOFLAGS=-mod=mod, one
// module at a time, BIN being confirmvet built from this checkout unless
// -vettool names one. It matches every finding to the judgements in
// heldout-judged.txt ("dir file:line[:col] kind true|false|unsure
// reason", transcribed from the trials) by directory, file, line and
// kind (and column, when a judgement names one); where judgements on a
// finding disagree the majority decides, and a tie is a conflict. It
// prints per module, per set and overall the true, false, unsure,
// conflicting and unjudged findings and precision (true/(true+false)),
// then the unjudged findings to judge, and with -v every finding with its
// verdict. -compare BIN2 runs a second binary too and lists the findings
// it gains and loses. What vet printed is kept in DIR/NAME.N.vet. It is a
// measurement with no goal: it exits 0 unless a module could not be
// fetched or vetted (1) or the command itself failed (2).
//
// It needs the network (the module proxy) and takes minutes per module:
// it is an evaluation to run and report, not part of the test suite.
package main

import (
	"context"
	_ "embed"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"time"
)

//go:embed modules.txt
var modulesTxt string

//go:embed judged.txt
var judgedTxt string

//go:embed findings.txt
var findingsTxt string

//go:embed heldout.txt
var heldoutTxt string

//go:embed heldout-judged.txt
var heldoutJudgedTxt string

func main() {
	var o options
	flag.StringVar(&o.dir, "dir", "", "directory for the module copies (default: a new temporary directory)")
	flag.StringVar(&o.only, "modules", "", "comma-separated `names` (last path elements, e.g. ants,puddle; with -heldout the directories of heldout.txt) of the modules to run; all when empty")
	flag.DurationVar(&o.budget, "budget", 10*time.Second, "confirm's -budget per warning")
	flag.IntVar(&o.replays, "replays", 10, "replays of every token")
	flag.StringVar(&o.flags, "flags", "", "extra confirm flags, space-separated")
	flag.BoolVar(&o.analyzers, "analyzers", false, "judge the analyzers' warnings (findings.txt) instead of confirm's claims")
	flag.StringVar(&o.golangci, "golangci", "", "with -analyzers, also compare the findings of this golangci-lint `binary` built with the confirm plugin (golangci-lint custom, see .custom-gcl.yml)")
	flag.BoolVar(&o.heldout, "heldout", false, "measure precision on the held-out modules of heldout.txt against heldout-judged.txt")
	flag.StringVar(&o.held.sets, "sets", "", "with -heldout, comma-separated `sets` of heldout.txt (e.g. h2,h8) to run; all when empty")
	flag.StringVar(&o.held.vettool, "vettool", "", "with -heldout, the vet `binary` to measure (default: confirmvet built from this checkout)")
	flag.StringVar(&o.held.compare, "compare", "", "with -heldout, a second vet `binary` to run and compare with the first")
	flag.BoolVar(&o.held.verbose, "v", false, "with -heldout, print every finding with its verdict")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: go run ./cmd/corpus [flags]\n\nFlags:\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	// Each copy is built as a module of its own: a go.work shipped in a
	// module's zip (samber/do's names directories the zip leaves out)
	// must not apply.
	if err := os.Setenv("GOWORK", "off"); err != nil {
		fmt.Fprintf(os.Stderr, "corpus: %v\n", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	runner := run
	switch {
	case o.analyzers:
		runner = runFindings
	case o.heldout:
		runner = runHeldout
	}
	ok, err := runner(ctx, o, os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "corpus: %v\n", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
