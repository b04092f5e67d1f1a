// Package broken does not type-check: loading it must fail with the cause.
package broken

func answer() int { return "forty-two" }
