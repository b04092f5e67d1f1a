package rt

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"unsafe"
)

// A vclock is a vector clock indexed by goroutine id.
type vclock []uint32

func (v *vclock) tick(id int) {
	v.grow(id + 1)
	(*v)[id]++
}

// grow extends v with zeros to n entries.
func (v *vclock) grow(n int) {
	if len(*v) < n {
		v.extend(n)
	}
}

// extend is grow's slow path; it leaves room for more goroutines.
func (v *vclock) extend(n int) {
	if cap(*v) < n {
		w := make(vclock, len(*v), max(n, 2*cap(*v), vclockRoom))
		copy(w, *v)
		*v = w
	}
	old := len(*v)
	*v = (*v)[:n]
	clear((*v)[old:])
}

// join sets v to the pointwise maximum of v and w.
func (v *vclock) join(w vclock) {
	if len(*v) < len(w) {
		v.extend(len(w))
	}
	u := (*v)[:len(w)]
	for i, x := range w {
		if x > u[i] {
			u[i] = x
		}
	}
}

func (v vclock) get(id int) uint32 {
	if id < len(v) {
		return v[id]
	}
	return 0
}

// vclockRoom is the least capacity of a vector clock: most tests have
// fewer goroutines, so that their clocks are allocated once.
const vclockRoom = 16

// clone returns a copy of v with room for more goroutines.
func (v vclock) clone() vclock {
	w := make(vclock, len(v), max(len(v)+8, vclockRoom))
	copy(w, v)
	return w
}

// acquire orders g after every release into h.
func (g *G) acquire(h *objHdr) { g.vc.join(h.vc) }

// release publishes g's clock into h.
func (g *G) release(h *objHdr) { h.vc.join(g.vc) }

// mix is a 64-bit hash step (splitmix64 finaliser over a combination),
// used for happens-before fingerprints and seeds.
func mix(h, v uint64) uint64 {
	x := h ^ (v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2))
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// accessRec is one past access of an address: who, at which clock of
// theirs, from which location.
type accessRec struct {
	g     int
	clk   uint32
	loc   int
	write bool
}

// shadow is the access history of one instrumented address (a simplified
// FastTrack: the last write and the reads since it).
type shadow struct {
	write *accessRec
	reads []accessRec
}

// varHdrLocked returns the object of an address (instrumented variable or
// atomic), numbered on first use in the execution.
func (e *exec) varHdrLocked(addr unsafe.Pointer) *objHdr {
	k := addr
	h := e.addrs[k]
	if h == nil {
		h = &objHdr{}
		e.touchLocked(h, kindVar)
		e.addrs[k] = h
	}
	return h
}

// execAccessLocked executes an instrumented read or write: the
// happens-before race oracle compares it with the earlier accesses of the
// address that are not ordered before it.
func (e *exec) execAccessLocked(g *G) {
	o := &g.op
	if o.loc >= 0 && o.loc < len(e.siteLocs) && e.siteLocs[o.loc] && !slices.Contains(e.siteGs, g.id) {
		e.siteGs = append(e.siteGs, g.id)
	}
	cur := accessRec{g: g.id, clk: g.vc.get(g.id), loc: o.loc, write: o.kind == opWrite}
	if len(o.fields) == 0 {
		e.accessAtLocked(g, o.addr, cur)
		return
	}
	for _, off := range o.fields {
		if e.accessAtLocked(g, unsafe.Add(o.addr, off), cur) {
			return
		}
	}
}

// accessAtLocked compares the access cur of g with the earlier accesses
// of addr, records it, and reports whether a race ended the execution.
func (e *exec) accessAtLocked(g *G, addr unsafe.Pointer, cur accessRec) bool {
	if e.shadow == nil {
		e.shadow = make(map[chanKey]*shadow)
	}
	s := e.shadow[addr]
	if s == nil {
		s = &shadow{}
		e.shadow[addr] = s
	}
	hdr := g.op.hdr
	racy := func(p *accessRec) bool { return p.g != g.id && p.clk > g.vc.get(p.g) }
	if s.write != nil && racy(s.write) {
		if e.raceLocked(hdr, *s.write, cur, true) {
			return true
		}
	}
	if cur.write {
		for i := range s.reads {
			if racy(&s.reads[i]) {
				if e.raceLocked(hdr, s.reads[i], cur, true) {
					return true
				}
				break
			}
		}
		s.write = &cur
		s.reads = s.reads[:0]
		return false
	}
	for i := range s.reads {
		if s.reads[i].g == g.id {
			s.reads[i] = cur
			return false
		}
	}
	s.reads = append(s.reads, cur)
	return false
}

// overlap reports whether the reads or writes a and b touch a common
// address: the same variable, or a field of a struct the other reads or
// writes whole.
func overlap(a, b *op) bool {
	if len(a.fields) == 0 && len(b.fields) == 0 {
		return a.addr == b.addr
	}
	for _, x := range addrsOf(a) {
		for _, y := range addrsOf(b) {
			if x == y {
				return true
			}
		}
	}
	return false
}

// addrsOf lists the addresses an access touches.
func addrsOf(o *op) []unsafe.Pointer {
	if len(o.fields) == 0 {
		return []unsafe.Pointer{o.addr}
	}
	out := make([]unsafe.Pointer, len(o.fields))
	for i, off := range o.fields {
		out[i] = unsafe.Add(o.addr, off)
	}
	return out
}

