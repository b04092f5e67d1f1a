package resets

import "testing"

// TestFree fails on every run, whatever the schedule: it expects the log
// to keep its first line after Free.
func TestFree(t *testing.T) {
	l := NewLog("a")
	l.Add("b")
	l.Free()
	if got := l.Len(); got != 1 {
		t.Errorf("len = %d after Free, want 1", got)
	}
}
