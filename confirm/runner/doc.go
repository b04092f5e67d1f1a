// Package runner builds a package's tests with Confirm's instrumentation
// and runs them under the controlled scheduler of confirm/rt.
//
// Build instruments one package (see confirm/instrument) and compiles its
// test binary once, with `go test -c` and the instrumenter's overlay, in the
// user's working directory so that go.mod, go.work and GOFLAGS apply as they
// do for `go test` (coverage flags, which do not work with overlays, are
// dropped). A package that does not compile gives a *BuildError quoting the
// compiler.
//
// Binary.Run runs one test of the binary under control: it writes the
// runtime's Config to a temporary file, starts the binary with
// CONFIRM_CONFIG naming it and reads back the runtime's Result. The process
// gets the search budget plus a grace period of wall time; a test that is
// still running then is killed and reported as a *HangError naming it. A
// process that dies without a final result (os.Exit or a fatal runtime
// error in code Confirm does not control) gives a Result with verdict
// "crashed" quoting the tail of its output. Binary.RunTests runs several
// tests, in parallel up to GOMAXPROCS processes, until the first error.
//
// Results carry the runtime's trace with each event's object named in the
// reviewer's words (from the instrumenter's Objects) and a Token that
// `confirm replay` takes: it names the test, the instrumentation options of
// the run and the runtime's own replay token, so the replay builds the same
// binary and follows the same schedule.
package runner
