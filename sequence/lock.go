package sequence

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"sort"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
	"golang.org/x/tools/go/ssa"
)

// A lockSite is a site of a lock warning with its normalized position
// (the start of the call expression).
type lockSite struct {
	index int
	site  warning.Site
	pos   token.Position
}

// lockSites normalizes the sites of the warning.
func (g *generator) lockSites() ([]lockSite, error) {
	out := make([]lockSite, len(g.w.Sites))
	for i, s := range g.w.Sites {
		at, err := sitePosition(g.prog, i, s)
		if err != nil {
			return nil, err
		}
		if s.Access == warning.AccessReturn {
			at = returnStart(g.prog, at)
		} else {
			at, _ = callStart(g.prog, at)
		}
		out[i] = lockSite{index: i, site: s, pos: at}
	}
	return out, nil
}

// role returns the site's role, or a default.
func role(s warning.Site, def string) string {
	if s.Role != "" {
		return s.Role
	}
	return def
}

// An acquisition edge of a lock-order cycle: outer is the acquisition of
// From, inner the acquisition of To while holding From, on one path.
type lockEdge struct {
	from, to     string
	outer, inner lockSite
	hasOuter     bool
}

// lockOrder returns the interleaved acquisitions of a lock-order cycle:
// first the outer acquisition of every path, in cycle order, then the
// nested acquisition of every path (for a 2-cycle, l0 → l9 → l1 → l18).
// With no held-lock information the sites are taken in the order the
// analyzer gave them, which is that order.
func (g *generator) lockOrder() ([]Sequence, error) {
	sites, err := g.lockSites()
	if err != nil {
		return nil, err
	}
	edges := cycleEdges(sites)
	var seq Sequence
	if len(edges) == 0 {
		for i, s := range sites {
			seq.add(s.pos, KindObserve, s.site.Role, fmt.Sprintf("site %d of the warning: %s", i, role(s.site, "acquires a lock")))
		}
		return []Sequence{seq}, nil
	}
	for i, e := range edges {
		if e.hasOuter {
			seq.add(e.outer.pos, KindObserve, role(e.outer.site, "acquires "+e.from),
				fmt.Sprintf("path %d acquires %s first (%s)", i+1, e.from, funcOf(e.outer.site)))
		}
	}
	for i, e := range edges {
		seq.add(e.inner.pos, KindObserve, role(e.inner.site, "acquires "+e.to+" while holding "+e.from),
			fmt.Sprintf("path %d acquires %s while holding %s; with every path there the cycle deadlocks", i+1, e.to, e.from))
	}
	return []Sequence{seq}, nil
}

func funcOf(s warning.Site) string {
	if s.Func == "" {
		return "unknown function"
	}
	return "in " + s.Func
}

// cycleEdges derives the paths of a lock-order cycle from the held locks
// of its sites: a site that acquires To while holding From (From being a
// class of the cycle) is a nested acquisition; its outer acquisition is a
// site acquiring From, preferably in the same function. The edges are
// returned in cycle order starting from the path of the primary site. A
// cycle of one class (two instances of the same class nested) becomes
// two paths through the same locations. It returns nil when no site holds
// a lock of the cycle.
func cycleEdges(sites []lockSite) []lockEdge {
	classes := map[string]bool{}
	for _, s := range sites {
		if isAcquire(s.site.Access) && s.site.Object != "" {
			classes[s.site.Object] = true
		}
	}
	var edges []lockEdge
	used := map[int]bool{}
	for _, s := range sites {
		from, ok := heldFrom(s.site, classes)
		if !ok {
			continue
		}
		e := lockEdge{from: from, to: s.site.Object, inner: s}
		if o, ok := outerFor(sites, s, from, used); ok {
			e.outer, e.hasOuter = o, true
			used[o.index] = true
		}
		edges = append(edges, e)
	}
	if len(edges) == 0 {
		return nil
	}
	edges = orderCycle(edges, sites[0].index)
	if len(edges) == 1 && edges[0].from == edges[0].to {
		edges = append(edges, edges[0])
	}
	return edges
}

func isAcquire(a warning.Access) bool {
	return a == warning.AccessLock || a == warning.AccessRLock || a == warning.AccessUnknown
}

// heldFrom returns the class of the cycle the site holds while it
// acquires its object: the most recently acquired held class of the
// cycle other than the object, or the object itself for same-class
// nesting.
func heldFrom(s warning.Site, classes map[string]bool) (string, bool) {
	if !isAcquire(s.Access) {
		return "", false
	}
	for i := len(s.Held) - 1; i >= 0; i-- {
		if h := s.Held[i]; classes[h] && h != s.Object {
			return h, true
		}
	}
	if slices.Contains(s.Held, s.Object) {
		return s.Object, true
	}
	return "", false
}

