// Command confirm runs a package's tests under Confirm's controlled
// scheduler and reports the first concurrency error it finds, with the
// interleaving that produced it and a token that replays it.
//
// Usage:
//
//	confirm run [flags] package
//	confirm replay -token T [-json] package
//
// The run command instruments the package (its non-test files and its
// tests, through a go test -overlay; the source tree is never written),
// builds its test binary once and runs each selected test in its own
// process, where the runtime re-runs the test body many times under a
// search strategy until an oracle fires (a test failure or panic, a
// deadlock, a leaked blocked goroutine, a data race between two
// instrumented accesses) or the budget is spent. It prints the verdict,
// the failure, the trace goroutine by goroutine, the replay command and
// statistics.
//
// The replay command rebuilds the package with the instrumentation options
// recorded in the token and re-runs the one execution the token describes;
// it reproduces the same trace and verdict.
//
// Exit status: 0 when no error was found, 1 when an error was found (its
// trace printed; this includes a test process that died, e.g. in os.Exit
// or a fatal runtime error, in code confirm does not control), 2 on a
// usage or build error, a test that hangs in code confirm does not
// control, or a replay that diverges.
//
// # JSON output
//
// With -json, both commands print one JSON object:
//
//	package        import path of the package
//	test           the test that stopped the run (or the only test run)
//	tests          the tests that were run
//	verdict        "error", "none", "crashed" (the process died), "stuck"
//	               (blocked outside instrumented code), "diverged" (replay
//	               only) or "hung" (killed after budget + grace)
//	failure        {kind, message, stack, goroutines, objects}; kind is
//	               test-failure, panic, deadlock, leak, race, livelock,
//	               exit, crash or stuck
//	trace          the steps of the failing execution, in order:
//	               {step, g, op, object, objectKind, choice, loc, file,
//	               line, func, name}; name is what the step operates on,
//	               e.g. "(*abba.Account).mu"
//	goroutines     {id, parent, file, line, func}: where each goroutine of
//	               the execution was spawned and what it runs
//	token          the replay token; replayCommand the command that uses it
//	divergence     how a replay diverged
//	stats          {executions, steps, seconds, stepsToError, foreignOps}:
//	               foreignOps counts operations of goroutines confirm does
//	               not control, which ran unscheduled
//	seed           the seed of the search (run only)
//	output         the tail of the test process's output (failures, crashes);
//	               for "hung", the goroutines running the package's code
//	error          why a test was killed (verdict "hung")
//
// Fields that do not apply are omitted.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/confirm-go/confirm/confirm/runner"
)

const usage = `Confirm runs a package's tests under a controlled scheduler and reports
the first concurrency error it finds, with a replayable interleaving.

Usage:

	confirm run [-strategy random|pct] [-seed N] [-budget 30s] [-max-execs N]
	            [-max-steps N] [-run regexp] [-races=true] [-json] package
	confirm replay -token T [-json] package

Run 'confirm run -h' or 'confirm replay -h' for the flags of a command.

Exit status: 0 nothing found, 1 an error found, 2 usage or build error,
a test that hangs, or a replay that diverges.
`

// Exit statuses.
const (
	exitClean = 0
	exitFound = 1
	exitError = 2
)

func main() {
	// go/packages, which the instrumenter loads the package with, reads
	// GOFLAGS from the environment; coverage flags break the build of the
	// injected runtime.
	if v := os.Getenv("GOFLAGS"); v != "" {
		if err := os.Setenv("GOFLAGS", runner.WithoutCoverFlags(v)); err != nil {
			printf(os.Stderr, "confirm: %v\n", err)
			os.Exit(exitError)
		}
	}
	// A closed pipe on stdout (confirm run ... | head) must not kill confirm
	// before it removed its temporary files: writes then fail instead.
	signal.Ignore(syscall.SIGPIPE)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run runs the command line args and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	ctx, args, err := chdirFlag(ctx, args)
	if err != nil {
		printf(stderr, "confirm: %v\n", err)
		return exitError
	}
	// The default command (check.go) takes flags and package patterns.
	cmd, rest := checkCmd, args
	if len(args) > 0 {
		rest = args[1:]
	}
	switch first(args) {
	case "run":
		cmd = runCmd
	case "replay":
		cmd = replayCmd
	case "help":
		printString(stdout, checkUsage+"\n"+usage)
		return exitClean
	default:
		if isCommandLike(first(args)) {
			printf(stderr, "confirm: unknown command %q\n\n%s", args[0], usage)
			return exitError
		}
		rest = args
	}
	err = cmd(ctx, rest, stdout, stderr)
	var st *exitStatus
	switch {
	case err == nil:
		return exitClean
	case errors.Is(err, flag.ErrHelp):
		return exitClean
	case errors.As(err, &st):
		return st.code
	default:
		printf(stderr, "confirm: %v\n", err)
		return exitError
	}
}

// An exitStatus ends the command with a status after its report was
// printed.
type exitStatus struct{ code int }

func (e *exitStatus) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// printf writes to the terminal; a failed write there has nowhere to be
// reported.
func printf(w io.Writer, format string, args ...any) {
	_, _ = fmt.Fprintf(w, format, args...)
}

// printString writes s to the terminal, like printf.
func printString(w io.Writer, s string) {
	_, _ = io.WriteString(w, s)
}
