package goroutines

import "testing"

// newTestLine starts the line's loop itself: a goroutine the test's own
// code starts, whose pairings with the test are checked.
func newTestLine() *Line {
	l := &Line{out: make(chan int), done: make(chan struct{}), sink: func(string, int) {}}
	go l.writeLoop()
	return l
}

// The test names the line before anything is sent on it: the loop reads
// the name only after a send that comes later. Silent.
func TestLineNamedFirst(t *testing.T) {
	l := newTestLine()
	l.name = "a"
	l.Write(1)
	close(l.done)
}

// Here a send comes first: the loop may be reading the name while the
// test writes it.
func TestLineRenamed(t *testing.T) {
	l := newTestLine()
	l.Write(1)
	l.name = "b" // want `possible data race: \(goroutines.Line\).name is written by goroutines.TestLineRenamed and read by goroutine \(\*goroutines.Line\).writeLoop`
	close(l.done)
}

// The same, on a line whose loop the package's NewLine started: a
// white-box test setting a field next to the package's own goroutine,
// which the test takes to be idle. Left alone (see the pokes fixture).
func TestLineRenamedByPackage(t *testing.T) {
	l := NewLine(func(string, int) {})
	l.Write(1)
	l.name = "b"
	close(l.done)
}

// Lines written to before this one was made: their sends cannot reach
// the new line's channel, which newTestLine made. Silent.
func TestLineNamedAfterOthers(t *testing.T) {
	old := newTestLine()
	old.Write(1)
	l := newTestLine()
	l.name = "c"
	l.Write(2)
	close(l.done)
	close(old.done)
}
