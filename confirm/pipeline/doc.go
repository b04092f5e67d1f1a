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
//     its tests into SSA (confirm/testselect), the best test that reaches
//     each warning is selected, its key-location sequence generated
//     (sequence) and the pfsm distance tables to the sequence's locations
//     computed (pfsm); the union of all the package's sequences is the
//     set of locations instrumented (read and write points for racing
//     accesses, observe points for the rest), and each warning's
//     rt.Config.Sequence indexes into it;
//  3. build the package's instrumented test binary once (confirm/runner);
//  4. confirm every warning, in parallel up to Options.Parallel test
//     processes, within Options.Budget, with the chosen strategy;
//  5. judge the outcome: a failure is a confirmation only when it is
//     consistent with the warning (see Consistent); one of another kind
//     than the warning's, reached along its sequence, only when the test
//     does not fail the same way without preemption (see BySequence).
//
// A failure of one warning (its package does not compile, its test hangs
// or its process crashes) is that warning's verdict "error"; the others
// keep theirs.
//
// Verdicts never claim that code is safe: "unconfirmed" means not
// confirmed within the budget.
package pipeline