// outerFor finds the acquisition of class from that precedes the nested
// acquisition inner on its path: an unused site acquiring from without
// holding it, preferring the same function, then a function related by
// a call chain, then the closest preceding position. A used site is
// taken again when no unused one is left (one outer site of a same-class
// cycle serves both paths).
func outerFor(sites []lockSite, inner lockSite, from string, used map[int]bool) (lockSite, bool) {
	var cands []lockSite
	for _, s := range sites {
		if s.index == inner.index || s.site.Object != from || !isAcquire(s.site.Access) {
			continue
		}
		if slices.Contains(s.site.Held, from) {
			continue
		}
		cands = append(cands, s)
	}
	if len(cands) == 0 {
		return lockSite{}, false
	}
	score := func(s lockSite) int {
		n := 0
		if used[s.index] {
			n += 8
		}
		switch {
		case s.site.Func != "" && s.site.Func == inner.site.Func:
		case slices.Contains(inner.site.Chain, s.site.Func) || slices.Contains(s.site.Chain, inner.site.Func):
			n++
		default:
			n += 2
		}
		if !before(s.pos, inner.pos) {
			n += 4
		}
		return n
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if sa, sb := score(a), score(b); sa != sb {
			return sa < sb
		}
		// Closest preceding first.
		return before(b.pos, a.pos)
	})
	return cands[0], true
}

// orderCycle orders the edges along the cycle (each edge's To is the
// next edge's From), starting with the edge that contains the site with
// index first, or the first edge.
func orderCycle(edges []lockEdge, first int) []lockEdge {
	start := 0
	for i, e := range edges {
		if e.inner.index == first || (e.hasOuter && e.outer.index == first) {
			start = i
			break
		}
	}
	out := []lockEdge{edges[start]}
	left := slices.Delete(slices.Clone(edges), start, start+1)
	for len(left) > 0 {
		next := 0
		for i, e := range left {
			if e.from == out[len(out)-1].to {
				next = i
				break
			}
		}
		out = append(out, left[next])
		left = slices.Delete(left, next, next+1)
	}
	return out
}

// doubleLock returns the two acquisitions of a mutex locked twice: the
// one made while the mutex is already held comes second.
func (g *generator) doubleLock() ([]Sequence, error) {
	sites, err := g.lockSites()
	if err != nil {
		return nil, err
	}
	if len(sites) < 2 {
		return nil, fmt.Errorf("want 2 sites (first and second lock), have %d", len(sites))
	}
	first, second := sites[0], sites[1]
	if heldSelf(first.site) && !heldSelf(second.site) {
		first, second = second, first
	}
	var seq Sequence
	seq.add(first.pos, KindObserve, role(first.site, "locks "+first.site.Object),
		fmt.Sprintf("first acquisition of %s (%s)", first.site.Object, funcOf(first.site)))
	seq.add(second.pos, KindObserve, role(second.site, "locks "+second.site.Object+" again"),
		fmt.Sprintf("second acquisition of %s while it is held: a Go mutex is not reentrant", second.site.Object))
	return []Sequence{seq}, nil
}

func heldSelf(s warning.Site) bool { return slices.Contains(s.Held, s.Object) }

// rwr returns, for a read lock taken recursively, the first RLock, a
// writer's Lock of the same class (from another goroutine), and the
// second RLock: the writer queues behind the first reader and the second
// RLock queues behind the writer. There is one sequence per writer site
// found in the program, writers the test reaches first.
func (g *generator) rwr() ([]Sequence, error) {
	sites, err := g.lockSites()
	if err != nil {
		return nil, err
	}
	if len(sites) < 2 {
		return nil, fmt.Errorf("want 2 sites (first and second RLock), have %d", len(sites))
	}
	first, second := sites[0], sites[1]
	if heldSelf(first.site) && !heldSelf(second.site) {
		first, second = second, first
	}
	var writers []*lockCall
	class, classErr := g.classAt(first.pos)
	if classErr == nil {
		writers = g.rank(g.lockCalls(class, writerMethods), nil, true)
	}
	build := func(w *lockCall) Sequence {
		var seq Sequence
		seq.add(first.pos, KindObserve, role(first.site, "read-locks "+first.site.Object),
			fmt.Sprintf("first RLock of %s (%s)", first.site.Object, funcOf(first.site)))
		if w != nil {
			seq.add(w.pos, KindObserve, "write-locks "+first.site.Object,
				fmt.Sprintf("another goroutine's Lock of the same mutex in %s waits for the reader and blocks new readers", testselect.ShortName(w.fn)))
		}
		seq.add(second.pos, KindObserve, role(second.site, "read-locks "+second.site.Object+" again"),
			fmt.Sprintf("second RLock of %s while the first is held: it waits behind the writer, which waits for it", second.site.Object))
		return seq
	}
	if len(writers) == 0 {
		seq := build(nil)
		if classErr != nil {
			seq.Why[0] += fmt.Sprintf(" (the writer's Lock was not searched for: %v)", classErr)
		} else {
			seq.Why[0] += " (no Lock of the same mutex was found in the program: the deadlock needs a writer)"
		}
		return []Sequence{seq}, nil
	}
	var seqs []Sequence
	for _, w := range writers[:min(len(writers), maxAlternatives)] {
		seqs = append(seqs, build(w))
	}
	return seqs, nil
}

