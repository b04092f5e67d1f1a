package lockorder

import (
	"fmt"
	"go/token"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"github.com/confirm-go/confirm/analyzers/warning"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ssa"
)

// Analyzer is the lockorder analyzer.
var Analyzer = &analysis.Analyzer{
	Name:       "lockorder",
	Doc:        "report lock-order cycles, double locking, recursive read locking and leaked locks",
	URL:        "https://github.com/confirm-go/confirm/analyzers/lockorder",
	Requires:   []*analysis.Analyzer{lockset.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*warning.Result)(nil)),
	FactTypes:  []analysis.Fact{(*Orders)(nil)},
}

// FactsAnalyzer is Analyzer reduced to its facts, for a driver that runs
// the analyzers on a package only for the facts its importers read (go
// vet's facts-only runs over dependencies, in which cmd/confirmvet runs
// it in Analyzer's place): it has Analyzer's name, requirements and fact
// types, exports the same Orders fact and reports nothing.
//
// The checks need the trace of every function at once (which classes are
// write-locked and which are released by others, before any function is
// checked; the peers of a channel operation in other functions), so
// Analyzer keeps them all for the whole run: on a package of a thousand
// methods that is the largest part of its memory. The fact needs only
// each function's own trace, for its edges, and the classes it
// write-locks; FactsAnalyzer computes one trace at a time and drops it.
var FactsAnalyzer = &analysis.Analyzer{
	Name:       Analyzer.Name,
	Doc:        Analyzer.Doc,
	URL:        Analyzer.URL,
	Requires:   Analyzer.Requires,
	Run:        runFacts,
	ResultType: Analyzer.ResultType,
	FactTypes:  Analyzer.FactTypes,
}

// checker holds the state of one run.
type checker struct {
	pass    *analysis.Pass
	ls      *lockset.Result
	res     *warning.Result
	graph   *graph
	local   []Edge
	writers map[string]bool
	traces  map[*ssa.Function]*lockset.Trace
	started map[*ssa.Function][]*ssa.Function // functions started by go statements, and by whom
	handed  map[*ssa.Function]map[string]bool // see handedOff
	away    map[string]bool                   // see releasedElsewhere
	exits   map[string]*exitChan              // see exitChans
	freed   map[string]bool                   // see releasedByOthers
	nested  []nesting                         // see reportNestings

	summaries map[*ssa.Function]*lockset.Summary // see summary
}

// A nesting is the acquisition a in fn of a second instance of the class
// of h while h is held, with no order between the two instances.
type nesting struct {
	fn *ssa.Function
	h  lockset.Lock
	a  lockset.Acquisition
}

// reportNestings reports the nestings of two instances of one class,
// except for a class all of whose nestings in the package are made under
// a common gate lock (see gates): the goroutines making them with the
// instances swapped cannot both be inside it.
func (c *checker) reportNestings() {
	shared := map[string][]string{} // class -> gates of all its nestings
	for _, n := range c.nested {
		g := gates(n.a.Held, n.h.Class, n.a.Lock.Class)
		if prev, ok := shared[n.h.Class]; ok {
			g = common(g, prev)
		}
		shared[n.h.Class] = g
	}
	for _, n := range c.nested {
		if len(shared[n.h.Class]) == 0 {
			c.reportNested(n.fn, n.h, n.a)
		}
	}
}

func run(pass *analysis.Pass) (any, error) {
	c, err := newChecker(pass)
	if err != nil {
		return nil, err
	}
	funcs := c.ls.Funcs // none in the standard library
	for _, fn := range funcs {
		c.traces[fn] = mutexTrace(c.ls.Trace(fn))
		c.collectWriters(c.traces[fn])
	}
	c.importOrders(true)
	c.exits = c.exitChans(funcs)
	c.away = c.releasedElsewhere(funcs)
	c.freed = c.releasedByOthers(funcs)
	for _, fn := range funcs {
		c.checkFunc(fn, c.traces[fn])
	}
	c.checkChannels(funcs)
	for i := range c.local {
		c.graph.add(&c.local[i])
	}
	c.reportCycles()
	c.reportNestings()
	c.exportOrders()
	return c.res, nil
}

// runFacts is the run of FactsAnalyzer: the edges and write-locked
// classes of run, and so its fact, without its checks, one function's
// trace alive at a time. The edges come out in run's order (function by
// function, each in the order of its acquisitions), so the fact is the
// same.
func runFacts(pass *analysis.Pass) (any, error) {
	c, err := newChecker(pass)
	if err != nil {
		return nil, err
	}
	c.traces = nil
	funcs := c.ls.Funcs
	c.importOrders(false)
	c.exits = c.exitChans(funcs)
	for _, fn := range funcs {
		t := mutexTrace(c.ls.Trace(fn))
		c.collectWriters(t)
		c.addEdges(fn, t)
	}
	c.exportOrders()
	return c.res, nil
}

