package rt

import (
	"hash/fnv"
	"reflect"
	"runtime"
	"slices"
	"strings"
)

// Want kinds: what a warning claims, and so which failure confirms it.
const (
	// WantRace: a data race between the warning's accesses.
	WantRace = "race"
	// WantLockCycle: a wait-for cycle of lock waiters, each of them at one
	// of the warning's sites (AB-BA and longer cycles).
	WantLockCycle = "lock-order-cycle"
	// WantDoubleLock: a goroutine blocked acquiring a lock it holds.
	WantDoubleLock = "double-lock"
	// WantRWR: a goroutine blocked in RLock behind a waiting writer while
	// it holds a read lock of the same RWMutex.
	WantRWR = "rwr-deadlock"
	// WantLockLeak: a goroutine blocked on a lock acquired at one of the
	// warning's sites and never released.
	WantLockLeak = "lock-leak"
	// WantLockChannel: a goroutine blocked on a channel operation at one
	// of the warning's sites while it holds the lock another goroutine
	// waits for at one of its sites.
	WantLockChannel = "lock-channel-deadlock"
	// WantSequence: any failure (test failure, panic, deadlock, leak,
	// race) of an execution that passed every location of
	// Config.Sequence in order: the rule of a user-given sequence.
	WantSequence = "sequence"
	// WantSignature: a failure whose Signature hashes to
	// Want.Signature: what a replay must reproduce.
	WantSignature = "signature"
)

// Want describes the failure that confirms a warning: one of its own
// kind, on its own sites. A failure that does not match is another bug.
type Want struct {
	// Kind is one of the Want kinds.
	Kind string `json:"kind"`
	// Sites are the "file:line" positions (absolute file names, as in
	// Location.File) of the warning's operations and of the calls that
	// lead to them: for a race the accesses, for the lock kinds the
	// acquisitions.
	Sites []string `json:"sites,omitempty"`
	// Objects name the variables of a race warning: an access whose
	// location has a label ("writes (pkg.T).f") must access one of them.
	Objects []string `json:"objects,omitempty"`
	// Pair, for a race, holds the "file:line" positions of each of the
	// warning's two accesses (its site, and the sequence's step for it):
	// a race confirms the warning only when one access is at the first
	// and the other at the second, not two accesses at one of them.
	Pair [2][]string `json:"pair,omitzero"`
	// Signature is the hash of the failure's Signature, for
	// WantSignature.
	Signature uint64 `json:"signature,omitempty"`
}

// Matches reports whether failure f of an execution confirms w. For
// WantSequence, observedSeq says whether the execution passed the whole
// sequence before it failed. A failure whose positions were not recorded
// (a search records them only when it re-runs a failing execution) can
// only match by its frames and accesses.
func (w *Want) Matches(f *Failure, observedSeq bool) bool {
	if w == nil || f == nil {
		return false
	}
	sites := make(map[string]bool, len(w.Sites))
	for _, s := range w.Sites {
		sites[s] = true
	}
	at := func(frames []string) bool {
		for _, fr := range frames {
			if sites[fr] {
				return true
			}
		}
		return false
	}
	switch w.Kind {
	case WantRace:
		if f.Kind != FailRace || len(f.Accesses) != 2 {
			return false
		}
		for _, a := range f.Accesses {
			if !sites[a.Pos] || !w.onObject(a.Label) {
				return false
			}
		}
		if len(w.Pair[0]) == 0 || len(w.Pair[1]) == 0 {
			return true
		}
		a, b := f.Accesses[0].Pos, f.Accesses[1].Pos
		p, q := w.Pair[0], w.Pair[1]
		return slices.Contains(p, a) && slices.Contains(q, b) || slices.Contains(p, b) && slices.Contains(q, a)
	case WantLockCycle:
		if f.Kind != FailDeadlock || len(f.Cycle) < 2 {
			return false
		}
		for _, id := range f.Cycle {
			wt := f.wait(id)
			if wt == nil || !isLockOp(wt.Op) || !at(wt.Frames) {
				return false
			}
		}
		return true
	case WantDoubleLock:
		if f.Kind != FailDeadlock && f.Kind != FailLeak {
			return false
		}
		for _, wt := range f.Waits {
			if isLockOp(wt.Op) && slices.Contains(wt.Holders, wt.G) && at(wt.Frames) {
				return true
			}
		}
	case WantRWR:
		if f.Kind != FailDeadlock && f.Kind != FailLeak {
			return false
		}
		for _, wt := range f.Waits {
			if wt.Op == opRLock.String() && wt.HoldsRead && at(wt.Frames) {
				return true
			}
		}
	case WantLockLeak:
		if f.Kind != FailDeadlock && f.Kind != FailLeak {
			return false
		}
		for _, wt := range f.Waits {
			if isLockOp(wt.Op) && wt.LockedAt != "" && sites[wt.LockedAt] {
				return true
			}
		}
	case WantLockChannel:
		if f.Kind != FailDeadlock && f.Kind != FailLeak {
			return false
		}
		for _, wt := range f.Waits {
			if !isLockOp(wt.Op) || !at(wt.Frames) {
				continue
			}
			for _, h := range wt.Holders {
				if hw := f.wait(h); h != wt.G && hw != nil && isChanOp(hw.Op) && at(hw.Frames) {
					return true
				}
			}
		}
	case WantSignature:
		return f.signatureHash() == w.Signature
	case WantSequence:
		switch f.Kind {
		case FailTest, FailPanic, FailDeadlock, FailLeak, FailRace:
			return observedSeq
		}
	}
	return false
}

