package goroutines

import "testing"

// The test names the line before anything is sent on it: the loop reads
// the name only after a send that comes later. Silent.
func TestLineNamedFirst(t *testing.T) {
	l := NewLine(func(string, int) {})
	l.name = "a"
	l.Write(1)
	close(l.done)
}

// Here a send comes first: the loop may be reading the name while the
// test writes it.
func TestLineRenamed(t *testing.T) {
	l := NewLine(func(string, int) {})
	l.Write(1)
	l.name = "b" // want `possible data race: \(goroutines.Line\).name is written by goroutines.TestLineRenamed and read by goroutine \(\*goroutines.Line\).writeLoop`
	close(l.done)
}

// Lines written to before this one was made: their sends cannot reach
// the new line's channel, which NewLine made. Silent.
func TestLineNamedAfterOthers(t *testing.T) {
	old := NewLine(func(string, int) {})
	old.Write(1)
	l := NewLine(func(string, int) {})
	l.name = "c"
	l.Write(2)
	close(l.done)
	close(old.done)
}
