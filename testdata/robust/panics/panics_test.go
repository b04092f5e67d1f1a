package panics

import "testing"

func TestFirst(t *testing.T) {
	if got := First(nil); got != 0 {
		t.Errorf("First(nil) = %d, want 0", got)
	}
}
