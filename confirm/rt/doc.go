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
//     enabled ones, the operation is executed on the model, and the
//     goroutines hand the turn over through per-goroutine channels (a
//     channel handoff measured about 4 times faster than a mutex handoff).
//     Controlled goroutines run on pooled real goroutines that are reused
//     across executions (not after runtime.Goexit), so that their stacks,
//     grown on the scheduler's call path, are not grown again each time;
//     parked ones exit after a second unused or when the search ends. A
//     goroutine gets its real goroutine only when it is first given the
//     turn; one never chosen before its execution ends never runs.
//   - Blocking is modelled, never waited on: a goroutine parked at Lock of a
//     held mutex, a receive from an empty channel, WaitGroup.Wait with a
//     positive counter, Cond.Wait and so on is enabled only when its
//     operation can proceed ("try" discipline). Unbuffered channels are
//     rendezvous between parked goroutines; buffered ones keep their values
//     in the real channel's buffer. Channels the execution did not make
//     (timers, contexts) are polled without blocking. The enabled set is
//     recomputed at every decision over the live goroutines; one waiting
//     for a held Mutex is skipped without reading its record.
//   - Fairness: a goroutine that yields (Gosched, a select that takes its
//     default, a failed TryLock) is not chosen while one of the goroutines
//     that were enabled when it yielded is still enabled and has not run
//     since; when only such yielders are enabled, all of them are
//     candidates. So spin loops terminate. (The serial execution takes
//     only Gosched for a yield; a replay follows its token among all
//     enabled goroutines.)
//   - Time is one virtual clock per execution (clock.go): Now, Since,
//     Until, Sleep, After, Tick, timers, tickers, AfterFunc and context
//     deadlines read it, each reading a nanosecond after the last; it
//     jumps to the next deadline when every goroutine waits, or when every
//     enabled one spins (a yield, or a poll of what it polled since its
//     last other step) and each took a round of steps since anything else
//     happened; it follows real time while uncontrolled code may be what
//     they wait for, stops once the body returned, and ends an execution
//     whose goroutines stay blocked past 10 minutes of it. Context
//     cancellation is modelled (context.go). The top-level functions of
//     math/rand draw from a source seeded per execution; the token records
//     the seed (rand.go).
//   - Calls into uncontrolled code that may synchronize are followed by a
//     point of kind "outside" (ext.go) that orders all such calls, so that
//     a race they might order is not reported.
//   - Oracles end an execution with a Failure: test failure, panic,
//     deadlock (nothing enabled while goroutines wait on modelled objects,
//     or a wait-for cycle among lock waiters even while others run), leak
//     (the body returned and goroutines are blocked with nothing left that
//     could wake them: none waits on time, and what they wait on was made
//     in the execution), data race on the instrumented accesses (two
//     goroutines parked at conflicting accesses, or an access unordered
//     with an earlier one by the vector clocks of the modelled
//     synchronisation), exit. Failures carry structured detail (Wait,
//     Access, Cycle, frames) and a Signature that identifies them across
//     schedules. An execution that reaches the step bound is cut off
//     without a verdict (Stats.Truncated), not called a livelock.
//   - A search (runSearch) starts with the serial execution (no
//     preemption): a test failure, panic or exit it has needs no
//     interleaving, and the same failure later is not reported; a second
//     serial execution checks that the test can run twice in one process;
//     a body that starts no goroutine has one schedule. With Config.Want
//     (a warning's own kind of failure on its own sites), other failures
//     do not end the search: races that are not wanted do not even end
//     their execution, and the first of each signature is kept in
//     Result.Found with its own token and trace.
//   - Every decision is recorded in a trace and a compact replay token,
//     which also records the failure the execution ended in; replaying
//     the token reproduces that failure or reports how it diverged (a
//     decision that cannot be followed, or another ending). Positions are recorded only when needed: a search re-runs a
//     failing execution from its token with positions on.
//
// Goroutine identity: goroutine ids are the creation order in the
// execution (0 is the body). Since one controlled goroutine runs at a
// time, the turn holder is the caller of an operation. A goroutine that
// does not reach its next scheduling point within Config.StallMillis (it
// computes in uncontrolled code), or that a stack dump shows blocked there
// after 3ms, is detached and the others keep
// running; from then on callers are identified by their runtime goroutine
// id, and the detached goroutine rejoins at its next scheduling point. When
// nothing progresses for 10s the execution ends with verdict "stuck".
//
// Outside a controlled execution, and for goroutines the runtime does not
// control, the sync types behave like the real ones (they embed them).
// A goroutine the runtime did not start (a dependency's go statement, a
// time.AfterFunc callback, a net/http handler, a testing/synctest bubble)
// that calls an operation gets the real primitive, and the operation is
// counted in Stats.ForeignOps. The turn holder is recognised by where its
// stack is: each controlled goroutine remembers an address in its stack
// from when it last proved who it is (at start, on waking, on the slow
// path), and a caller more than 2 KB from the turn holder's goes to the
// slow path, which identifies it by goroutine id (a few microseconds);
// once such a goroutine was seen, every caller in the process is
// identified by goroutine id. Exact identity at no cost would need the
// runtime's g, which only assembly can read, and assembly cannot be
// injected: the go command runs the assembler in the package's directory,
// and the runtime's exists only in the overlay.
package rt
