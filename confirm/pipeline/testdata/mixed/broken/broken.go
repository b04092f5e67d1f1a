// Package broken does not compile.
package broken

// Answer returns a string where an int is declared.
func Answer() int { return "forty-two" }
