package sequence

import (
	"go/token"
	"testing"
)

// TestAddSkipsHintsWithoutPosition: an observe step with no position
// cannot be instrumented (pfsm would reject it as a target) and is left
// out; other steps are kept.
func TestAddSkipsHintsWithoutPosition(t *testing.T) {
	var s Sequence
	at := token.Position{Filename: "/p/a.go", Line: 3, Column: 2}
	s.add(at, KindObserve, "call f", "on the path")
	s.add(token.Position{}, KindObserve, "ref g", "hands over g")
	s.add(at, KindWrite, "writes x", "racing access 0")
	if len(s.Steps) != 2 || len(s.Why) != 2 || s.Steps[0].Label != "call f" || s.Steps[1].Kind != KindWrite {
		t.Errorf("steps %+v, why %q", s.Steps, s.Why)
	}
}