// lockLeak returns the acquisition, the return that leaves the lock
// held, and a later acquisition of the same lock class that then blocks
// forever: one sequence per such acquisition site found, those the test
// reaches first.
func (g *generator) lockLeak() ([]Sequence, error) {
	sites, err := g.lockSites()
	if err != nil {
		return nil, err
	}
	var acq, ret *lockSite
	for i := range sites {
		switch {
		case sites[i].site.Access == warning.AccessReturn && ret == nil:
			ret = &sites[i]
		case isAcquire(sites[i].site.Access) && acq == nil:
			acq = &sites[i]
		}
	}
	if acq == nil || ret == nil {
		return nil, fmt.Errorf("want an acquisition site and a return site, have %d sites", len(sites))
	}
	build := func(later *lockCall) Sequence {
		var seq Sequence
		seq.add(acq.pos, KindObserve, role(acq.site, "locks "+acq.site.Object),
			fmt.Sprintf("acquires %s (%s)", acq.site.Object, funcOf(acq.site)))
		seq.add(ret.pos, KindObserve, role(ret.site, "returns holding "+acq.site.Object),
			fmt.Sprintf("returns with %s still held", acq.site.Object))
		if later != nil {
			why := fmt.Sprintf("a later acquisition of %s in %s blocks forever", acq.site.Object, testselect.ShortName(later.fn))
			if samePos(later.pos, acq.pos) {
				why = fmt.Sprintf("the same acquisition of %s, executed again, blocks forever", acq.site.Object)
			}
			seq.add(later.pos, KindObserve, "locks "+acq.site.Object, why)
		}
		return seq
	}
	var later []*lockCall
	if class, err := g.classAt(acq.pos); err == nil {
		later = g.rank(g.lockCalls(class, acquireMethods), &acq.pos, false)
	}
	if len(later) == 0 {
		// The acquisition and the leaking return still guide the search.
		return []Sequence{build(nil)}, nil
	}
	var seqs []Sequence
	for _, l := range later[:min(len(later), maxAlternatives)] {
		seqs = append(seqs, build(l))
	}
	return seqs, nil
}

// Lock methods, by the full name of the sync method.
var (
	writerMethods  = []string{"(*sync.RWMutex).Lock"}
	acquireMethods = []string{"(*sync.Mutex).Lock", "(*sync.RWMutex).Lock", "(*sync.RWMutex).RLock"}
	allLockMethods = []string{"(*sync.Mutex).Lock", "(*sync.RWMutex).Lock", "(*sync.RWMutex).RLock", "(*sync.Mutex).TryLock", "(*sync.RWMutex).TryLock", "(*sync.RWMutex).TryRLock"}
)

// A lockCall is a call of a sync lock method in the program.
type lockCall struct {
	call *ssa.Call
	fn   *ssa.Function
	pos  token.Position
}

// lockMethod returns the full name of the sync lock method call calls,
// or "".
func lockMethod(call *ssa.Call) string {
	callee := call.Call.StaticCallee()
	if callee == nil {
		return ""
	}
	obj, ok := callee.Object().(*types.Func)
	if !ok {
		return ""
	}
	name := obj.FullName()
	if slices.Contains(allLockMethods, name) {
		return name
	}
	return ""
}

// classAt returns the lock class of the lock call at pos.
func (g *generator) classAt(pos token.Position) (string, error) {
	for _, fn := range g.prog.FuncsAt(pos) {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || lockMethod(call) == "" || !samePos(g.prog.StmtPos(call), pos) {
					continue
				}
				if class := lockClass(call.Call.Args[0]); class != "" {
					return class, nil
				}
				return "", fmt.Errorf("%s: the mutex is not a field, a global or a local variable", short(pos))
			}
		}
	}
	return "", fmt.Errorf("%s: no Lock or RLock call there", short(pos))
}

// lockCalls returns the calls of the given methods on mutexes of class,
// one per position (package variants share positions).
func (g *generator) lockCalls(class string, methods []string) []*lockCall {
	var out []*lockCall
	seen := map[token.Position]bool{}
	for _, fn := range g.prog.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(*ssa.Call)
				if !ok || !slices.Contains(methods, lockMethod(call)) || lockClass(call.Call.Args[0]) != class {
					continue
				}
				pos := g.prog.StmtPos(call)
				if seen[pos] {
					continue
				}
				seen[pos] = true
				out = append(out, &lockCall{call: call, fn: fn, pos: pos})
			}
		}
	}
	return out
}

