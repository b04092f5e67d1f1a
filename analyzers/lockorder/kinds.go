package lockorder

import (
	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"golang.org/x/tools/go/ssa"
)

// Lockorder checks mutexes only. The lockset analysis also models a
// channel of capacity 1 used as a mutex and an atomic flag taken by
// compare-and-swap (lockset.KindChan, lockset.KindFlag), for the race
// analyzer: a flag never blocks, and is often released by another
// goroutine than the one that took it (a try-lock handing its work to a
// goroutine); a channel's blocking is the channel checks' business. The
// views below drop them from what lockorder reads of the lockset
// analysis: traces, summaries, held sets and lock operations.

// isMutex reports whether it is a lock lockorder checks.
func isMutex(it lockset.Item) bool { return it.Kind == lockset.KindMutex }

// mutexSet returns the mutexes of s.
func mutexSet(s lockset.Set) lockset.Set {
	for i, l := range s {
		if isMutex(l.Item) {
			continue
		}
		out := append(lockset.Set(nil), s[:i]...)
		for _, l := range s[i+1:] {
			if isMutex(l.Item) {
				out = append(out, l)
			}
		}
		return out
	}
	return s
}

// mutexItems returns the mutexes of items.
func mutexItems(items []lockset.Item) []lockset.Item {
	var out []lockset.Item
	for _, it := range items {
		if isMutex(it) {
			out = append(out, it)
		}
	}
	return out
}

// mutexTrace returns t without the locks that are not mutexes. It
// filters t's slices in place (its callers hand it a trace fresh from
// lockset.Result.Trace, which they do not use again): an empty one is
// nil, as an append to nothing would leave it.
func mutexTrace(t *lockset.Trace) *lockset.Trace {
	out := &lockset.Trace{}
	for _, a := range t.Acquisitions {
		if isMutex(a.Lock.Item) {
			a.Held = mutexSet(a.Held)
			out.Acquisitions = append(t.Acquisitions[:len(out.Acquisitions)], a)
		}
	}
	for _, r := range t.Releases {
		if isMutex(r.Item) {
			out.Releases = append(t.Releases[:len(out.Releases)], r)
		}
	}
	for _, r := range t.Returns {
		r.Held = mutexSet(r.Held)
		out.Returns = append(t.Returns[:len(out.Returns)], r)
	}
	for _, j := range t.Joins {
		if j.Held = mutexSet(j.Held); len(j.Held) > 0 {
			out.Joins = append(t.Joins[:len(out.Joins)], j)
		}
	}
	return out
}

// summary returns the summary of fn without the locks that are not
// mutexes.
func (c *checker) summary(fn *ssa.Function) *lockset.Summary {
	if s, ok := c.summaries[fn]; ok {
		return s
	}
	s := *c.ls.Summary(fn)
	s.Acquires = mutexItems(s.Acquires)
	s.Releases = mutexItems(s.Releases)
	s.Holds = mutexItems(s.Holds)
	s.Neutral = mutexItems(s.Neutral)
	s.CondHolds = nil
	calls := make([]lockset.ParamCall, len(s.ParamCalls))
	for i, pc := range s.ParamCalls {
		calls[i] = lockset.ParamCall{Param: pc.Param, Held: mutexItems(pc.Held)}
	}
	s.ParamCalls = calls
	c.summaries[fn] = &s
	return &s
}

// op returns the lock operation of call on a mutex, if any.
func (c *checker) op(call ssa.CallInstruction) (lockset.Op, bool) {
	op, ok := c.ls.Op(call)
	if !ok || op.Ref.Kind != lockset.KindMutex {
		return lockset.Op{}, false
	}
	return op, true
}

// heldBefore returns the mutexes held before instr.
func (c *checker) heldBefore(instr ssa.Instruction) lockset.Set {
	return mutexSet(c.ls.HeldBefore(instr))
}
