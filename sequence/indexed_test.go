package sequence_test

import (
	"reflect"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/sequence"
)

func TestIndexed(t *testing.T) {
	l := func(line int, kind string) rt.Location {
		return rt.Location{File: "/p/a.go", Line: line, Col: 2, Kind: kind}
	}
	seq := sequence.Sequence{Steps: []rt.Location{
		l(12, "observe"), l(12, "observe"), l(14, "observe"), l(14, "observe"), l(20, "read"), l(20, "write"), l(7, "observe"),
	}}
	// Line 7 is already requested (another sequence's step, or an
	// access the driver wants): it is reused.
	existing := []rt.Location{l(30, "observe"), l(7, "observe")}
	locs, idx := seq.Indexed(existing)
	wantLocs := []rt.Location{l(30, "observe"), l(7, "observe"), l(12, "observe"), l(14, "observe"), l(20, "read"), l(20, "write")}
	if !reflect.DeepEqual(locs, wantLocs) {
		t.Errorf("locations = %v, want %v", locs, wantLocs)
	}
	if want := []int{2, 2, 3, 3, 4, 5, 1}; !reflect.DeepEqual(idx, want) {
		t.Errorf("sequence = %v, want %v", idx, want)
	}
}
