package rt

import (
	"cmp"
	"context"
	"fmt"
	"sync/atomic"
	"time"
	"unsafe"
)

// Context deadlines on the virtual clock. Under control, WithDeadline and
// WithTimeout (and their Cause variants) return a context that the
// virtual clock cancels: its Deadline is virtual, its Err is
// context.DeadlineExceeded once the deadline passed (context.Canceled when
// its CancelFunc came first), and context.Cause reports the cause, as the
// real ones do. It is built on context.WithCancelCause, so contexts
// derived from it by uncontrolled code are cancelled with it, with
// context.Canceled as their Err (context.Cause still says why); contexts
// derived in rewritten code are virtual too. A goroutine waiting on its
// Done channel waits on time (see waitsOnTimeLocked).

// deadlineCtx is a context with a deadline on the virtual clock.
type deadlineCtx struct {
	context.Context // from context.WithCancelCause: Done, Value, cancellation of children
	deadline        time.Time
	expired         atomic.Bool // the deadline passed before a cancel
}

func (c *deadlineCtx) Deadline() (time.Time, bool) { return c.deadline, true }

func (c *deadlineCtx) Err() error {
	err := c.Context.Err()
	if err != nil && c.expired.Load() {
		return context.DeadlineExceeded
	}
	return err
}

func (c *deadlineCtx) String() string {
	return fmt.Sprintf("%v.WithDeadline(%v [virtual clock])", c.Context, c.deadline)
}

// WithDeadline replaces context.WithDeadline.
func WithDeadline(parent context.Context, d time.Time) (context.Context, context.CancelFunc) {
	return withDeadline(parent, d, nil)
}

// WithDeadlineCause replaces context.WithDeadlineCause.
func WithDeadlineCause(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, d, cause)
}

// WithTimeout replaces context.WithTimeout.
func WithTimeout(parent context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	return withDeadline(parent, clockNow().Add(timeout), nil)
}

// WithTimeoutCause replaces context.WithTimeoutCause.
func WithTimeoutCause(parent context.Context, timeout time.Duration, cause error) (context.Context, context.CancelFunc) {
	return withDeadline(parent, clockNow().Add(timeout), cause)
}

func withDeadline(parent context.Context, d time.Time, cause error) (context.Context, context.CancelFunc) {
	e, g, md := enter()
	if md != modeCtl {
		if cause != nil {
			return context.WithDeadlineCause(parent, d, cause)
		}
		return context.WithDeadline(parent, d)
	}
	defer e.mu.Unlock()
	inner, cs, raw := e.withCancelLocked(parent)
	cancel := e.cancelFunc(inner, cs, raw)
	if cur, ok := parent.Deadline(); ok && !cur.After(d) {
		// The parent's deadline comes first: it is only cancelled.
		return inner, func() { cancel(context.Canceled) }
	}
	c := &deadlineCtx{Context: inner, deadline: d}
	t := &vtimer{index: -1}
	t.cancel = func() { // by the clock, under e.mu
		c.expired.Store(true)
		cs.hdr.vc.join(t.vc)
		raw(cmp.Or(cause, context.DeadlineExceeded))
	}
	if !d.After(e.now) {
		t.vc = append(t.vc[:0], g.vc...)
		t.cancel()
		return c, func() { cancel(context.Canceled) }
	}
	if e.timeChans == nil {
		e.timeChans = make(map[chanKey]*vtimer)
	}
	e.timeChans[recvChanPtr(inner.Done())] = t
	e.armLocked(t, g, d.Sub(e.now))
	return c, func() {
		if e2, _, md := enter(); md == modeCtl {
			e2.disarmLocked(t)
			e2.mu.Unlock()
		}
		cancel(context.Canceled)
	}
}

// Cancellation in rewritten code is modelled: a context made under
// control (WithCancel, WithCancelCause, and the deadline ones) has a
// ctxState, keyed by its Done channel. Its cancellation releases the
// canceller's clock into it and a receive from its Done channel (or a
// derived one's) acquires it, so that what the canceller did before is
// ordered before what the waiter does after, as the memory model says.
// A goroutine waiting on such a channel waits on the test's own code, not
// on uncontrolled code, unless the context derives from one that
// uncontrolled code may cancel (external).
//
// The test's own context, t.Context(), is one of them (TestContext): it is
// cancelled, as testing does, just before the test's cleanups run.

