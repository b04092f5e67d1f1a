package lockorder

import (
	"go/token"
	"slices"
	"sort"
	"strings"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// An End is one side of a lock-order edge: a lock class acquired in a mode
// at a position, possibly through a call chain.
type End struct {
	Class string
	Mode  lockset.Mode
	// Pos is valid in the package that found the edge; Position
	// everywhere.
	Pos      token.Pos `json:"-"`
	Position token.Position
	// Chain is the call chain from Func down to the acquisition.
	Chain []string
	// FuncLine is the line of Pos relative to the declaration of Func.
	FuncLine int
	// Goroutine is Func when a go statement starts it.
	Goroutine string
}

// An Edge says that Func acquires To while holding From.
type Edge struct {
	From, To End
	// Func is the function in which both acquisitions are observed.
	Func string
	// Pkg is the import path of the package that found the edge.
	Pkg string
	// Held lists the classes held at the acquisition of To.
	Held []string
	// Gates lists the other classes held in write mode at the
	// acquisition of To by every observation of the edge: two edges of a
	// cycle under the same gate lock are never made at once, so the cycle
	// cannot deadlock.
	Gates []string
	// Dynamic is set when one of the acquisitions is reached through an
	// interface method or function value call.
	Dynamic bool
	// After lists the exit channels (see exitChans) a receive from which
	// precedes both acquisitions on every path: the edge is made only
	// after the function closing the channel has returned.
	After []string
	// Inside lists the exit channels whose closing function runs every
	// call of Func: the edge is made only before the channel is closed.
	// An edge after a channel and one inside it never overlap.
	Inside []string

	// obs are the observations of the edge the graph merged into this
	// witness, each with its own gates and exit channels, the best
	// witness first (see graph.add).
	obs []*Edge
}

// Orders is the package fact holding the lock-order edges a package found
// itself, and the classes it locks for writing, so that cycles spanning
// packages are found in the package that closes them.
type Orders struct {
	Edges   []Edge
	Writers []string
}

// AFact marks Orders as an analysis fact.
func (*Orders) AFact() {}

func (o *Orders) String() string {
	var parts []string
	seen := map[string]bool{}
	for _, e := range o.Edges {
		if p := e.From.Class + "->" + e.To.Class; !seen[p] {
			seen[p] = true
			parts = append(parts, p)
		}
	}
	return "orders{" + strings.Join(parts, " ") + "}"
}

// wraps reports whether the edge is made by a method calling, through
// its chain, a method of the same name: a decorator locking its own
// mutex around the value it wraps (buffered.Sync calling ws.Sync).
func (e *Edge) wraps() bool {
	name := methodName(e.Func)
	for _, f := range e.To.Chain {
		if methodName(f) == name {
			return true
		}
	}
	return false
}

// methodName returns the name of the function or method that FuncName
// fn names, without its package, receiver and closure suffixes.
func methodName(fn string) string {
	fn, _, _ = strings.Cut(fn, "$")
	return fn[strings.LastIndex(fn, ".")+1:]
}

func (e *Edge) chainLen() int { return len(e.From.Chain) + len(e.To.Chain) }

// graph is the lock-order graph over classes. Between two classes it keeps
// one witness edge per pair of modes.
type graph struct {
	pkg   string
	succ  map[string]map[string][]*Edge
	nodes []string
}

func newGraph(pkg string) *graph {
	return &graph{pkg: pkg, succ: map[string]map[string][]*Edge{}}
}

// add records e, keeping for each class pair and modes the witness with
// the shortest call chains, with only the gates and exit channels all
// its observations share, and the observations themselves (see
// observations).
func (g *graph) add(e *Edge) {
	m := g.succ[e.From.Class]
	if m == nil {
		m = map[string][]*Edge{}
		g.succ[e.From.Class] = m
	}
	ws := m[e.To.Class]
	for i, w := range ws {
		if w.From.Mode == e.From.Mode && w.To.Mode == e.To.Mode {
			obs := g.observe(w.obs, e)
			if better(e, w, g.pkg) {
				e, w = w, e
			}
			nw := merged(w, e)
			if nw == e || nw == w {
				cp := *nw
				nw = &cp
			}
			nw.obs = obs
			ws[i] = nw
			return
		}
	}
	cp := *e
	cp.obs = []*Edge{e}
	m[e.To.Class] = append(ws, &cp)
}

// maxObservations bounds the observations kept of one edge.
const maxObservations = 8

// observe adds e to obs, the observations of one edge, unless one with
// the same gates and exit channels is there (the better witness of the
// two is kept), in order of better witnesses first.
func (g *graph) observe(obs []*Edge, e *Edge) []*Edge {
	out := slices.Clone(obs)
	for i, o := range out {
		if sameSet(o.Gates, e.Gates) && sameSet(o.After, e.After) && sameSet(o.Inside, e.Inside) {
			if better(e, o, g.pkg) {
				out[i] = e
			}
			return out
		}
	}
	if len(out) >= maxObservations {
		return out
	}
	i := 0
	for i < len(out) && !better(e, out[i], g.pkg) {
		i++
	}
	return slices.Insert(out, i, e)
}

// sameSet reports whether a and b hold the same strings.
func sameSet(a, b []string) bool {
	return len(common(a, b)) == len(a) && len(common(b, a)) == len(b)
}

// better reports whether e is a better witness than w: found in this
// package, then without dynamic calls, then shorter chains.
func better(e, w *Edge, pkg string) bool {
	if (e.Pkg == pkg) != (w.Pkg == pkg) {
		return e.Pkg == pkg
	}
	if e.Dynamic != w.Dynamic {
		return !e.Dynamic
	}
	if n, m := len(e.After)+len(e.Inside), len(w.After)+len(w.Inside); n != m {
		return n < m
	}
	return e.chainLen() < w.chainLen()
}

// merged returns the witness w of an edge also observed as e: w itself,
// or a copy of it keeping only the exit channels both are after or
// inside and the gate locks both hold (what holds of every observation).
func merged(w, e *Edge) *Edge {
	after, inside, gates := common(w.After, e.After), common(w.Inside, e.Inside), common(w.Gates, e.Gates)
	if len(after) == len(w.After) && len(inside) == len(w.Inside) && len(gates) == len(w.Gates) {
		return w
	}
	cp := *w
	cp.After, cp.Inside, cp.Gates = after, inside, gates
	return &cp
}

// common returns the strings of a also in b.
func common(a, b []string) []string {
	var out []string
	for _, s := range a {
		if slices.Contains(b, s) {
			out = append(out, s)
		}
	}
	return out
}

// A cycle is a sequence of edges e[0]: X0->X1, e[1]: X1->X2, ... back to X0.
type cycle []*Edge

// cycles returns the elementary cycles of g through at least one edge
// found in g.pkg without dynamic calls or that does not wrap (see
// wraps), one per set of classes and order,
// shortest first as found by a breadth-first search from each such edge
// inside its strongly connected component. Cycles whose modes cannot
// deadlock (a read lock wanted where only a read lock is held) or two of
// whose edges share a gate lock (see gated) are left out. Cycles whose
// every edge is a method calling its namesake through an interface are
// left out too: decorators wrapping one another, which deadlock only
// when composed both ways.
func (g *graph) cycles() []cycle {
	comp := g.components()
	var out []cycle
	seen := map[string]bool{}
	// Static edges first: a cycle is reported from a static witness
	// when it has one.
	for _, dynamic := range []bool{false, true} {
		for _, from := range g.sortedNodes() {
			for _, to := range sortedKeys(g.succ[from]) {
				if comp[from] != comp[to] || from == to {
					continue
				}
				for _, e := range g.succ[from][to] {
					if e.Pkg != g.pkg || e.Dynamic != dynamic || e.Dynamic && e.wraps() {
						continue
					}
					path := g.shortestPath(to, from, comp)
					if path == nil {
						continue
					}
					c := g.pick(append([]string{from}, path...), e)
					if c == nil {
						continue
					}
					key := canonical(c)
					if seen[key] {
						continue
					}
					seen[key] = true
					out = append(out, c)
				}
			}
		}
	}
	return out
}

// pick chooses a witness for each consecutive pair of nodes (first edge
// fixed) such that every node of the cycle is wanted in a mode that
// conflicts with the mode in which the next goroutine holds it, and such
// that the edges are neither gated nor exclusive: it returns one
// observation of each (see observed).
func (g *graph) pick(nodes []string, first *Edge) cycle {
	n := len(nodes) - 1 // nodes[0] == nodes[n]
	c := make(cycle, n)
	c[0] = first
	var found cycle
	var try func(i int) bool
	try = func(i int) bool {
		if i == n {
			if !conflicts(c[n-1].To.Mode, c[0].From.Mode) || gated(c) || exclusive(c) {
				return false
			}
			found = g.observed(c)
			return found != nil
		}
		for _, w := range g.succ[nodes[i]][nodes[i+1]] {
			if !conflicts(c[i-1].To.Mode, w.From.Mode) {
				continue
			}
			c[i] = w
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	if !try(1) {
		return nil
	}
	return found
}

// maxChoices bounds the combinations of observations observed tries.
const maxChoices = 4096

// observed returns, for a cycle of witnesses whose shared gates and exit
// channels let it close, one observation of each edge such that the
// observations are neither gated nor exclusive, the better witnesses
// first; nil if every combination is: the edge made without a gate in
// one function and under it in another closes the cycle only with the
// first, and when that one shares another gate with another edge of
// the cycle, the cycle never closes. The first observation is one this
// package found. Past maxChoices combinations it returns the witnesses.
func (g *graph) observed(c cycle) cycle {
	out := make(cycle, len(c))
	budget := maxChoices
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(c) {
			return true
		}
		for _, o := range c[i].observations() {
			if i == 0 && (o.Pkg != g.pkg || o.Dynamic != c[0].Dynamic) {
				continue
			}
			if budget--; budget < 0 {
				return false
			}
			out[i] = o
			if !gated(out[:i+1]) && !exclusive(out[:i+1]) && try(i+1) {
				return true
			}
		}
		return false
	}
	if try(0) {
		return out
	}
	if budget < 0 {
		return c
	}
	return nil
}

// observations returns the observations of e, or e itself when the graph
// did not record them.
func (e *Edge) observations() []*Edge {
	if len(e.obs) == 0 {
		return []*Edge{e}
	}
	return e.obs
}

// conflicts reports whether a goroutine wanting a lock in mode want waits
// for one holding it in mode held.
func conflicts(want, held lockset.Mode) bool {
	return want == lockset.Write || held == lockset.Write
}

// gated reports whether two edges of c are made holding a common lock
// exclusively: the goroutines making them cannot both hold it, so they
// never wait for each other's locks at once and the cycle cannot close.
// The lock is a gate of both (a gate common to every edge is the usual
// case), or the first lock of one edge and a gate of the other.
func gated(c cycle) bool {
	for i, e := range c {
		for _, f := range c[i+1:] {
			if len(common(exclusiveHeld(e), exclusiveHeld(f))) > 0 {
				return true
			}
		}
	}
	return false
}

// exclusiveHeld returns the classes held in write mode while e is made:
// its gates, and its first lock when that is write-locked.
func exclusiveHeld(e *Edge) []string {
	if e.From.Mode != lockset.Write {
		return e.Gates
	}
	return append(e.Gates[:len(e.Gates):len(e.Gates)], e.From.Class)
}

// exclusive reports whether two edges of c never overlap: one is made
// only after an exit channel is closed, the other only before.
func exclusive(c cycle) bool {
	for _, e := range c {
		for _, f := range c {
			if e != f && len(common(e.After, f.Inside)) > 0 {
				return true
			}
		}
	}
	return false
}

// canonical returns the classes of c rotated to start at the smallest one.
func canonical(c cycle) string {
	names := make([]string, len(c))
	start := 0
	for i, e := range c {
		names[i] = e.From.Class
		if names[i] < names[start] {
			start = i
		}
	}
	return strings.Join(append(names[start:], names[:start]...), "\x00")
}

// shortestPath returns the nodes after src on a shortest path from src to
// dst inside src's component, ending with dst; nil if none.
func (g *graph) shortestPath(src, dst string, comp map[string]int) []string {
	prev := map[string]string{src: ""}
	queue := []string{src}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		if u == dst {
			var path []string
			for v := dst; v != src; v = prev[v] {
				path = append(path, v)
			}
			path = append(path, src)
			for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
				path[i], path[j] = path[j], path[i]
			}
			return path
		}
		for _, v := range sortedKeys(g.succ[u]) {
			if _, ok := prev[v]; ok || comp[v] != comp[src] {
				continue
			}
			prev[v] = u
			queue = append(queue, v)
		}
	}
	return nil
}

// components returns the strongly connected component index of every node
// (Tarjan's algorithm, iterative over the sorted nodes).
func (g *graph) components() map[string]int {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	comp := map[string]int{}
	var stack []string
	next, ncomp := 0, 0
	var strong func(v string)
	strong = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range sortedKeys(g.succ[v]) {
			if _, ok := index[w]; !ok {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = ncomp
				if w == v {
					break
				}
			}
			ncomp++
		}
	}
	for _, v := range g.sortedNodes() {
		if _, ok := index[v]; !ok {
			strong(v)
		}
	}
	return comp
}

func (g *graph) sortedNodes() []string {
	if g.nodes == nil {
		set := map[string]bool{}
		for from, m := range g.succ {
			set[from] = true
			for to := range m {
				set[to] = true
			}
		}
		for n := range set {
			g.nodes = append(g.nodes, n)
		}
		sort.Strings(g.nodes)
	}
	return g.nodes
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
