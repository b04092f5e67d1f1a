package race

import (
	"sort"
	"strings"
)

// A heldLock is a lock class held at a program point.
type heldLock struct {
	Class string // lock class in reviewer words, e.g. "(counter.Counter).mu"
	Read  bool   // held by RLock only
	// Assumed: held only because a function releases it without
	// acquiring it (lockset.Lock.Assumed): no evidence of a guard.
	Assumed bool `json:",omitempty"`
	// Flag: an atomic flag taken by compare-and-swap
	// (lockset.KindFlag), also Assumed: it excludes its holders from one
	// another, and is no evidence of a guard.
	Flag bool `json:",omitempty"`
}

// A heldSet is the set of lock classes held at a program point, sorted by
// class without duplicates.
type heldSet []heldLock

// makeHeldSet sorts locks into a heldSet; a class held in both modes is
// kept in write mode.
func makeHeldSet(locks []heldLock) heldSet {
	if len(locks) == 0 {
		return nil
	}
	s := append(heldSet(nil), locks...)
	sort.Slice(s, func(i, j int) bool { return s[i].Class < s[j].Class })
	out := s[:1]
	for _, l := range s[1:] {
		last := &out[len(out)-1]
		if l.Class == last.Class {
			last.Read = last.Read && l.Read
			last.Assumed = last.Assumed && l.Assumed
			last.Flag = last.Flag && l.Flag
			continue
		}
		out = append(out, l)
	}
	return out
}

// protects reports whether h and o share a lock that excludes the two
// accesses from each other: a common class not held for reading by both.
func (h heldSet) protects(o heldSet) bool {
	i, j := 0, 0
	for i < len(h) && j < len(o) {
		switch {
		case h[i].Class < o[j].Class:
			i++
		case h[i].Class > o[j].Class:
			j++
		default:
			if !h[i].Read || !o[j].Read {
				return true
			}
			i++
			j++
		}
	}
	return false
}

// onlyFlags reports whether h holds no lock but atomic flags (or
// none): an access made so is unguarded as far as the lock discipline
// goes.
func (h heldSet) onlyFlags() bool {
	for _, l := range h {
		if !l.Flag {
			return false
		}
	}
	return true
}

// has reports whether class is held in h, in any mode.
func (h heldSet) has(class string) bool {
	for _, l := range h {
		if l.Class == class {
			return true
		}
	}
	return false
}

// readOnly reports whether class is held in h for reading only.
func (h heldSet) readOnly(class string) bool {
	for _, l := range h {
		if l.Class == class {
			return l.Read
		}
	}
	return false
}

// union returns the locks held in h or in o.
func (h heldSet) union(o heldSet) heldSet {
	if len(o) == 0 {
		return h
	}
	if len(h) == 0 {
		return o
	}
	if h.includes(o) {
		return h // shared: bound accesses mostly add a lock already held
	}
	if o.includes(h) {
		return o
	}
	return makeHeldSet(append(append([]heldLock(nil), h...), o...))
}

// includes reports whether the union of h and o is h: every lock of o is
// in h, held in h in the same mode or in write mode, and no less
// Assumed or Flag (see makeHeldSet).
func (h heldSet) includes(o heldSet) bool {
	i := 0
	for _, l := range o {
		for i < len(h) && h[i].Class < l.Class {
			i++
		}
		if i == len(h) || h[i].Class != l.Class {
			return false
		}
		m := h[i]
		if m.Read && !l.Read || m.Assumed && !l.Assumed || m.Flag && !l.Flag {
			return false
		}
	}
	return true
}

// classes returns the lock classes of h, read locks marked " (read)".
func (h heldSet) classes() []string {
	if len(h) == 0 {
		return nil
	}
	out := make([]string, len(h))
	for i, l := range h {
		out[i] = l.Class
		if l.Read {
			out[i] += " (read)"
		}
	}
	return out
}

// String lists the held classes for messages, "no lock" when empty.
func (h heldSet) String() string {
	if len(h) == 0 {
		return "no lock"
	}
	return strings.Join(h.classes(), ", ")
}

// intersect returns the classes held in both a and b, in read mode when
// either holds it for reading.
func intersect(a, b heldSet) heldSet {
	var out heldSet
	for _, x := range a {
		for _, y := range b {
			if x.Class == y.Class {
				out = append(out, heldLock{Class: x.Class, Read: x.Read || y.Read, Assumed: x.Assumed || y.Assumed, Flag: x.Flag || y.Flag})
			}
		}
	}
	return out
}
