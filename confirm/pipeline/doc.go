// Package pipeline is Confirm's product: it flags possible concurrency bugs
// with the analyzers, derives for each warning the sequence of key
// locations a failing execution must pass through, and confirms the
// warning by driving the package's real tests along that sequence under
// the controlled scheduler.
//
// Run does, for the packages of a pattern:
//
//  1. analyze: the lockorder and race analyzers run in process through
//     golang.org/x/tools/go/analysis/checker; their *warning.Result
//     values are collected, each warning once;
//  2. plan, once per package with warnings: the package is loaded with
//     its tests into SSA (confirm/testselect), the tests that reach each
//     warning are ranked (up to four are kept), a key-location sequence
//     is generated for each (sequence) and the pfsm distance tables to
//     its locations computed (pfsm); the union of all the package's
//     sequences is the set of locations instrumented (read and write
//     points for racing accesses, observe points for the rest), and each
//     search's rt.Config.Sequence indexes into it;
//  3. build the package's instrumented test binary once (confirm/runner);
//  4. confirm every warning, in parallel up to Options.Parallel test
//     processes, within Options.Budget, with the chosen strategy: its
//     tests are searched one after the other, the next getting what the
//     previous left of the budget when it could not show the warning (a
//     single schedule, every schedule explored, no goroutine);
//  5. judge the outcome. A warning is confirmed only by a failure of its
//     own kind on its own sites (see Want and Confirms): the runtime
//     stops a search only there. Any other failure found on the way is a
//     bug of its own (Report.Bugs): a race on another variable, a
//     deadlock, a leak, or a test failure, panic or exit that the test
//     does not also have in its serial execution (no preemption), each
//     reported once with its trace and replay token.
//
// A warning that no test of its own package reaches is planned with the
// tests of the other checked packages that import its package, and runs
// in their binary (borrow.go). With Options.Synthesize, a race or
// lock-order warning that no test confirms gets harness tests written by
// package synth into the build overlay; the package is built again with
// them and the warning searched for with them alone (synth.go): only its
// own failure counts, and the verdict names the harness and shows it.
//
// One test process of a package runs at a time, as under go test (tests
// may share files in the package's directory); packages run in parallel.
//
// With Options.Explore, every test of the packages that have tests is
// also run undirected (pct, no sequence, no warning wanted) within
// Options.ExploreBudget per package, with every field and global access a
// race-oracle point, and its concurrency failures are bugs found too.
//
// A failure of one warning (its package does not compile, its test hangs
// or its process crashes) is that warning's verdict "error"; the others
// keep theirs.
//
// Verdicts never claim that code is safe: "unconfirmed" says why the
// search ended (the budget, every schedule explored, a test that cannot
// show the warning, one that fails without any interleaving, a warned
// access the instrumenter could not observe, which no exploration can
// show). When the package has constructs the scheduler does not control
// (runner.Binary.Uncontrolled: a sync value kept real, a package left
// uncontrolled, a channel operation left as it is, a goroutine outside
// the scheduler), a search that explored every schedule explored every
// schedule Confirm controls, and its cause says so and names one of
// them: the one nearest a step of the warning's sequence, in its file,
// or else the first. The searches with synthesized tests are judged the
// same way, with their own binary.
//
// Report.Notes holds the instrumenter's notes on every package whose
// tests ran (what it left as it is, and why); the -json form repeats
// them on each finding of the package.
package pipeline
