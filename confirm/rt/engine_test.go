package rt

import "testing"

// TestAlwaysEnabled checks the fast path of canRunLocked: every operation
// kind in alwaysEnabled must be one the full check never blocks.
func TestAlwaysEnabled(t *testing.T) {
	e := &exec{}
	for k := opNone; k < numOpKinds; k++ {
		if alwaysEnabled&(1<<k) == 0 {
			continue
		}
		g := &G{op: op{kind: k}}
		if !e.mayProceedLocked(g) {
			t.Errorf("%v is in alwaysEnabled but may block", k)
		}
	}
}
