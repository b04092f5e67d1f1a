package journal

import "testing"

// TestMove makes two opposite moves, the second after the first.
func TestMove(t *testing.T) {
	a, b := &Journal{entries: []string{"x"}}, &Journal{}
	done := make(chan bool)
	go func() {
		Move(a, b)
		done <- true
	}()
	<-done
	Move(b, a)
	a.Flush()
}
