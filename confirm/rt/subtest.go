package rt

import (
	"sync"
	"testing"
)

// subtest is a t.Run whose function runs as a controlled goroutine.
type subtest struct {
	t         *testing.T
	name      string
	f         func(*testing.T)
	child     *G
	adopted   chan struct{}
	adoptOnce sync.Once
	done      chan struct{}
	ok        bool
}

func (s *subtest) markAdopted() { s.adoptOnce.Do(func() { close(s.adopted) }) }

// Run replaces t.Run(name, f). Under control, f runs as a controlled
// goroutine: testing's own goroutine for the subtest is adopted as a new
// controlled goroutine, and the caller waits for it as a modelled blocking
// operation ("subtest"). Outside control it is t.Run.
func Run(t *testing.T, name string, f func(*testing.T)) bool {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		return t.Run(name, f)
	case modeDying:
		return false
	}
	sub := &subtest{t: t, name: name, f: f, adopted: make(chan struct{}), done: make(chan struct{})}
	g.op = op{kind: opGo, pc: pc, sub: sub}
	e.point(g)
	// Holding the turn, wait until testing has started the subtest's
	// goroutine, so that the child is enabled at the same step in every
	// replay.
	<-sub.adopted
	e, g, md = enter()
	if md == modeCtl {
		g.op = op{kind: opSubtest, pc: pc, sub: sub}
		e.point(g)
	}
	<-sub.done
	return sub.ok
}

// newSubtestLocked creates the controlled goroutine of a subtest and asks
// testing to run it.
func (e *exec) newSubtestLocked(parent *G, pc uintptr, sub *subtest) *G {
	child := e.newGLocked(parent, pc, nil)
	child.fnPC = funcPC(func() { sub.f(nil) })
	child.adopting = true
	child.op.ext = true // waits for testing, like an external event
	sub.child = child
	go func() {
		sub.ok = sub.t.Run(sub.name, func(st *testing.T) { e.adopt(child, sub, st) })
		sub.markAdopted()
		close(sub.done)
	}()
	return child
}

// adopt makes the calling goroutine (testing's goroutine of a subtest) the
// controlled goroutine g.
func (e *exec) adopt(g *G, sub *subtest, st *testing.T) {
	e.mu.Lock()
	g.adopting, g.adopted = false, true
	g.op.ext = false
	if e.cleanups == nil {
		e.cleanups = make(map[cleaner][]func())
	}
	e.cleanups[st] = nil
	e.mu.Unlock()
	sub.markAdopted()
	g.identify() // known by goroutine id on the slow path (see callerLocked)
	<-g.wake
	g.sp.Store(stackAddr())
	e.run(g, func() {
		defer e.runCleanups(st)
		sub.f(st)
	})
}

// A cleaner is what t.Cleanup is called on: a *testing.T, B or TB.
type cleaner interface{ Cleanup(func()) }

// Cleanup replaces t.Cleanup(f). Under control, when t is the test or a
// subtest of the execution, f runs when t's function returns, in its
// controlled goroutine (last registered first), so that what it does —
// closing a pool, waiting for its goroutines — is scheduled and modelled
// like the rest of the test; testing would run it after the execution
// ended, outside control. Otherwise it is t.Cleanup(f).
func Cleanup(t cleaner, f func()) {
	e, _, md := enter()
	switch md {
	case modeReal:
		t.Cleanup(f)
		return
	case modeDying:
		return
	}
	defer e.mu.Unlock()
	if _, ours := e.cleanups[t]; !ours {
		t.Cleanup(f)
		return
	}
	e.cleanups[t] = append(e.cleanups[t], f)
}

// ownCleanups makes the cleanups registered on t run by runCleanups.
func (e *exec) ownCleanups(t cleaner) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.cleanups == nil {
		e.cleanups = make(map[cleaner][]func())
	}
	e.cleanups[t] = nil
}

// runCleanups cancels t's context and runs the cleanups registered on t,
// last first, as testing does.
func (e *exec) runCleanups(t cleaner) {
	e.cancelTestContext(t)
	for {
		e.mu.Lock()
		fs := e.cleanups[t]
		if len(fs) == 0 {
			e.mu.Unlock()
			return
		}
		f := fs[len(fs)-1]
		e.cleanups[t] = fs[:len(fs)-1]
		e.mu.Unlock()
		f()
	}
}
