package lockset

import (
	"go/token"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// An Item is one lock in a function summary: a class and mode, the
// instance relative to the function's parameters ("$0.mu"), free variables
// ("^0") or globals ("g:bank.mu"), and where it was acquired.
type Item struct {
	Class string
	Mode  Mode
	// Inst is the instance path (see Ref.Inst); "" when unknown.
	Inst string
	// Param and Suffix: see Ref.
	Param  int
	Suffix string
	// Kind is what the lock is built from (see Ref.Kind).
	Kind Kind `json:",omitempty"`
	// Pos is the acquisition (or the call that leads to it) in the
	// package being analyzed; NoPos in facts imported from other packages.
	Pos token.Pos
	// Position is the "file:line:col" of the acquisition itself, valid in
	// every package.
	Position string
	// Chain is the call chain from the function that performs the call at
	// Pos down to the function that performs the acquisition, outermost
	// first; empty when the lock is taken at Pos itself.
	Chain []string
	// Dynamic is set when the chain goes through a call resolved
	// dynamically (an interface method or a function value).
	Dynamic bool
	// Callback is set when the chain goes through a call of a function
	// value (a callback), not only of interface methods.
	Callback bool
	// Unheld lists, for an acquisition in a summary, the locks of its
	// callers the function (or a callee) has released on every path to
	// it and takes back later (see Summary.Neutral): the acquisition is
	// not ordered after them (unlock, lock the registry, lock again).
	Unheld []Item `json:",omitempty"`
	// Relocked is set, for a lock in a summary's Holds, when the
	// function released it and took it back (see Summary.Neutral): its
	// callers' lock, held again on return, not one it acquired for them.
	Relocked bool `json:",omitempty"`
}

// Key identifies the lock of it within one function: class, mode and
// instance.
func (it *Item) Key() string {
	return it.Class + "\x00" + it.Mode.String() + "\x00" + it.Inst
}

// A Lock is a lock held at a program point.
type Lock struct {
	Item
	// Value is the SSA value of the mutex (as in Ref.Value) when it was
	// acquired by an operation in the function itself; nil otherwise.
	Value ssa.Value
	// Inherited is set for locks held on entry: the function is only
	// called with them held (see the package documentation).
	Inherited bool
	// Assumed is set for a lock held on entry only because the function,
	// or one of its callers, releases it without acquiring it: its
	// callers are meant to hold it (see released).
	Assumed bool

	key string // cached Item.Key
}

func (l *Lock) k() string {
	if l.key == "" {
		return l.Key()
	}
	return l.key
}

// A Set is an immutable set of held locks, sorted by key. Operations
// return new sets and never modify their operands.
type Set []Lock

// Classes returns the distinct class names in s, in order.
func (s Set) Classes() []string {
	var out []string
	for _, l := range s {
		if len(out) == 0 || out[len(out)-1] != l.Class {
			out = append(out, l.Class)
		}
	}
	return out
}

// Holds reports whether s holds a lock of the class.
func (s Set) Holds(class string) bool {
	for _, l := range s {
		if l.Class == class {
			return true
		}
	}
	return false
}

// Describe returns the held locks in words: "bank.mu, (bank.Account).mu
// (read)".
func (s Set) Describe() string {
	var parts []string
	for _, l := range s {
		if l.Mode == Read {
			parts = append(parts, l.Class+" (read)")
		} else {
			parts = append(parts, l.Class)
		}
	}
	return strings.Join(parts, ", ")
}

func (s Set) add(l Lock) Set {
	l.key = l.Key()
	k := l.key
	i := sort.Search(len(s), func(i int) bool { return s[i].k() >= k })
	if i < len(s) && s[i].k() == k {
		return s
	}
	out := make(Set, 0, len(s)+1)
	out = append(out, s[:i]...)
	out = append(out, l)
	return append(out, s[i:]...)
}

// remove drops the lock of class and mode with instance inst; when inst is
// unknown or not held, it drops every lock of the class and mode (the
// must-held set may only shrink by mistake, never grow). It reports
// whether something was dropped.
func (s Set) remove(class string, mode Mode, inst string) (Set, bool) {
	if inst != "" {
		for i := range s {
			if s[i].Class == class && s[i].Mode == mode && s[i].Inst == inst {
				out := make(Set, 0, len(s)-1)
				out = append(out, s[:i]...)
				return append(out, s[i+1:]...), true
			}
		}
	}
	var out Set
	removed := false
	for i := range s {
		if s[i].Class == class && s[i].Mode == mode {
			if !removed {
				out = append(Set(nil), s[:i]...)
			}
			removed = true
			continue
		}
		if removed {
			out = append(out, s[i])
		}
	}
	if !removed {
		return s, false
	}
	return out, true
}

// find returns the lock remove would drop first: the lock of class and
// mode with instance inst, or when inst is unknown or not held, the first
// lock of the class and mode.
func (s Set) find(class string, mode Mode, inst string) (Lock, bool) {
	if inst != "" {
		for _, l := range s {
			if l.Class == class && l.Mode == mode && l.Inst == inst {
				return l, true
			}
		}
	}
	for _, l := range s {
		if l.Class == class && l.Mode == mode {
			return l, true
		}
	}
	return Lock{}, false
}

// only returns the lock of the class and mode s holds, when it holds
// exactly one.
func (s Set) only(class string, mode Mode) (Lock, bool) {
	var found Lock
	n := 0
	for _, l := range s {
		if l.Class == class && l.Mode == mode {
			found = l
			n++
		}
	}
	return found, n == 1
}

// intersect returns the locks of s whose keys are also in t.
func (s Set) intersect(t Set) Set {
	if len(s) == 0 || len(t) == 0 {
		return nil
	}
	var out Set
	i, j := 0, 0
	for i < len(s) && j < len(t) {
		a, b := s[i].k(), t[j].k()
		switch {
		case a == b:
			out = append(out, s[i])
			i++
			j++
		case a < b:
			i++
		default:
			j++
		}
	}
	return out
}

// meet returns what is held on both of two paths that join: the locks
// of both, and a lock one path holds exclusively and the other shared,
// as shared (RUnlock then Lock to create on one branch, RLock kept on
// the other: either way, no writer runs).
func (s Set) meet(t Set) Set {
	return addShared(addShared(s.intersect(t), s, t), t, s)
}

// addShared returns out with, for each lock that w holds exclusively and
// r holds shared (same class and instance), r's shared lock added.
func addShared(out, w, r Set) Set {
	for _, l := range w {
		if l.Mode != Write {
			continue
		}
		for _, m := range r {
			if m.Mode == Read && m.Class == l.Class && m.Inst == l.Inst {
				out = out.add(m)
			}
		}
	}
	return out
}

// minus returns the locks of s whose keys are not in t.
func (s Set) minus(t Set) Set {
	var out Set
	for _, l := range s {
		i := sort.Search(len(t), func(i int) bool { return t[i].k() >= l.k() })
		if i == len(t) || t[i].k() != l.k() {
			out = append(out, l)
		}
	}
	return out
}

func (s Set) sameKeys(t Set) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i].k() != t[i].k() {
			return false
		}
	}
	return true
}