// rank orders lock calls: with spawned, those the test runs in a
// goroutine it starts first; then those the test reaches (fewest steps
// first); then, when avoid is set, those at another position; then by
// position. When the test reaches some of them, the others (which it
// cannot execute) are dropped.
func (g *generator) rank(calls []*lockCall, avoid *token.Position, spawned bool) []*lockCall {
	inGoroutine := func(c *lockCall) bool {
		return spawned && g.test != "" && g.prog.Spawns(g.test, c.fn)
	}
	steps := func(c *lockCall) int {
		if g.test == "" {
			return 0
		}
		if n, ok := g.prog.Reaches(g.test, c.fn); ok {
			return n
		}
		return 1 << 20
	}
	sort.SliceStable(calls, func(i, j int) bool {
		a, b := calls[i], calls[j]
		if ga, gb := inGoroutine(a), inGoroutine(b); ga != gb {
			return ga
		}
		if sa, sb := steps(a), steps(b); sa != sb {
			return sa < sb
		}
		if avoid != nil {
			if da, db := samePos(a.pos, *avoid), samePos(b.pos, *avoid); da != db {
				return db
			}
		}
		return before(a.pos, b.pos)
	})
	if g.test != "" {
		reached := slices.DeleteFunc(slices.Clone(calls), func(c *lockCall) bool {
			_, ok := g.prog.Reaches(g.test, c.fn)
			return !ok
		})
		if len(reached) > 0 {
			return reached
		}
	}
	return calls
}

// lockClass names the mutex v points to by its static identity: a field
// of a struct type ("field T.mu"), a global ("global p.mu"), or a local
// variable ("local file:offset"), following the free variables of
// closures to what they capture. It returns "" for a mutex reached
// through a parameter or another value.
func lockClass(v ssa.Value) string {
	switch v := v.(type) {
	case *ssa.FieldAddr:
		st, ok := deref(v.X.Type()).Underlying().(*types.Struct)
		if !ok {
			return ""
		}
		return "field " + types.TypeString(deref(v.X.Type()), nil) + "." + st.Field(v.Field).Name()
	case *ssa.Global:
		return "global " + v.Pkg.Pkg.Path() + "." + v.Name()
	case *ssa.Alloc:
		if v.Parent() == nil {
			return ""
		}
		pos := v.Parent().Prog.Fset.Position(v.Pos())
		return fmt.Sprintf("local %s:%d", pos.Filename, pos.Offset)
	case *ssa.UnOp:
		if v.Op == token.MUL {
			if c := lockClass(v.X); c != "" {
				return c + " (pointer)"
			}
		}
	case *ssa.FreeVar:
		if b := binding(v); b != nil {
			return lockClass(b)
		}
	}
	return ""
}

// binding returns the value a closure's free variable is bound to by the
// MakeClosure of its enclosing function, or nil.
func binding(fv *ssa.FreeVar) ssa.Value {
	fn := fv.Parent()
	parent := fn.Parent()
	if parent == nil {
		return nil
	}
	i := slices.Index(fn.FreeVars, fv)
	for _, b := range parent.Blocks {
		for _, instr := range b.Instrs {
			if mc, ok := instr.(*ssa.MakeClosure); ok && mc.Fn == fn && i < len(mc.Bindings) {
				return mc.Bindings[i]
			}
		}
	}
	return nil
}

func deref(t types.Type) types.Type {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// lockChannel returns, for a lock held across a channel operation, the
// acquisition of the lock, the channel operation that blocks holding it,
// and the peer's acquisition of the lock, which blocks: the peer never
// reaches the operation that would complete the first.
func (g *generator) lockChannel() ([]Sequence, error) {
	sites, err := g.lockSites()
	if err != nil {
		return nil, err
	}
	if len(sites) < 3 {
		return nil, fmt.Errorf("want 3 sites (lock, channel operation, the peer's lock), have %d", len(sites))
	}
	lock, op, peer := sites[0], sites[1], sites[2]
	var seq Sequence
	seq.add(lock.pos, KindObserve, role(lock.site, "locks "+lock.site.Object),
		fmt.Sprintf("acquires %s (%s)", lock.site.Object, funcOf(lock.site)))
	seq.add(op.pos, KindObserve, role(op.site, "blocks on "+op.site.Object),
		fmt.Sprintf("blocks on %s holding %s, waiting for its peer", op.site.Object, lock.site.Object))
	seq.add(peer.pos, KindObserve, role(peer.site, "locks "+peer.site.Object),
		fmt.Sprintf("the peer (%s) waits for %s before it can complete the channel operation: deadlock", funcOf(peer.site), peer.site.Object))
	return []Sequence{seq}, nil
}
