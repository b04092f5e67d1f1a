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
	if cur, ok := parent.Deadline(); ok && !cur.After(d) {
		// The parent's deadline comes first: it is only cancelled.
		return context.WithCancel(parent)
	}
	inner, cancel := context.WithCancelCause(parent)
	c := &deadlineCtx{Context: inner, deadline: d}
	expire := func() {
		c.expired.Store(true)
		cancel(cmp.Or(cause, context.DeadlineExceeded))
	}
	if !d.After(e.now) {
		expire()
		return c, func() { cancel(context.Canceled) }
	}
	t := &vtimer{index: -1, cancel: expire}
	if e.timeChans == nil {
		e.timeChans = make(map[chanKey]*vtimer)
	}
	e.timeChans[recvChanPtr(inner.Done())] = t
	e.armLocked(t, g, d.Sub(e.now))
	return c, func() {
		if e, _, md := enter(); md == modeCtl {
			e.disarmLocked(t)
			e.mu.Unlock()
		}
		cancel(context.Canceled)
	}
}

// recvChanPtr returns the runtime pointer of a receive-only channel.
func recvChanPtr[T any](ch <-chan T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&ch)) }
