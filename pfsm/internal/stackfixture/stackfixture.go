// Package stackfixture is code that the pfsm tests both analyze and run:
// a stack captured inside it must map to the nodes of its SSA form.
package stackfixture

// Sink keeps the fixture's statements from being optimized away.
var Sink int

// Outer calls probe through inner, then reaches Target.
func Outer(probe func()) {
	inner(probe) // @o0
	step()
	Target()
}

func inner(probe func()) {
	probe() // @i0
	step()
}

func step() { Sink++ }

// Target holds the key location of the test.
func Target() {
	Sink-- // @target
}

// Closure returns a function literal that reaches Target.
func Closure() func() {
	return func() {
		step()
		Target()
	}
}

// T has a method whose method value the tests start.
type T struct{}

// Run reaches Target.
func (T) Run() {
	step()
	Target()
}