// newChecker returns the checker of one run over the package of pass.
func newChecker(pass *analysis.Pass) (*checker, error) {
	ls, ok := pass.ResultOf[lockset.Analyzer].(*lockset.Result)
	if !ok {
		return nil, fmt.Errorf("lockorder: no lockset result for %s", pass.Pkg.Path())
	}
	return &checker{
		pass:    pass,
		ls:      ls,
		res:     &warning.Result{},
		graph:   newGraph(pass.Pkg.Path()),
		writers: map[string]bool{},
		traces:  map[*ssa.Function]*lockset.Trace{},
		started: goTargets(ls.Funcs),

		summaries: map[*ssa.Function]*lockset.Summary{},
	}, nil
}

// importOrders adds the classes the imported packages write-lock to the
// package's own (the fact exports them all again), and, with edges set,
// their lock-order edges to the graph.
func (c *checker) importOrders(edges bool) {
	for _, f := range c.pass.AllPackageFacts() {
		if o, ok := f.Fact.(*Orders); ok && f.Package != c.pass.Pkg {
			if edges {
				for i := range o.Edges {
					c.graph.add(&o.Edges[i])
				}
			}
			for _, w := range o.Writers {
				c.writers[w] = true
			}
		}
	}
}

func (c *checker) collectWriters(t *lockset.Trace) {
	for _, a := range t.Acquisitions {
		if a.Lock.Mode == lockset.Write {
			c.writers[a.Lock.Class] = true
		}
	}
}

// checkFunc reports the double locks, recursive read locks, nested
// same-class acquisitions and leaks of fn, and records its lock-order
// edges.
func (c *checker) checkFunc(fn *ssa.Function, t *lockset.Trace) {
	c.addEdges(fn, t)
	for _, a := range t.Acquisitions {
		if a.Try || a.Unshared {
			// (a mutex nothing else reaches yet is no other lock held
			// again, nor another instance of a class held)
			continue
		}
		for _, h := range a.Held {
			if h.Inherited {
				continue // the callers see this acquisition through fn's summary
			}
			switch {
			case h.Class != a.Lock.Class:
				// an edge (see addEdges)
			case sameInstance(h, a.Lock):
				if a.Wait {
					continue
				}
				c.reportDouble(fn, h, a)
			case a.Lock.Callback && a.Lock.Inst == "" && h.Inst != "":
				// A callback (a function value) called under the lock
				// locks its class again: the instance cannot be
				// followed through the call, and the callbacks a
				// package passes reach back into their own holder
				// (etcd's lessor calling its checkpointer, which
				// checkpoints into the lessor). A function reached
				// again through its own callback is the call graph
				// merging the values of one field, not a finding; and
				// a callback called deep down a chain of named
				// functions is too far to tell.
				if !a.Wait && calledBack(fn, a.Lock.Chain) {
					c.reportDouble(fn, h, a)
				}
			case distinctRoots(h.Inst, a.Lock.Inst) && conflicts(a.Lock.Mode, h.Mode) && !c.ordered(fn, a.Instr, h, a.Lock) &&
				!links(fn, lockRoots(fn, h), lockRoots(fn, a.Lock)):
				c.nested = append(c.nested, nesting{fn, h, a})
			}
		}
	}
	c.checkLeaks(fn, t)
	c.checkJoins(fn, t)
}

// calledBack reports whether chain, the calls from fn to an acquisition
// through a callback, starts with the callback: fn itself calls a
// function literal or a method value (l.cp(id)), other than fn.
func calledBack(fn *ssa.Function, chain []string) bool {
	if len(chain) == 0 || chain[0] == lockset.FuncName(fn) {
		return false
	}
	return strings.Contains(chain[0], "$") || strings.HasPrefix(chain[0], "method value ")
}

// distinctRoots reports whether two instance paths are known and start
// from different variables (from.mu and to.mu; not n.mu and n.parent.mu,
// which is hierarchical locking inside one structure).
func distinctRoots(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	return root(a) != root(b)
}

// sameInstance reports whether two locks of one class are known to be the
// same mutex.
func sameInstance(h, l lockset.Lock) bool {
	if h.Inst != "" && h.Inst == l.Inst {
		return true
	}
	return h.Value != nil && h.Value == l.Value
}

