package race

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// maxFactAccesses bounds the accesses exported per function.
const maxFactAccesses = 64

// An accessFact summarizes, for an exported function or method, the
// accesses it performs (itself or through its callees) to memory its
// callers can share, so that goroutines calling it from other packages
// are checked too.
type accessFact struct {
	Accesses []factAccess
	// Names holds the strings the accesses name by index (the objects'
	// keys and names, the functions of their chains), each once: go vet
	// re-exports the facts of methods from every package that imports
	// theirs, directly or not, and a chain repeats the same few
	// functions (nats.go: 6.3 MB of strings in a test's facts, 2.2 MB
	// once per fact).
	Names   []string
	Signals bool // may let a waiting goroutine proceed (close, send, Done)
	Waits   bool // may block until another goroutine signals (receive, select, Wait)
	// Fresh is set when the function returns, as its first result, a new
	// object nothing else holds (see fresh).
	Fresh bool `json:",omitempty"`
	// Starts are the function-typed parameters (receiver first) that a
	// goroutine the function starts and leaves running calls
	// (errgroup's Go): the function a caller passes runs beside it.
	Starts []int `json:",omitempty"`
	// Parallel are the function-typed parameters that goroutines the
	// function starts in a loop call (a ParallelizeUntil helper), with
	// the locks held around the calls: the function a caller passes runs
	// in several goroutines at once.
	Parallel []parallelCall `json:",omitempty"`

	// raw is the encoding of an imported fact not parsed yet (see
	// GobDecode).
	raw []byte
}

// A parallelCall is a function-typed parameter (receiver first) that
// goroutines call several at once, with the locks held at the calls.
type parallelCall struct {
	Param int
	Held  []heldLock `json:",omitempty"`
}

// A factAccess is one access of an accessFact.
type factAccess struct {
	Param   int    // parameter (receiver first) the accessed memory hangs off, or -1
	Global  string // import path and name of the package-level variable, when Param < 0
	Path    string // fields selected from the root: ".cfg.timeout"
	ObjKey  int    // identity of the object (an index in Names)
	ObjName int    // the object in reviewer words (an index in Names)
	Write   bool
	Held    []heldLock // locks held at the access
	Chain   []int      // the function, then the calls down to the access (indexes in Names)
	// Dyn is the concrete type the parameter must have for the access to
	// happen (it was reached through an interface method call on it).
	Dyn string `json:",omitempty"`
	// Atomic marks an operation of package sync/atomic.
	Atomic bool `json:",omitempty"`
	// Publishes and Acquires are the keys of what orders the access
	// with others (indexes in Names; see accessNotes).
	Publishes []int `json:",omitempty"`
	Acquires  []int `json:",omitempty"`
}

// AFact marks accessFact as an analysis fact.
func (*accessFact) AFact() {}

// String lists the accesses, "w" for writes and "r" for reads, with the
// parameter or variable they start from and the locks held.
func (f *accessFact) String() string {
	if f.raw != nil {
		c := *f
		c.parse()
		f = &c
	}
	var parts []string
	for _, a := range f.Accesses {
		rw := "r"
		if a.Write {
			rw = "w"
		}
		root := a.Global
		if a.Param >= 0 {
			root = fmt.Sprintf("$%d", a.Param)
		}
		part := rw + " " + root + a.Path
		if len(a.Held) > 0 {
			part += " holding " + strings.Join(makeHeldSet(a.Held).classes(), "+")
		}
		parts = append(parts, part)
	}
	if f.Signals {
		parts = append(parts, "signals")
	}
	if f.Waits {
		parts = append(parts, "waits")
	}
	for _, p := range f.Starts {
		parts = append(parts, fmt.Sprintf("starts $%d", p))
	}
	for _, p := range f.Parallel {
		parts = append(parts, fmt.Sprintf("parallel $%d", p.Param))
	}
	return "accesses(" + strings.Join(parts, ", ") + ")"
}