// A ctxState is the model of a context made under control.
type ctxState struct {
	hdr    objHdr
	parent *ctxState // the controlled context it derives from, if any
	// external is set when a context that uncontrolled code may cancel
	// is among its ancestors.
	external bool
}

// withCancelLocked is context.WithCancelCause under control: the context
// is registered; raw cancels it without releasing anything (see
// cancelFunc).
func (e *exec) withCancelLocked(parent context.Context) (context.Context, *ctxState, context.CancelCauseFunc) {
	inner, raw := context.WithCancelCause(parent)
	cs := &ctxState{}
	e.touchLocked(&cs.hdr, kindChan)
	if e.ctxs == nil {
		e.ctxs = make(map[chanKey]*ctxState)
	}
	if pd := parent.Done(); pd != nil {
		cs.parent = e.ctxs[recvChanPtr(pd)]
		cs.external = cs.parent == nil || cs.parent.external
	}
	e.ctxs[recvChanPtr(inner.Done())] = cs
	return inner, cs, raw
}

// cancelFunc returns the cancel function the user gets for ctx: the
// first call releases the canceller's clock into the context (under
// control, in the execution that made it), then cancels; later calls,
// which cancel nothing, release nothing.
func (e *exec) cancelFunc(ctx context.Context, cs *ctxState, raw context.CancelCauseFunc) context.CancelCauseFunc {
	epoch := e.epoch
	return func(cause error) {
		if e2, g, md := enter(); md == modeCtl {
			if e2.epoch == epoch && ctx.Err() == nil {
				g.release(&cs.hdr)
				g.release(&e2.ext) // uncontrolled code may be what waits
			}
			e2.mu.Unlock()
		}
		raw(cause)
	}
}

// acquireCtxLocked orders g after the cancellation of the controlled
// context whose Done channel ch is, and of its controlled ancestors.
func (e *exec) acquireCtxLocked(g *G, ch chanKey) {
	for cs := e.ctxs[ch]; cs != nil; cs = cs.parent {
		g.acquire(&cs.hdr)
	}
}

// WithCancel replaces context.WithCancel.
func WithCancel(parent context.Context) (context.Context, context.CancelFunc) {
	e, _, md := enter()
	if md != modeCtl {
		return context.WithCancel(parent)
	}
	defer e.mu.Unlock()
	ctx, cs, raw := e.withCancelLocked(parent)
	cancel := e.cancelFunc(ctx, cs, raw)
	return ctx, func() { cancel(context.Canceled) }
}

// WithCancelCause replaces context.WithCancelCause.
func WithCancelCause(parent context.Context) (context.Context, context.CancelCauseFunc) {
	e, _, md := enter()
	if md != modeCtl {
		return context.WithCancelCause(parent)
	}
	defer e.mu.Unlock()
	ctx, cs, raw := e.withCancelLocked(parent)
	return ctx, e.cancelFunc(ctx, cs, raw)
}

// recvChanPtr returns the runtime pointer of a receive-only channel.
func recvChanPtr[T any](ch <-chan T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&ch)) }

// A contexter is what t.Context is called on.
type contexter interface{ Context() context.Context }

// TestContext replaces t.Context(). Under control, when t is the test or
// a subtest of the execution, it returns a context made under control for
// t (the same one on every call), which runCleanups cancels before t's
// cleanups run; otherwise it is t.Context().
func TestContext(t contexter) context.Context {
	e, _, md := enter()
	if md != modeCtl {
		return t.Context()
	}
	defer e.mu.Unlock()
	cl, ok := t.(cleaner)
	if !ok {
		return t.Context()
	}
	if _, ours := e.cleanups[cl]; !ours {
		return t.Context()
	}
	if tc := e.testCtxs[cl]; tc != nil {
		return tc.ctx
	}
	ctx, cs, raw := e.withCancelLocked(t.Context())
	cs.external = false // testing cancels it only after the execution
	if e.testCtxs == nil {
		e.testCtxs = make(map[cleaner]*testCtx)
	}
	e.testCtxs[cl] = &testCtx{ctx: ctx, cancel: e.cancelFunc(ctx, cs, raw)}
	return ctx
}

// A testCtx is the context TestContext made for a test.
type testCtx struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// cancelTestContext cancels t's context, if TestContext made one.
func (e *exec) cancelTestContext(t cleaner) {
	e.mu.Lock()
	tc := e.testCtxs[t]
	e.mu.Unlock()
	if tc != nil {
		tc.cancel(context.Canceled)
	}
}
