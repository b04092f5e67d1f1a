package serial

import "testing"

// TestWrongSum expects a wrong total: it fails in every execution.
func TestWrongSum(t *testing.T) {
	if got := Sum([]int{1, 2, 3, 4}); got != 11 {
		t.Errorf("Sum = %d, want 11", got)
	}
}

// TestRegisterOnce passes once per process: a second run finds the name
// registered.
func TestRegisterOnce(t *testing.T) {
	if !Register("serial") {
		t.Fatal("serial was registered already")
	}
	if got := Sum([]int{1, 2}); got != 3 {
		t.Errorf("Sum = %d, want 3", got)
	}
}