// onObject reports whether an access labelled label ("reads (pkg.T).f",
// "writes map contents of (pkg.T).m") is to one of w's objects; an
// unlabelled access, or a warning without objects, is judged by its
// position alone.
func (w *Want) onObject(label string) bool {
	for _, verb := range []string{"reads ", "writes "} {
		label = strings.TrimPrefix(label, verb)
	}
	if label == "" || len(w.Objects) == 0 {
		return true
	}
	// "(*pkg.T).f" and "(pkg.T).f" name the same field.
	label = strings.ReplaceAll(label, "*", "")
	for _, o := range w.Objects {
		o = strings.ReplaceAll(o, "*", "")
		if strings.Contains(label, o) || strings.Contains(o, label) {
			return true
		}
	}
	return false
}

func isLockOp(op string) bool { return op == opLock.String() || op == opRLock.String() }

func isChanOp(op string) bool { return op == opSend.String() || op == opRecv.String() }

// wait returns the Wait of goroutine g, or nil.
func (f *Failure) wait(g int) *Wait {
	for i := range f.Waits {
		if f.Waits[i].G == g {
			return &f.Waits[i]
		}
	}
	return nil
}

// Signature identifies a failure across executions and schedules: its
// kind and the source positions it happened at, without goroutine or
// object numbers. Two executions that fail with the same signature found
// the same bug. A test failure is known only by its kind here (the
// messages are in the test's output).
func (f *Failure) Signature() string {
	if f == nil {
		return ""
	}
	var pos []string
	switch f.Kind {
	case FailRace:
		for _, a := range f.Accesses {
			pos = append(pos, rw(a.Write)+" "+a.Pos)
		}
	case FailDeadlock, FailLeak:
		// Where the goroutines wait; the waits in test files (a test
		// waiting for its workers, a task blocked as the test made it)
		// only when no wait is elsewhere: they vary with the schedule
		// while the bug stays the one in the code.
		inCode := false
		for _, wt := range f.Waits {
			inCode = inCode || len(wt.Frames) > 0 && !strings.Contains(wt.Frames[0], "_test.go:")
		}
		for _, wt := range f.Waits {
			if inCode && (len(wt.Frames) == 0 || strings.Contains(wt.Frames[0], "_test.go:")) {
				continue
			}
			p := wt.Op
			if len(wt.Frames) > 0 {
				p += " " + wt.Frames[0]
			}
			pos = append(pos, p)
		}
	case FailPanic:
		msg := f.Message
		if _, rest, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "panic in goroutine ") {
			msg = rest
		}
		msg, _, _ = strings.Cut(msg, "\n")
		pos = append(pos, msg)
		if len(f.Frames) > 0 {
			pos = append(pos, f.Frames[0])
		}
	case FailExit:
		if len(f.Frames) > 0 {
			pos = append(pos, f.Frames[0])
		}
	case FailTest:
		// The runner puts the test's messages in ("x_test.go:12: ..."):
		// the position of the first one tells failures apart.
		if p := messagePos(f.Message); p != "" {
			pos = append(pos, p)
		}
	}
	slices.Sort(pos)
	pos = slices.Compact(pos)
	if len(pos) == 0 {
		return f.Kind
	}
	return f.Kind + ": " + strings.Join(pos, ", ")
}

// messagePos returns the "file.go:line" a test failure's message starts
// with, as testing writes it, or "".
func messagePos(msg string) string {
	msg = strings.TrimSpace(msg)
	i := strings.IndexByte(msg, ':')
	if i < 0 || !strings.HasSuffix(msg[:i], ".go") {
		return ""
	}
	j := i + 1
	for j < len(msg) && msg[j] >= '0' && msg[j] <= '9' {
		j++
	}
	if j == i+1 || j < len(msg) && msg[j] != ':' {
		return ""
	}
	return msg[:j]
}

// signatureHash hashes the signature with file names reduced to their
// base names, so that a token replays in another checkout of the code.
func (f *Failure) signatureHash() uint64 {
	h := fnv.New64a()
	for _, part := range strings.Fields(f.Signature()) {
		if i := strings.LastIndexByte(part, '/'); i >= 0 {
			part = part[i+1:]
		}
		h.Write([]byte(part))
		h.Write([]byte{' '})
	}
	return h.Sum64()
}

// userFramePositions returns the "file:line" of each frame of a goroutine
// stack dump (as runtime.Stack writes it) that is the user's: not in this
// package's files and not in the Go installation's.
func userFramePositions(dump string) []string {
	var out []string
	for _, line := range strings.Split(dump, "\n") {
		if !strings.HasPrefix(line, "\t") {
			continue
		}
		loc := strings.TrimPrefix(line, "\t")
		if i := strings.LastIndex(loc, " +0x"); i >= 0 {
			loc = loc[:i]
		}
		if strings.HasPrefix(loc, rtDir) && !strings.Contains(loc, "_test.go:") {
			continue
		}
		if strings.HasPrefix(loc, stdSrc) {
			continue
		}
		out = append(out, loc)
	}
	return out
}

// stdSrc is the directory of the standard library's sources, as stack
// dumps name it (from where strings.Cut is).
var stdSrc = func() string {
	_, file, _, _ := runtime.Caller(0)
	fn := runtime.FuncForPC(reflect.ValueOf(strings.Cut).Pointer())
	if fn == nil {
		return file // never a prefix of another file
	}
	f, _ := fn.FileLine(fn.Entry())
	if dir, ok := strings.CutSuffix(f, "strings/strings.go"); ok {
		return dir
	}
	return file
}()
