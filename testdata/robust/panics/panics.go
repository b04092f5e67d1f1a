// Package panics has a function that panics on an empty input.
package panics

// First returns the first element of xs.
func First(xs []int) int { return xs[0] }
