package rt

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// The model state of a Mutex, RWMutex, WaitGroup, Once or Cond lives in
// its execution, in exec.models, not in the value: an unlocked Mutex then
// equals a zero one, as a real one does, which tests check with ==, or
// reflect.DeepEqual after a reset, and the value has the real one's size.

// A modelKey identifies the model of a sync value: its address and kind.
type modelKey struct {
	addr unsafe.Pointer
	kind uint8
}

// modelOf returns the model of the sync value at addr in the execution,
// made on first use and numbered in first-use order; init sets its initial
// state and returns its header, which must be M's first field. Models are
// found by address (the map's fast path); two sync values of different
// kinds at one address, which the runtime's types cannot produce, would go
// to e.otherModels.
func modelOf[M any](e *exec, addr unsafe.Pointer, kind uint8, init func(*M) *objHdr) *M {
	if l := &e.lastModel; l.addr == addr && l.kind == kind && addr != nil {
		return (*M)(l.model) // the same object again, as in a loop
	}
	if p, ok := e.models[addr]; ok {
		if (*objHdr)(p).kind == kind {
			e.lastModel = lastModel{addr, kind, p}
			return (*M)(p)
		}
		if p, ok := e.otherModels[modelKey{addr, kind}]; ok {
			return (*M)(p)
		}
	}
	m := new(M)
	h := init(m)
	if unsafe.Pointer(h) != unsafe.Pointer(m) {
		panic("rt: a model's header is not its first field")
	}
	e.nobj++
	*h = objHdr{epoch: e.epoch, id: e.nobj, kind: kind}
	if e.models == nil {
		e.models = make(map[unsafe.Pointer]unsafe.Pointer)
	}
	if _, taken := e.models[addr]; !taken {
		e.models[addr] = unsafe.Pointer(m)
	} else {
		if e.otherModels == nil {
			e.otherModels = make(map[modelKey]unsafe.Pointer)
		}
		e.otherModels[modelKey{addr, kind}] = unsafe.Pointer(m)
	}
	return m
}

// lastModel is the model modelOf returned last, and its key.
type lastModel struct {
	addr  unsafe.Pointer
	kind  uint8
	model unsafe.Pointer
}

// mutexModel is a Mutex in an execution.
type mutexModel struct {
	h     objHdr
	held  bool
	owner int
	pc    uintptr // where the holder locked it (when positions are recorded)
}

func (m *Mutex) modelLocked(e *exec) *mutexModel {
	return modelOf(e, unsafe.Pointer(m), kindMutex, func(mm *mutexModel) *objHdr {
		mm.owner = -1
		return &mm.h
	})
}

// rwModel is an RWMutex in an execution (see RWMutex).
type rwModel struct {
	h        objHdr
	wHeld    bool // a writer holds or waits for the lock
	wOwner   int
	wPC      uintptr // where the writer locked it (when positions are recorded)
	readers  int     // active readers
	readerGs []int   // their goroutines (for the wait-for graph)
	rvc      vclock
}

func (rw *RWMutex) modelLocked(e *exec) *rwModel {
	return modelOf(e, unsafe.Pointer(rw), kindRWMutex, func(m *rwModel) *objHdr {
		m.wOwner = -1
		return &m.h
	})
}

// wgModel is a WaitGroup in an execution.
type wgModel struct {
	h     objHdr
	count int
}

func (wg *WaitGroup) modelLocked(e *exec) *wgModel {
	return modelOf(e, unsafe.Pointer(wg), kindWG, func(m *wgModel) *objHdr {
		e.wgs = append(e.wgs, unsafe.Pointer(wg))
		return &m.h
	})
}

// endedWGs holds the addresses of the WaitGroups the execution that ended
// last modelled: their counters lived in its models, not in the real
// WaitGroups, so what uncontrolled code does with them afterwards (a
// cleanup testing runs, a goroutine that outlived the execution) must not
// reach the real counter, which a Done would make negative.
var endedWGs atomic.Pointer[[]unsafe.Pointer]

// modelledBefore reports whether the execution that ended last modelled
// wg.
func (wg *WaitGroup) modelledBefore() bool {
	p := endedWGs.Load()
	return p != nil && slices.Contains(*p, unsafe.Pointer(wg))
}

// onceModel is a Once in an execution; whether f ran is the Once's own
// state (it persists across executions, like the package state it
// initialises).
type onceModel struct {
	h       objHdr
	once    *Once
	running bool
	runner  int
}

func (o *Once) modelLocked(e *exec) *onceModel {
	return modelOf(e, unsafe.Pointer(o), kindOnce, func(m *onceModel) *objHdr {
		m.once, m.runner = o, -1
		return &m.h
	})
}

// condModel is a Cond in an execution.
type condModel struct {
	h       objHdr
	waiters []*G
}

func (c *Cond) modelLocked(e *exec) *condModel {
	return modelOf(e, unsafe.Pointer(c), kindCond, func(m *condModel) *objHdr { return &m.h })
}
