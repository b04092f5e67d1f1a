// Package rt is the controlled goroutine runtime of Confirm.
//
// The instrumenter rewrites a package's tests so that every concurrency
// operation (go statements, channel operations, select, the sync and
// sync/atomic types, yields, and the memory accesses and key locations the
// driver asked for) calls this package; API.md lists the contract. Under the
// driver (CONFIRM_CONFIG set), RunTest runs the test body many times, each
// time as one controlled execution in which exactly one goroutine runs at a
// time, following CHESS (Musuvathi et al.):
//
//   - Every operation is a scheduling point. The running goroutine records
//     its pending operation, a Strategy picks the next goroutine among the
//     enabled ones, and the goroutines hand the turn over through
//     per-goroutine channels.
//   - Blocking is modelled, never waited on: a goroutine parked at Lock of a
//     held mutex, a receive from an empty channel, WaitGroup.Wait with a
//     positive counter, Cond.Wait and so on is enabled only when its
//     operation can proceed ("try" discipline).
//   - Yields (Gosched, Sleep) lower the priority of the yielding goroutine
//     until the goroutines that were enabled when it yielded have run
//     (fairness), so spin loops and sleep-polling terminate.
//   - Oracles end an execution with a Failure: test failure, panic,
//     deadlock (nothing enabled, or a wait-for cycle among lock waiters),
//     leak, data race on the instrumented accesses (vector clocks over the
//     modelled synchronisation), livelock (step bound), exit.
//   - Every decision is recorded in a trace and a compact replay token;
//     replaying the token reproduces the execution or reports where it
//     diverged.
//
// Code the rewrite did not reach runs uncontrolled. A goroutine that does not
// come back to a scheduling point within Config.StallMillis is detached, and
// the others keep running; it rejoins at its next scheduling point.
package rt