// exportFacts exports an accessFact for each exported function and
// method of the package that touches shared memory.
func (c *checker) exportFacts() {
	if len(c.pass.Analyzer.FactTypes) == 0 {
		return // run by a driver without facts
	}
	for _, fn := range c.funcs {
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || !obj.Exported() {
			continue
		}
		s := c.summary(fn)
		f := &accessFact{Signals: s.signals, Waits: s.waits, Fresh: c.fresh(fn, 0)}
		index := map[string]int{}
		intern := func(name string) int {
			i, ok := index[name]
			if !ok {
				i = len(f.Names)
				index[name] = i
				f.Names = append(f.Names, name)
			}
			return i
		}
		for _, a := range s.accesses {
			if len(f.Accesses) == maxFactAccesses {
				break
			}
			fa := factAccess{Param: -1, Global: a.global, Path: a.path, Write: a.write, Held: a.held, Dyn: a.dyn, Atomic: a.atomic}
			if p, ok := a.root.(*ssa.Parameter); ok && a.global == "" {
				fa.Param = indexOfParam(fn, p)
			}
			if fa.Param < 0 && !exportedGlobal(fa.Global) {
				continue // the package's own state, or not reachable by callers
			}
			fa.ObjKey, fa.ObjName = intern(a.obj.key), intern(a.obj.name)
			fa.Chain = make([]int, 0, 1+a.chain.len())
			for _, name := range a.chain.push(c.name(fn)).names() {
				fa.Chain = append(fa.Chain, intern(name))
			}
			for _, k := range a.publishes() {
				fa.Publishes = append(fa.Publishes, intern(k))
			}
			for _, k := range a.acquires() {
				fa.Acquires = append(fa.Acquires, intern(k))
			}
			f.Accesses = append(f.Accesses, fa)
		}
		for _, pc := range s.bgParamCalls {
			if !slices.Contains(f.Starts, pc.param) {
				f.Starts = append(f.Starts, pc.param)
			}
		}
		for _, pc := range s.parallel {
			f.Parallel = append(f.Parallel, parallelCall{Param: pc.param, Held: pc.held})
		}
		if len(f.Accesses) > 0 || f.Signals || f.Waits || f.Fresh || len(f.Starts) > 0 || len(f.Parallel) > 0 {
			c.pass.ExportObjectFact(obj, f)
		}
	}
}

// importFact returns the accessFact of a function of another package.
func (c *checker) importFact(fn *ssa.Function) *accessFact {
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj, ok := fn.Object().(*types.Func)
	if !ok || obj.Pkg() == nil || obj.Pkg() == c.pass.Pkg || len(c.pass.Analyzer.FactTypes) == 0 || isSyncPackage(obj.Pkg().Path()) {
		return nil
	}
	if f, ok := c.imported[obj]; ok {
		return f
	}
	if c.imported == nil {
		c.imported = map[*types.Func]*accessFact{}
	}
	f := new(accessFact)
	if c.pass.ImportObjectFact(obj, f) {
		f.parse()
	} else {
		f = nil
	}
	c.imported[obj] = f // shared by every call site, which only read it
	return f
}

// bindFact turns access e of fact f into an access of fn at call site cs:
// its position is the call, since the access itself is in the other
// package.
func (c *checker) bindFact(f *accessFact, e *factAccess, fn *ssa.Function, cs callSite, held heldSet) *access {
	name := func(i int) string {
		if i < 0 || i >= len(f.Names) {
			return "" // a fact of another version of the analyzer
		}
		return f.Names[i]
	}
	chain := make([]string, len(e.Chain))
	for i, n := range e.Chain {
		chain[i] = name(n)
	}
	a := &access{
		accessSite: &accessSite{
			obj:    object{key: name(e.ObjKey), name: name(e.ObjName)},
			write:  e.Write,
			atomic: e.Atomic,
			pos:    c.exprStart(cs.instr.Pos()),
			fn:     fn,
			instr:  cs.instr,
		},
		held:  makeHeldSet(e.Held).union(held),
		chain: chainOf(chain),
	}
	if len(chain) > 0 || len(e.Publishes) > 0 || len(e.Acquires) > 0 {
		a.notes = &accessNotes{}
		if len(chain) > 0 {
			a.notes.ext = chain[len(chain)-1]
		}
		for _, i := range e.Publishes {
			a.notes.publishes = append(a.notes.publishes, name(i))
		}
		for _, i := range e.Acquires {
			a.notes.acquires = append(a.notes.acquires, name(i))
		}
	}
	if e.Param < 0 {
		a.global, a.path = e.Global, e.Path
		return a
	}
	a.dyn = e.Dyn
	arg := argument(cs.instr.Common(), e.Param)
	if !dynMatches(a, arg) {
		return nil
	}
	return c.rebase(a, arg, e.Path)
}

// exportedGlobal reports whether global key names an exported
// package-level variable: the only package state that callers in other
// packages can reach directly. Accesses to unexported state are the
// exporting package's own business (and usually synchronized there).
func exportedGlobal(key string) bool {
	i := strings.LastIndexByte(key, '.')
	return key != "" && token.IsExported(key[i+1:])
}

// isSyncPackage reports whether path is a package whose functions are
// synchronization or runtime internals, not data accesses.
func isSyncPackage(path string) bool {
	switch path {
	case "sync", "sync/atomic", "runtime", "unsafe":
		return true
	}
	return strings.HasPrefix(path, "internal/") || strings.HasPrefix(path, "runtime/")
}