// fieldCache maps a struct type to its fieldOffsets.
var fieldCache sync.Map

// fieldOffsets returns the offsets of the fields a read or write of a
// whole value of type t touches, nested structs flattened, when t is a
// struct whose fields do not all start at offset 0; nil otherwise (the
// value's address is the one access).
func fieldOffsets(t reflect.Type) []uintptr {
	if t.Kind() != reflect.Struct {
		return nil
	}
	if v, ok := fieldCache.Load(t); ok {
		return v.([]uintptr)
	}
	offs := appendFieldOffsets(nil, t, 0)
	if len(offs) < 2 {
		offs = nil
	}
	fieldCache.Store(t, offs)
	return offs
}

func appendFieldOffsets(offs []uintptr, t reflect.Type, base uintptr) []uintptr {
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Type.Size() == 0:
		case f.Type.Kind() == reflect.Struct:
			offs = appendFieldOffsets(offs, f.Type, base+f.Offset)
		case len(offs) == 0 || offs[len(offs)-1] != base+f.Offset:
			offs = append(offs, base+f.Offset)
		}
	}
	return offs
}

// parkedRaceLocked fires the race oracle when two goroutines are parked at
// conflicting accesses of one address: both can proceed, so the accesses
// are unordered.
func (e *exec) parkedRaceLocked(acc []*G) {
	for i, a := range acc {
		for _, b := range acc[i+1:] {
			if !overlap(&a.op, &b.op) || (a.op.kind == opRead && b.op.kind == opRead) {
				continue
			}
			if e.raceLocked(a.op.hdr,
				accessRec{g: a.id, loc: a.op.loc, write: a.op.kind == opWrite},
				accessRec{g: b.id, loc: b.op.loc, write: b.op.kind == opWrite}, false) {
				return
			}
		}
	}
}

// raceLocked reports a data race between two accesses and whether it
// ended the execution. A race that is not the one the search wants does
// not: it is kept as a side failure (see sideLocked) and the execution
// goes on, so that a neighbour's race does not hide the warned one.
// executing says that b is the access being executed (its step's
// decision is not recorded yet).
func (e *exec) raceLocked(h *objHdr, a, b accessRec, executing bool) bool {
	key := [2]int{min(a.loc, b.loc), max(a.loc, b.loc)}
	if slices.Contains(e.sideRaces, key) {
		return false // kept already: the same pair again
	}
	f := &Failure{
		Kind: FailRace,
		Message: fmt.Sprintf("data race: %s of %s by goroutine %d and %s of %s by goroutine %d, unordered by happens-before",
			rw(a.write), e.accessLabel(a.loc), a.g, rw(b.write), e.accessLabel(b.loc), b.g),
		Goroutines: []int{a.g, b.g},
		Accesses:   []Access{e.accessLocked(a), e.accessLocked(b)},
	}
	if h != nil {
		f.Objects = []int{h.id}
	}
	if w := e.want; w != nil && !w.Matches(f, w.Kind == WantSequence && e.observedSequence()) {
		upto := len(e.tok)
		if executing {
			upto++
		}
		e.sideRaces = append(e.sideRaces, key)
		f.Stack = e.stacksLocked([]int{a.g, b.g})
		e.sideLocked(f, upto)
		return false
	}
	f.Stack = e.stacksLocked([]int{a.g, b.g})
	e.endLocked(f)
	return true
}

// A sideFailure is a failure that did not end its execution: upto is the
// number of decisions that lead to it.
type sideFailure struct {
	f    *Failure
	upto int
}

// maxSide bounds the side failures kept per execution.
const maxSide = 8

// sideLocked keeps f, found after upto decisions, as a side failure of the
// execution (once per signature).
func (e *exec) sideLocked(f *Failure, upto int) {
	if len(e.side) >= maxSide {
		return
	}
	sig := f.Signature()
	for _, s := range e.side {
		if s.f.Signature() == sig {
			return
		}
	}
	e.side = append(e.side, sideFailure{f: f, upto: upto})
}

// accessLocked describes one side of a race.
func (e *exec) accessLocked(a accessRec) Access {
	out := Access{G: a.g, Loc: a.loc, Write: a.write}
	if a.loc >= 0 && a.loc < len(e.cfg.Locations) {
		l := e.cfg.Locations[a.loc]
		out.Pos, out.Label = l.File+":"+itoa(l.Line), l.Label
	}
	return out
}

func rw(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

// accessLabel names the location of an access without its verb
// ("(*p.T).f (p.go:12)", not "writes (*p.T).f").
func (e *exec) accessLabel(loc int) string {
	label := e.locLabel(loc)
	for _, verb := range []string{"reads ", "writes "} {
		label = strings.TrimPrefix(label, verb)
	}
	return label
}

// locLabel names a Config.Locations entry.
func (e *exec) locLabel(loc int) string {
	if loc >= 0 && loc < len(e.cfg.Locations) {
		l := e.cfg.Locations[loc]
		if l.Label != "" {
			return fmt.Sprintf("%s (%s:%d)", l.Label, l.File, l.Line)
		}
		return fmt.Sprintf("%s:%d", l.File, l.Line)
	}
	return fmt.Sprintf("location %d", loc)
}
