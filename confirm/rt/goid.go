package rt

import (
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// curGoid returns the runtime's id of the calling goroutine, parsed from
// the first line of its stack ("goroutine 18 [running]:"). It costs a few
// microseconds: it is used only at goroutine start and on the slow path
// while goroutines run detached.
func curGoid() int64 {
	var buf [64]byte
	n := runtime.Stack(buf[:], false)
	return parseGoid(string(buf[:n]))
}

// parseGoid parses the goroutine id of a stack dump's header line.
func parseGoid(s string) int64 {
	const prefix = "goroutine "
	if len(s) < len(prefix) || s[:len(prefix)] != prefix {
		return 0
	}
	var id int64
	for _, c := range []byte(s[len(prefix):]) {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}

// blockedOutside reports whether the goroutine with runtime id goid is
// blocked (on a lock, a channel, a WaitGroup, a sleep, I/O), as a dump of
// all stacks says. Called when a controlled goroutine holding the turn
// has not reached its next scheduling point for a while: blocked, it is
// waiting in uncontrolled code for something another goroutine must do,
// and is detached at once instead of after the stall time. A dump stops
// the world, so it is taken once per such wait.
func blockedOutside(goid int64) bool {
	if goid == 0 {
		return false
	}
	buf := make([]byte, 64<<10)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	header := "goroutine " + strconv.FormatInt(goid, 10) + " ["
	i := strings.Index(string(buf), header)
	if i < 0 || i > 0 && buf[i-1] != '\n' {
		return false
	}
	dump := string(buf[i+len(header):])
	if j := strings.Index(dump, "\n\n"); j >= 0 {
		dump = dump[:j]
	}
	state := dump
	if j := strings.IndexAny(state, ",]"); j >= 0 {
		state = state[:j]
	}
	blocked := false
	for _, w := range blockedStates {
		blocked = blocked || strings.HasPrefix(state, w)
	}
	return blocked && !waitsInRuntime(dump)
}

// waitsInRuntime reports whether the first frame of a goroutine's stack
// dump (its header line first) that is not the standard library's is one
// of this package's: the goroutine waits in the scheduler itself (for its
// lock, or for testing to start a subtest's goroutine), not in
// uncontrolled code.
func waitsInRuntime(dump string) bool {
	lines := strings.Split(dump, "\n")
	for k := 1; k+1 < len(lines); k += 2 {
		file := strings.TrimSpace(lines[k+1])
		if strings.HasPrefix(file, stdSrc) {
			continue
		}
		return strings.HasPrefix(file, rtDir) && !strings.Contains(file, "_test.go:")
	}
	return false
}

// blockedStates are the states of a goroutine dump's header that mean the
// goroutine waits (see runtime's waitReason strings).
var blockedStates = []string{"semacquire", "sync.", "chan receive", "chan send", "select", "sleep", "IO wait", "sync.Cond.Wait"}

// Strays are controlled goroutines that outlived their execution (stuck in
// uncontrolled code when it ended). While any exist, every operation
// identifies its caller by goroutine id, so that a stray is never mistaken
// for the turn holder of a later execution; a stray's operations make it
// exit.
var (
	strayCount atomic.Int32
	strayMu    sync.Mutex
	strays     = map[int64]*G{}
)

// strayAdd registers g as a stray.
func strayAdd(g *G) {
	strayMu.Lock()
	defer strayMu.Unlock()
	if g.stray {
		return
	}
	g.stray = true
	strays[g.goid.Load()] = g
	strayCount.Add(1)
}

// strayRemove forgets g when it finally exits.
func strayRemove(g *G) {
	strayMu.Lock()
	defer strayMu.Unlock()
	if _, ok := strays[g.goid.Load()]; ok {
		delete(strays, g.goid.Load())
		strayCount.Add(-1)
	}
}

// strayEnter handles an operation called by a stray: it exits the
// goroutine, or returns modeDying while its defers run.
func strayEnter() (*G, mode) {
	id := curGoid()
	strayMu.Lock()
	g := strays[id]
	strayMu.Unlock()
	if g == nil {
		return nil, modeReal
	}
	if !g.exiting {
		g.kill()
	}
	return g, modeDying
}

// dyingPanic unwinds an adopted goroutine (testing's goroutine of a
// subtest), where runtime.Goexit would make testing fail the process.
type dyingPanic struct{}

// kill ends g, the calling goroutine, running its deferred calls.
func (g *G) kill() {
	g.exiting = true
	if g.adopted {
		panic(dyingPanic{})
	}
	runtime.Goexit()
}

// funcPC returns the entry PC of a func value's code.
func funcPC(f func()) uintptr {
	if f == nil {
		return 0
	}
	return **(**uintptr)(unsafe.Pointer(&f))
}

// capturePCs says whether operations record their position. Capturing
// costs about as much as the rest of a scheduling point, so searches run
// without it and re-run a failing execution with it (replay is exact), as
// do replays and strategies that rank positions.
var capturePCs atomic.Bool

// callerPC returns the PC of the user's call of the API function that
// calls callerPC.
//
//go:noinline
func callerPC() uintptr {
	if !capturePCs.Load() {
		return 0
	}
	var pcs [1]uintptr
	runtime.Callers(3, pcs[:])
	return pcs[0]
}

// captureStack returns the stack above the API function in buf (32
// frames at most), for strategies that rank goroutines by their call
// stacks.
func captureStack(buf []uintptr, skip int) []uintptr {
	if cap(buf) < maxStack {
		buf = make([]uintptr, maxStack)
	}
	buf = buf[:maxStack]
	return buf[:runtime.Callers(skip+1, buf)]
}

// maxStack is the depth of the stacks captured for strategies.
const maxStack = 32