// addEdges records the lock-order edges of fn: every acquisition, other
// than a TryLock or that of a mutex nothing else reaches yet, of a lock
// while one of another class is held that fn did not inherit from its
// callers.
func (c *checker) addEdges(fn *ssa.Function, t *lockset.Trace) {
	for _, a := range t.Acquisitions {
		if a.Try || a.Unshared {
			continue
		}
		for _, h := range a.Held {
			if !h.Inherited && h.Class != a.Lock.Class {
				c.addEdge(fn, t, h, a)
			}
		}
	}
}

func (c *checker) addEdge(fn *ssa.Function, t *lockset.Trace, h lockset.Lock, a lockset.Acquisition) {
	e := Edge{
		From:    c.end(fn, h.Item, h.Pos),
		To:      c.end(fn, a.Lock.Item, a.Pos),
		Func:    lockset.FuncName(fn),
		Pkg:     c.pass.Pkg.Path(),
		Held:    a.Held.Classes(),
		Gates:   gates(a.Held, h.Class, a.Lock.Class),
		Dynamic: h.Dynamic || a.Lock.Dynamic,
	}
	if len(c.exits) > 0 {
		e.After, e.Inside = c.exitOrder(fn, t, h, a)
	}
	c.local = append(c.local, e)
}

// gates returns the classes other than from and to that held keeps
// locked for writing, in order: gate locks, which two goroutines cannot
// hold at once. A lock held on entry only because the function releases
// it without acquiring it (Assumed) is not known to be held and does not
// count.
func gates(held lockset.Set, from, to string) []string {
	var out []string
	for _, l := range held {
		if l.Mode != lockset.Write || l.Assumed || l.Class == from || l.Class == to || slices.Contains(out, l.Class) {
			continue
		}
		out = append(out, l.Class)
	}
	return out
}

// setKey identifies a set of strings, in whatever order it is listed.
func setKey(ss []string) string {
	return strings.Join(slices.Sorted(slices.Values(ss)), ",")
}

// goTargets returns the functions that go statements of funcs start,
// with the functions whose go statements start them.
func goTargets(funcs []*ssa.Function) map[*ssa.Function][]*ssa.Function {
	out := map[*ssa.Function][]*ssa.Function{}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if g, ok := instr.(*ssa.Go); ok {
					if callee := g.Call.StaticCallee(); callee != nil {
						out[callee] = append(out[callee], fn)
					}
				}
			}
		}
	}
	return out
}

// goroutine names the goroutine fn runs in when a go statement starts it.
func (c *checker) goroutine(fn *ssa.Function) string {
	if len(c.started[fn]) > 0 {
		return lockset.FuncName(fn)
	}
	return ""
}

func (c *checker) end(fn *ssa.Function, it lockset.Item, pos token.Pos) End {
	return End{
		Goroutine: c.goroutine(fn),
		Class:     it.Class,
		Mode:      it.Mode,
		Pos:       pos,
		Position:  c.pass.Fset.Position(pos),
		Chain:     it.Chain,
		FuncLine:  c.funcLine(fn, pos),
	}
}

// funcLine returns the line of pos relative to the declaration of fn.
func (c *checker) funcLine(fn *ssa.Function, pos token.Pos) int {
	start := fn.Pos()
	if syn := fn.Syntax(); syn != nil {
		start = syn.Pos()
	}
	if !start.IsValid() || !pos.IsValid() {
		return 0
	}
	return c.pass.Fset.Position(pos).Line - c.pass.Fset.Position(start).Line
}

// exportOrders exports the package's own edges and write-locked classes.
func (c *checker) exportOrders() {
	if len(c.local) == 0 && len(c.writers) == 0 {
		return
	}
	o := &Orders{}
	seen := map[string]int{}
	for _, e := range c.local {
		// One edge per class pair and modes and per set of gates and
		// exit channels: the importer chooses among them as among its
		// own (see graph.observed).
		key := e.From.Class + "\x00" + e.From.Mode.String() + "\x00" + e.To.Class + "\x00" + e.To.Mode.String() +
			"\x00" + setKey(e.Gates) + "\x00" + setKey(e.After) + "\x00" + setKey(e.Inside)
		if i, ok := seen[key]; ok {
			o.Edges[i] = *merged(&o.Edges[i], &e)
			continue
		}
		seen[key] = len(o.Edges)
		e.From.Pos, e.To.Pos = token.NoPos, token.NoPos
		o.Edges = append(o.Edges, e)
	}
	for w := range c.writers {
		o.Writers = append(o.Writers, w)
	}
	sort.Strings(o.Writers)
	c.pass.ExportPackageFact(o)
}
