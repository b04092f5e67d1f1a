// Command vetbench measures the cost of the Confirm analyzers under go vet
// against the cost of go vet's own analyzers, over a large real module.
//
// Usage, from within the Confirm module:
//
//	go run ./cmd/confirmvet/vetbench [-module path@version | -dir moduledir] [-pkgs ./...] [-n rounds]
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
// and prints the wall time, the CPU time (user+sys) and the peak memory of
// both, side by side, and the ratio confirmvet / go vet.
//
// Fairness: both commands share one build cache, fresh for the run unless
// -gocache names one, which is primed beforehand with the compiled export
// data of every package (go list -deps -test -export), so neither pays for
// compilation. Vet results are cached by go too: every run passes its own
// value of the no-op flag -c=-N (no context lines), which is part of the
// cache key of each vet action, so every run analyzes every package,
// including the facts-only runs over dependencies.
//
// Peak memory is the largest resident set size of any single process of the
// go vet process tree (the go command or one per-package analysis process,
// which go vet runs several at a time), read from the rusage that wait4
// returns for the go command: on Linux it covers every descendant the go
// command waited for.
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
