package rt

import (
	"fmt"
	"log"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
	"unsafe"
)

// Go replaces a go statement whose function value and arguments were
// evaluated in the spawning goroutine. Under control the new goroutine is
// controlled; its id is its creation order in the execution.
func Go(f func()) { goAt(callerPC(), f) }

func goAt(pc uintptr, f func()) {
	e, g, md := enter()
	switch md {
	case modeReal:
		go f()
		return
	case modeDying:
		return
	}
	g.op = op{kind: opGo, pc: pc, fn: f}
	e.point(g)
}

// Gosched replaces runtime.Gosched: a yield. The yielding goroutine gets
// lower priority until the goroutines enabled at the yield have run.
func Gosched() {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		runtime.Gosched()
		return
	case modeDying:
		return
	}
	g.op = op{kind: opYield, pc: pc}
	e.point(g)
}

// Read is a read of addr the driver asked for, inserted before a
// statement that neither calls nor receives; loc indexes
// Config.Locations. (Reads are wrapped in place with Rd.)
func Read(addr unsafe.Pointer, loc int) { access(callerPC(), opRead, addr, loc) }

// Write is a write of addr the driver asked for: inserted before a
// statement that neither calls nor receives, or right after one that
// does (nothing happens between the store and the point).
func Write(addr unsafe.Pointer, loc int) { access(callerPC(), opWrite, addr, loc) }

// Rd replaces a read x of a variable or field the driver asked for:
// x becomes Rd(&x, loc). The read is a scheduling point where Go's order
// of evaluation loads the value (after the calls and receives to its
// left), and Rd returns the value loaded after it.
func Rd[T any](p *T, loc int) T {
	accessOf[T](callerPC(), opRead, unsafe.Pointer(p), loc)
	return *p
}

// RdP is Rd for a value that must stay addressable (an array that is
// indexed or sliced): x becomes (*RdP(&x, loc)).
func RdP[T any](p *T, loc int) *T {
	accessOf[T](callerPC(), opRead, unsafe.Pointer(p), loc)
	return p
}

// A Writer is a write about to happen: W(&x, loc).V(v) is a scheduling
// point for the write of x after v was evaluated, and returns v, so that
// x = rhs becomes x = W(&x, loc).V(rhs) where no statement can follow
// the assignment (the post statement of a for loop, say).
type Writer[T any] struct {
	p   *T
	loc int
}

// W returns the write of *p at location loc.
func W[T any](p *T, loc int) Writer[T] { return Writer[T]{p: p, loc: loc} }

// V is the scheduling point of w, after the value v was evaluated; it
// returns v.
func (w Writer[T]) V(v T) T {
	accessOf[T](callerPC(), opWrite, unsafe.Pointer(w.p), w.loc)
	return v
}

func access(pc uintptr, kind opKind, addr unsafe.Pointer, loc int) {
	accessWith(pc, kind, addr, loc, nil)
}

// accessOf is access for a value of type T: a struct read or written
// whole (peer := s.peer) accesses each of its fields, so that it races
// with an access of one of them (s.peer.count++).
func accessOf[T any](pc uintptr, kind opKind, addr unsafe.Pointer, loc int) {
	accessWith(pc, kind, addr, loc, fieldsOf[T])
}

// fieldsOf returns the fieldOffsets of T.
func fieldsOf[T any]() []uintptr { return fieldOffsets(reflect.TypeFor[T]()) }

// accessWith makes the read or write of addr a scheduling point; fields,
// when not nil, gives the offsets of the fields it touches, and is only
// asked under control.
func accessWith(pc uintptr, kind opKind, addr unsafe.Pointer, loc int, fields func() []uintptr) {
	e, g, md := enter()
	if md != modeCtl {
		return
	}
	g.op = op{kind: kind, pc: pc, addr: addr, loc: loc, hdr: e.varHdrLocked(addr)}
	if fields != nil {
		g.op.fields = fields()
	}
	e.point(g)
}

// Observe is a scheduling point at key location loc.
func Observe(loc int) {
	pc := callerPC()
	e, g, md := enter()
	if md != modeCtl {
		return
	}
	g.op = op{kind: opObserve, pc: pc, loc: loc}
	e.point(g)
}

// Parallel replaces t.Parallel(): a no-op under control.
func Parallel(t *testing.T) {
	e, _, md := enter()
	switch md {
	case modeCtl:
		e.mu.Unlock()
		return
	case modeDying:
		return
	}
	t.Parallel()
}

// AllocsPerRun replaces testing.AllocsPerRun. Under control the
// instrumentation and the scheduler allocate on the test's behalf, so the
// count would measure them: f runs once and the result is 0 (a test that
// asserts few allocations passes, one that asserts many would fail
// without any interleaving and is reported so). Otherwise it is
// testing.AllocsPerRun.
func AllocsPerRun(runs int, f func()) float64 {
	e, _, md := enter()
	switch md {
	case modeReal:
		return testing.AllocsPerRun(runs, f)
	case modeCtl:
		e.mu.Unlock()
	}
	f()
	return 0
}

// Exit replaces os.Exit: under control it ends the execution with failure
// kind "exit" (and ends the calling goroutine); otherwise it calls os.Exit.
func Exit(code int) {
	exitMsg(fmt.Sprintf("os.Exit(%d) called", code))
	os.Exit(code)
}

// exitMsg ends the execution of a controlled caller with an exit failure.
func exitMsg(msg string) {
	e, g, md := enter()
	switch md {
	case modeReal:
		return
	case modeDying:
		g.kill()
	}
	stack := string(debug.Stack())
	e.endLocked(&Failure{
		Kind:       FailExit,
		Message:    fmt.Sprintf("%s in goroutine %d", msg, g.id),
		Stack:      userFrames(stack),
		Goroutines: []int{g.id},
		Frames:     userFramePositions(stack),
	})
	e.mu.Unlock()
	g.kill()
}

// Fatal replaces log.Fatal: it logs, then behaves like Exit(1).
func Fatal(v ...any) {
	_ = log.Output(2, fmt.Sprint(v...))
	exitMsg("log.Fatal called")
	os.Exit(1)
}

// Fatalf replaces log.Fatalf.
func Fatalf(format string, v ...any) {
	_ = log.Output(2, fmt.Sprintf(format, v...))
	exitMsg("log.Fatalf called")
	os.Exit(1)
}

// Fatalln replaces log.Fatalln.
func Fatalln(v ...any) {
	_ = log.Output(2, fmt.Sprintln(v...))
	exitMsg("log.Fatalln called")
	os.Exit(1)
}
