package latchfixed

import "testing"

func TestWaitRelease(t *testing.T) {
	l := New()
	go l.Release()
	l.Wait()
}
