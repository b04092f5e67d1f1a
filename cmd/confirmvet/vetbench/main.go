// Command vetbench measures the cost of the Confirm analyzers under go vet
// against the cost of go vet's own analyzers, over a large real module.
//
// Usage, from within the Confirm module:
//
//	go run ./cmd/confirmvet/vetbench [-module path@version | -dir moduledir] [-pkgs ./...] [-n rounds] [-confirmflags flags]
//
// By default the module is golang.org/x/tools at the version the current
// module requires, taken from the module cache (downloaded through the
// module proxy if missing). The module is copied to a temporary directory,
// since go vet must run inside it and the module cache is read-only; the
// source tree given with -dir is copied too and never written.
//
// For each round vetbench runs, one after the other and in alternating
// order,
//
//	go vet ./...                      (go vet's own analyzers)
//	go vet -vettool=confirmvet ./...  (lockorder and race)
//
// with -confirmflags added to the second (for example -race=false, to
// measure lockorder alone), and prints the wall time, the CPU time
// (user+sys) and the peak memory of both side by side, with the ratios
// confirmvet / go vet. With several rounds the best (least wall time) round
// of each is shown, and every round's wall time.
//
// Fairness: both commands share one build cache, fresh for the run unless
// -gocache names one, which is primed beforehand with the compiled export
// data of every package (go list -deps -test -export), so neither pays for
// compilation. Vet results are cached by go too, under the identity the
// tool prints for -V=full; for go's own vet that is its release version,
// and no vet flag busts the cache without changing the analysis. So both
// tools run through a small sh wrapper that prints an identity of its own
// for each run and passes everything else to the real tool (go's own
// $GOTOOLDIR/vet for plain go vet): every run analyzes every package,
// including the facts-only runs over all dependencies, standard library
// included. vetbench needs a Unix system with /bin/sh.
//
// Peak memory is the largest resident set size of any single process of the
// go vet process tree (the go command or one per-package analysis process,
// which go vet runs several at a time), read from the rusage that wait4
// returns for the go command: on Linux it covers every descendant the go
// command waited for. CPU time covers the whole tree the same way.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
)

func main() {
	var o options
	flag.StringVar(&o.module, "module", "", "module `path@version` to analyze, from the module cache (default: golang.org/x/tools at the version this module requires)")
	flag.StringVar(&o.dir, "dir", "", "analyze the module in this `directory` instead of -module (it is copied, not written)")
	flag.StringVar(&o.pkgs, "pkgs", "./...", "package `patterns` to vet, space-separated")
	flag.IntVar(&o.rounds, "n", 1, "number of `rounds`; each runs both commands once")
	flag.StringVar(&o.vettool, "vettool", "", "confirmvet `binary` to use (default: build github.com/confirm-go/confirm/cmd/confirmvet)")
	flag.StringVar(&o.confirmFlags, "confirmflags", "", "extra go vet `flags` for the confirmvet run only, e.g. -race=false to measure lockorder alone")
	flag.StringVar(&o.gocache, "gocache", "", "build cache `directory` to share between both commands (default: a fresh temporary one)")
	flag.BoolVar(&o.verbose, "v", false, "print the commands run")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: vetbench [flags]\n\nvetbench compares the wall time and peak memory of go vet -vettool=confirmvet with plain go vet.\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "vetbench: %v\n", err)
		os.Exit(1)
	}
}
