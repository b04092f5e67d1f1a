// Package synth writes concurrent tests for warnings that no test of the
// package can show.
//
// A data race between two methods of a type, or a lock-order cycle between
// two of its methods, is only ever shown by a test that calls both at
// once; many packages have no such test. For each such warning synth
// writes a harness test, in the spirit of ConTeGe (Pradel and Gross, PLDI
// 2012): it builds the shared value through the package's API (the
// constructor that returns it, with the fewest parameters, or its zero
// value), makes the calls a caller must make first for the warned code to
// run (the functions whose stores feed the branches that guard the
// accesses, and each side once), and then calls the two sides of the
// warning from two goroutines. The harness uses what a client of the
// package can use: exported functions and methods only, so that an
// unexported helper documented "must be called with the lock held" is
// never called without it.
//
// A harness is a plain Go test function in an internal test file that
// exists only in the overlay the package is built with; the user's tree is
// never written. Its source is kept so that a reviewer can judge it.
package synth
