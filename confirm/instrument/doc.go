// Package instrument rewrites the Go files of one package (its non-test
// files, its internal test files and its external test package) so that
// the package's tests run under the controlled scheduler of
// github.com/confirm-go/confirm/confirm/rt, and delivers the result as a
// `go test -overlay` file. The user's tree is never written.
//
// # Delivery
//
// Instrument loads the package with go/packages, rewrites every file into a
// temporary directory (and the non-test files of every other package of
// the main modules that the test binary links, for their synchronization
// only: a lock or a channel of a package the test merely imports is then
// scheduled and ordered like the package's own; a package that uses cgo
// or imports the package under test stays uncontrolled, with a note), and
// injects the runtime's own source (rt.Source) as an overlay-only package
// <module root>/confirmrt_<random> with import path
// <module path>/confirmrt_<random>; rewritten files import it as confirmrt
// on the line of their package clause. The overlay-only directory does not
// exist on disk, so go test needs -vet=off; coverage flags do not work with
// it (golang/go#73802) and are stripped. Result.GoTestFlags returns the
// flags. Module, vendor and workspace (go.work) modes work; GOPATH mode,
// cgo packages and packages of dependency modules (in the module cache,
// which overlays may not replace) are refused with an error.
//
// # Line numbers
//
// The rewrite is a set of byte-offset edits on the original source that
// never add or remove a newline, so every line keeps its number and
// cmd/go maps the overlay file back to the original name: test failures and
// panics report the user's file:line. Text moved to an earlier position on
// another line (the operands of a select, the arguments of a go statement)
// is put on one line and framed by /*line file:line:col*/ directives.
//
// # Rewrites
//
// The rewrites are those of rt/API.md:
//
//   - func TestX(t *testing.T) { B } becomes a wrapper calling
//     confirmrt.RunTest(t, confirmTestX) and func confirmTestX(t *testing.T) { B };
//     t.Parallel() becomes confirmrt.Parallel(t), t.Run(name, f)
//     confirmrt.Run(t, name, f) (subtests run as controlled goroutines)
//     t.Cleanup(f) confirmrt.Cleanup(t, f) (cleanups run under control,
//     at the end of their test's function) and t.Context()
//     confirmrt.TestContext(t) (cancelled under control before them).
//   - go f(a, b): the function value (unless it is a declared function, a
//     method expression or a function literal) and the arguments (unless
//     constant) are evaluated into temporaries in the spawning goroutine,
//     then confirmrt.Go(func() { f1(a1, b1) }); a call of a func() value
//     without arguments becomes confirmrt.Go(f). Builtins (go close(c)) and
//     generic functions (go F[T](x), go F(x)) are called inside the closure.
//   - sync.Mutex, RWMutex, WaitGroup, Once, Cond, Locker, NewCond, OnceFunc,
//     OnceValue(s) and the sync/atomic types and functions are replaced by
//     confirmrt's, as type and function references (so embedded mutexes,
//     method values, sync.Locker calls and type arguments are covered);
//     time.Sleep, Now, Since, Until, After, Tick, NewTimer, NewTicker,
//     AfterFunc (and the Stop and Reset calls of timers and tickers),
//     context.WithCancel, WithTimeout, WithDeadline and their Cause
//     variants, the
//     top-level functions of math/rand and math/rand/v2,
//     testing.AllocsPerRun, runtime.Gosched, os.Exit and log.Fatal, Fatalf,
//     Fatalln likewise. Imports left without use become blank imports.
//   - make(chan T, n), send, receive (in any expression; v, ok := <-c in
//     assignments and var declarations), close, for range over a channel,
//     and select (with or without default, labelled, empty) are lowered to
//     MakeChan, Send, Recv, Recv2, Close and Select with the helpers of
//     rt/lower.go. Channel types are kept.
//   - Request.Locations add Observe points before the statement at a line
//     and read and write points at the accesses they name; Request.Accesses
//     adds every read and write of struct fields and package-level
//     variables in the non-test files. An access is a scheduling point at
//     the moment it happens (see instrumentAccess): a read is wrapped in
//     place (confirmrt.Rd(&x, loc)), a write gets its point before its
//     statement when that neither calls nor receives, after it when it
//     does, or wraps the right-hand side in an init or post statement
//     (confirmrt.W(&x, loc).V(rhs)). A point outside the expression takes
//     the address under a guard that keeps nil pointers and out-of-range
//     indexes from panicking.
//   - A call into code that is not rewritten and may synchronize
//     goroutines is followed by a scheduling point that orders such calls
//     (rt's Ext): f(x) with N results becomes confirmrt.ExtN(f(x)), a call
//     statement is followed by confirmrt.ExtDone(), a deferred call is
//     preceded by defer confirmrt.ExtDone(). Such calls are those of a
//     package outside the standard library that is not rewritten and
//     imports sync or sync/atomic (or a package of its own module that
//     does), the methods of sync.Map, sync.Pool, io.PipeReader and
//     io.PipeWriter, and calls through sync.Locker. A race whose accesses
//     that code may order is so never reported; one that only a channel
//     of a dependency, or another module it calls, orders is not covered.
//
// # Not instrumented
//
// Channel operations, selects and ranges on channels of type parameter type
// (`func f[C ~chan int](c C)`) are left as they are; so are the methods
// (*log.Logger).Fatal*, method values of t.Parallel and t.Run, and everything in
// other modules' packages (goroutines started by a dependency run
// uncontrolled).
// Timers made by uncontrolled code stay real: their channels are external
// to the scheduler. Accesses whose address cannot be taken (map elements,
// call results, type assertions), operands of unsafe.Sizeof, and writes in
// a multiple assignment that is an init or post statement get no point.
// Each case adds a note to Result.Notes. The go statement arguments that are untyped comparisons
// passed to a parameter of a named boolean type are evaluated in the new
// goroutine. The renamed test bodies (confirmTestX) appear in stacks.
//
// After the rewrite, the package is type-checked against the runtime. A
// variable or field whose replaced sync type flows into code that needs
// the real one (a dependency's *sync.Mutex parameter) keeps its real type,
// and Result.Notes says so; so do all constructs left uninstrumented.
//
// Some notes limit what the scheduler controls, and are also in
// Result.Uncontrolled: a sync value kept real, a package of the module
// that stays uncontrolled, a channel operation on a type parameter
// channel (or a send or range the rewrite cannot lower), a call into
// synchronizing code without its Ext point, and context.AfterFunc and
// runtime.Goexit. Their operations are not scheduling points: a search
// that explores every schedule explores none of their interleavings. The
// other notes limit nothing the scheduler interleaves: an access without
// its point (the race oracle does not see it; a requested one is also in
// Result.Unobserved), a requested location not found, an exit of
// (*log.Logger).Fatal, a go statement argument evaluated in the new
// goroutine.
package instrument
