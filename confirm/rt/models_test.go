package rt

import (
	"testing"
	"unsafe"
)

// TestModelOf checks that models are made once per address and kind, in
// first-use order, and that two kinds at one address get models of their
// own.
func TestModelOf(t *testing.T) {
	e := &exec{epoch: 7, models: make(map[unsafe.Pointer]unsafe.Pointer)}
	var x [2]int64
	a, b := unsafe.Pointer(&x[0]), unsafe.Pointer(&x[1])
	newMu := func(m *mutexModel) *objHdr { m.owner = -1; return &m.h }
	newWG := func(m *wgModel) *objHdr { return &m.h }
	ma := modelOf(e, a, kindMutex, newMu)
	mb := modelOf(e, b, kindMutex, newMu)
	wa := modelOf(e, a, kindWG, newWG)
	switch {
	case modelOf(e, a, kindMutex, newMu) != ma || modelOf(e, a, kindWG, newWG) != wa:
		t.Errorf("a second use made a new model")
	case ma.h.id != 1 || mb.h.id != 2 || wa.h.id != 3:
		t.Errorf("ids %d %d %d, want 1 2 3", ma.h.id, mb.h.id, wa.h.id)
	case ma.owner != -1 || ma.h.kind != kindMutex || wa.h.kind != kindWG || ma.h.epoch != 7:
		t.Errorf("initial state: %+v %+v", ma, wa)
	}
}
