package pipeline

import (
	"fmt"
	"slices"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// Want returns the failure that confirms w, whose sequence is seq (indexes
// into locs, the locations the binary was built with): a failure of the
// warning's own kind on its own sites (see rt.Want.Matches):
//
//   - a race warning, a race whose two accesses are at its access sites
//     or the read and write steps of its sequence, on its variable;
//   - a lock-order cycle, a wait-for cycle of lock waiters each of which
//     is blocked at (or called through) one of its sites or steps;
//   - a double lock, a goroutine blocked acquiring a lock it holds;
//   - an RWR deadlock, a goroutine blocked in RLock behind a waiting
//     writer while it holds a read lock of the same RWMutex;
//   - a lock leak, a goroutine blocked on a lock acquired at one of its
//     sites;
//   - a lock held across a channel operation, a goroutine blocked on the
//     channel at one of its sites holding the lock another goroutine waits
//     for at one of its sites;
//   - a user sequence (-seq), any failure after the whole sequence.
//
// Any other failure found on the way is a bug of its own (Report.Bugs),
// never a confirmation.
func Want(w *warning.Warning, seq []int, locs []rt.Location) *rt.Want {
	want := &rt.Want{Kind: wantKind(w.Kind)}
	if want.Kind == rt.WantSequence {
		return want
	}
	accesses := w.Kind == warning.Race
	if accesses {
		want.Objects = w.Objects
	}
	seen := make(map[string]bool)
	add := func(file string, line int) {
		if file == "" || line <= 0 {
			return
		}
		if s := fmt.Sprintf("%s:%d", file, line); !seen[s] {
			seen[s] = true
			want.Sites = append(want.Sites, s)
		}
	}
	for _, s := range w.Sites {
		if accesses && s.Access != warning.AccessRead && s.Access != warning.AccessWrite {
			continue
		}
		add(s.Position.Filename, s.Position.Line)
	}
	for _, i := range seq {
		if i < 0 || i >= len(locs) {
			continue
		}
		if l := locs[i]; !accesses || l.Kind == "read" || l.Kind == "write" {
			add(l.File, l.Line)
		}
	}
	if accesses {
		want.Pair = racePair(w, seq, locs)
	}
	return want
}

// racePair returns the positions of each of race warning w's two
// accesses: its site, and the read or write steps of its sequence at the
// same line, or else of the same kind when only one site has that kind.
func racePair(w *warning.Warning, seq []int, locs []rt.Location) [2][]string {
	var sites []warning.Site
	for _, s := range w.Sites {
		if s.Access == warning.AccessRead || s.Access == warning.AccessWrite {
			sites = append(sites, s)
		}
	}
	var pair [2][]string
	if len(sites) < 2 {
		return pair // matched by Sites alone
	}
	pos := func(file string, line int) string { return fmt.Sprintf("%s:%d", file, line) }
	for i := range 2 {
		s := sites[i].Position
		pair[i] = append(pair[i], pos(s.Filename, s.Line))
	}
	for _, j := range seq {
		if j < 0 || j >= len(locs) || (locs[j].Kind != "read" && locs[j].Kind != "write") {
			continue
		}
		l := locs[j]
		p := pos(l.File, l.Line)
		if slices.Contains(pair[0], p) || slices.Contains(pair[1], p) {
			continue
		}
		var of []int
		for i := range 2 {
			if string(sites[i].Access) == l.Kind {
				of = append(of, i)
			}
		}
		if len(of) != 1 {
			of = []int{0, 1} // cannot tell: either
		}
		for _, i := range of {
			pair[i] = append(pair[i], p)
		}
	}
	return pair
}

// wantKind maps a warning kind to the rt.Want kind that confirms it.
func wantKind(k warning.Kind) string {
	switch k {
	case warning.Race:
		return rt.WantRace
	case warning.LockOrderCycle:
		return rt.WantLockCycle
	case warning.DoubleLock:
		return rt.WantDoubleLock
	case warning.RWRDeadlock:
		return rt.WantRWR
	case warning.LockLeak:
		return rt.WantLockLeak
	case warning.LockChannel:
		return rt.WantLockChannel
	}
	return rt.WantSequence
}

// Confirms reports whether the failure of res confirms w (whose sequence
// is seq): the runtime stops a search only at a failure that matches
// Want; the pipeline checks it again.
func Confirms(w *warning.Warning, seq []int, locs []rt.Location, res *runner.Result) bool {
	f := res.Failure
	if res.Verdict != rt.VerdictError || f == nil {
		return false
	}
	return Want(w, seq, locs).Matches(f, observedAll(seq, res.Trace))
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
