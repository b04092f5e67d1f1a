// Package tallyfixed is tally with the test's counter under a mutex.
package tallyfixed

// Add returns a+b.
func Add(a, b int) int { return a + b }
