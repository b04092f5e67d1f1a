package pipeline

import (
	"fmt"
	"regexp"
	"strconv"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// Consistent reports whether the failure of res confirms w, whose
// sequence is seq (indexes into locs, the locations the binary was built
// with):
//
//   - a deadlock (or a leak of blocked goroutines) confirms a lock
//     warning when a blocked operation is at one of the warning's lock
//     sites or sequence steps, or operates on one of its lock classes;
//   - a race confirms a race warning when both racing accesses are at the
//     warning's access sites or sequence steps;
//   - any test failure, panic, deadlock or race confirms any warning when
//     the execution observed every location of the sequence before it
//     failed (the pipeline then also requires that the failure needs an
//     interleaving: see BySequence).
func Consistent(w *warning.Warning, seq []int, locs []rt.Location, res *runner.Result) bool {
	return consistency(w, seq, locs, res) != notConsistent
}

// BySequence reports whether res confirms w only by the last rule of
// Consistent: a failure of another kind than the warning's, after the
// sequence. Such a failure could have nothing to do with concurrency (a
// test that fails whatever the schedule), so the pipeline re-runs the test
// without preemption and confirms only if it passes then.
func BySequence(w *warning.Warning, seq []int, locs []rt.Location, res *runner.Result) bool {
	return consistency(w, seq, locs, res) == bySequence
}

type consistencyKind int

const (
	notConsistent consistencyKind = iota
	byOracle                      // the warning's own kind of failure, at its sites
	bySequence                    // another failure, after the whole sequence
)

func consistency(w *warning.Warning, seq []int, locs []rt.Location, res *runner.Result) consistencyKind {
	f := res.Failure
	if res.Verdict != rt.VerdictError || f == nil {
		return notConsistent
	}
	switch f.Kind {
	case rt.FailDeadlock, rt.FailLeak:
		if isLockKind(w.Kind) && (atAny(failurePositions(f), sitePositions(w, seq, locs, false)) || onObject(w, res)) {
			return byOracle
		}
	case rt.FailRace:
		if w.Kind == warning.Race && allIn(failurePositions(f), sitePositions(w, seq, locs, true)) {
			return byOracle
		}
	case rt.FailTest, rt.FailPanic:
	default: // livelock, exit, crash, stuck: not an error of the warning's kind
		return notConsistent
	}
	if len(seq) > 0 && observedAll(seq, res.Trace) {
		return bySequence
	}
	return notConsistent
}

func isLockKind(k warning.Kind) bool {
	switch k {
	case warning.LockOrderCycle, warning.DoubleLock, warning.RWRDeadlock, warning.LockLeak:
		return true
	}
	return false
}

// posRE matches the absolute file:line positions the runtime writes into
// failure messages.
var posRE = regexp.MustCompile(`(/[^\s():]+\.go):(\d+)`)

// failurePositions returns the file:line positions named by the failure's
// message (the blocked operations of a deadlock, the accesses of a race).
func failurePositions(f *rt.Failure) []string {
	var out []string
	for _, m := range posRE.FindAllStringSubmatch(f.Message, -1) {
		if n, err := strconv.Atoi(m[2]); err == nil {
			out = append(out, fmt.Sprintf("%s:%d", m[1], n))
		}
	}
	return out
}

// sitePositions returns the file:line of the warning's sites and of its
// sequence steps; with accesses, only read and write ones.
func sitePositions(w *warning.Warning, seq []int, locs []rt.Location, accesses bool) map[string]bool {
	set := make(map[string]bool)
	for _, s := range w.Sites {
		if accesses && s.Access != warning.AccessRead && s.Access != warning.AccessWrite {
			continue
		}
		set[fmt.Sprintf("%s:%d", s.Position.Filename, s.Position.Line)] = true
	}
	for _, i := range seq {
		if i < 0 || i >= len(locs) {
			continue
		}
		l := locs[i]
		if accesses && l.Kind != "read" && l.Kind != "write" {
			continue
		}
		set[fmt.Sprintf("%s:%d", l.File, l.Line)] = true
	}
	return set
}

func atAny(pos []string, set map[string]bool) bool {
	for _, p := range pos {
		if set[p] {
			return true
		}
	}
	return false
}

func allIn(pos []string, set map[string]bool) bool {
	for _, p := range pos {
		if !set[p] {
			return false
		}
	}
	return len(pos) > 0
}

// onObject reports whether one of the failure's objects is named, in the
// trace, as one of the warning's objects (lock classes).
func onObject(w *warning.Warning, res *runner.Result) bool {
	objs := make(map[int]bool)
	for _, o := range res.Failure.Objects {
		objs[o] = true
	}
	want := make(map[string]bool)
	for _, o := range w.Objects {
		want[o] = true
	}
	for _, ev := range res.Trace {
		if objs[ev.Object] && want[ev.Name] {
			return true
		}
	}
	return false
}

// observedAll reports whether the trace passes the sequence's locations
// in order.
func observedAll(seq []int, trace []runner.Event) bool {
	i := 0
	for _, ev := range trace {
		if i == len(seq) {
			break
		}
		switch ev.Op {
		case "observe", "read", "write":
			if ev.Loc == seq[i] {
				i++
			}
		}
	}
	return i == len(seq)
}
