package rt

import "unsafe"

// opKind is the kind of a goroutine's pending operation.
type opKind uint8

// The operation kinds. Their numeric values are part of the replay token
// format: append new kinds at the end, below 32.
const (
	opNone opKind = iota
	opStart
	opGo
	opExit
	opLock
	opUnlock
	opRLock
	opRUnlock
	opTryLock
	opTryRLock
	opWGAdd
	opWGWait
	opOnce
	opCondWait
	opCondSignal
	opCondBroadcast
	opSend
	opRecv
	opClose
	opSelect
	opAtomic
	opYield
	opSleep
	opRead
	opWrite
	opObserve
	opCondSleep
	opSubtest
	opExt
	numOpKinds
)

var opNames = [numOpKinds]string{
	opNone:          "none",
	opStart:         "start",
	opGo:            "go",
	opExit:          "exit",
	opLock:          "lock",
	opUnlock:        "unlock",
	opRLock:         "rlock",
	opRUnlock:       "runlock",
	opTryLock:       "trylock",
	opTryRLock:      "tryrlock",
	opWGAdd:         "wg.add",
	opWGWait:        "wg.wait",
	opOnce:          "once",
	opCondWait:      "cond.wait",
	opCondSignal:    "cond.signal",
	opCondBroadcast: "cond.broadcast",
	opSend:          "send",
	opRecv:          "recv",
	opClose:         "close",
	opSelect:        "select",
	opAtomic:        "atomic",
	opYield:         "yield",
	opSleep:         "sleep",
	opRead:          "read",
	opWrite:         "write",
	opObserve:       "observe",
	opCondSleep:     "cond.wait",
	opSubtest:       "subtest",
	opExt:           "outside",
}

func (k opKind) String() string {
	if k < numOpKinds {
		return opNames[k]
	}
	return "op?"
}

// Object kinds, as reported in Event.ObjectKind.
const (
	kindNone uint8 = iota
	kindMutex
	kindRWMutex
	kindChan
	kindWG
	kindOnce
	kindCond
	kindVar
)

var kindNames = [...]string{"", "mutex", "rwmutex", "chan", "wg", "once", "cond", "var"}

// objHdr is the model state every modelled object shares: the execution
// it was last used in (so state left over by an earlier execution is
// reset), its id in first-use order, its vector clock and its
// happens-before hash.
type objHdr struct {
	epoch uint64
	id    int
	kind  uint8
	vc    vclock
	hb    uint64
}

// op is a goroutine's pending operation and, once executed, its result.
type op struct {
	// The fields the scheduler reads at every decision come first, so
	// that checking a parked goroutine touches few cache lines.
	kind       opKind
	done       bool  // completed by a partner or an external poll
	hasDefault bool  // select with a default case
	ext        bool  // some case is on a channel the execution did not make
	phase      uint8 // rlock/lock of RWMutex: 1 = registered and waiting

	pc  uintptr
	hdr *objHdr

	mu   *mutexModel
	rw   *rwModel
	wg   *wgModel
	once *onceModel
	cond *condModel

	// Channel operations: c0 is the single case of send/recv, cases the
	// cases of a select.
	c0    Case
	cases []Case

	addr unsafe.Pointer // read/write/atomic
	// fields are the offsets from addr of the fields a read or write of
	// a whole struct accesses (see fieldOffsets); nil for one variable.
	fields []uintptr
	loc    int
	delta  int // wg.add
	fn     func()
	sub    *subtest // go (spawning a subtest) and subtest (waiting for it)

	// Results.
	choice   int    // select case taken (-1 default)
	ok       bool   // trylock result, once: run f
	panicMsg string // the operation panics in its goroutine
	extClose bool   // close an external channel after waking
	hbDone   bool   // the happens-before hash was updated by a rendezvous
	load     bool   // an atomic load (it polls in a loop)
}

// ncases returns the number of channel cases of o.
func (o *op) ncases() int {
	if o.kind == opSelect {
		return len(o.cases)
	}
	if o.kind == opSend || o.kind == opRecv {
		return 1
	}
	return 0
}

// caseAt returns the i-th channel case of o.
func (o *op) caseAt(i int) *Case {
	if o.kind == opSelect {
		return &o.cases[i]
	}
	return &o.c0
}
