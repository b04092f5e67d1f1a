// Package tally counts; the race is in its test, whose goroutines bump a
// counter of the test function without synchronization. Test code is
// program code: its accesses are instrumented like the package's.
package tally

// Add returns a+b.
func Add(a, b int) int { return a + b }
