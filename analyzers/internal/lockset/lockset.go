package lockset

import (
	"fmt"
	"go/build"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/ssa"
)

// Analyzer computes the lock summaries and must-held locksets of a
// package. Analyzers that need them require it and read its *Result.
var Analyzer = &analysis.Analyzer{
	Name:       "lockset",
	Doc:        "compute the locks held before every SSA instruction (used by lockorder and race)",
	URL:        "https://github.com/confirm-go/confirm/analyzers/internal/lockset",
	Requires:   []*analysis.Analyzer{buildssa.Analyzer},
	Run:        run,
	ResultType: reflect.TypeOf((*Result)(nil)),
	FactTypes:  []analysis.Fact{(*Summary)(nil)},
}

// A Summary describes the lock effects of a function as its callers see
// them. It is exported as an analysis fact on the function's *types.Func,
// so calls into other packages are modelled too.
type Summary struct {
	// Acquires lists every lock the function may acquire, itself or
	// through its callees (one item per class, mode and instance; TryLock
	// and Cond.Wait excluded).
	Acquires []Item
	// Releases lists the locks it may release without having acquired
	// them: its callers' locks.
	Releases []Item
	// Holds lists the locks it acquires and still holds on every return
	// (returns after a recovered panic excepted):
	// the function is a lock helper.
	Holds []Item
	// CondHolds lists the locks, other than mutexes of package sync (a
	// channel used as a mutex, an atomic flag), that it acquires and
	// holds on every return of a nil error, when its last result is an
	// error, or of true, when it is a bool, but not on every return: the
	// function is a conditional lock helper (lock(ctx) error, tryLock()
	// bool), and its callers hold them on the edge of an If that finds
	// the result nil, or true (as after TryLock). A return of a constant
	// nil or true is such a return, and so is one of the result of a call
	// that holds locks so (return m.lock(ctx)), with those locks. An
	// atomic flag is listed for a bool result only: one a function keeps
	// where it returns a nil error is a state it moved to (Open keeping
	// opened until Close), not a critical section its callers run in.
	CondHolds []Item `json:",omitempty"`
	// ParamCalls lists the calls the function makes of its function
	// parameters, with the locks it holds then (withLock(f) calls f
	// under its lock). A caller passing a function there sees that
	// function's acquisitions under those locks: callbacks are analyzed
	// in the context of each call, not merged.
	ParamCalls []ParamCall
	// Neutral lists the locks the function both acquires and releases
	// without holding them (see neutral), left out of Acquires and
	// Releases: it locks them itself only on some paths, and relies on
	// its callers holding them on the others (if lock { mu.Lock() }).
	Neutral []Item

	// raw is the encoding of an imported fact not parsed yet (see
	// GobDecode).
	raw []byte
}

// A ParamCall is a call of parameter Param made while Held are held.
type ParamCall struct {
	Param int
	Held  []Item
}

// AFact marks Summary as an analysis fact.
func (*Summary) AFact() {}

func (s *Summary) String() string {
	if s.raw != nil {
		c := *s
		c.parse()
		s = &c
	}
	names := func(items []Item) string {
		var out []string
		for _, it := range items {
			n := it.Class
			if it.Mode == Read {
				n += "(r)"
			}
			out = append(out, n)
		}
		return strings.Join(out, " ")
	}
	var calls []string
	for _, pc := range s.ParamCalls {
		calls = append(calls, fmt.Sprintf("param %d under [%s]", pc.Param, names(pc.Held)))
	}
	cond := ""
	if len(s.CondHolds) > 0 {
		cond = "; holds on success: " + names(s.CondHolds)
	}
	return fmt.Sprintf("lockset{acquires: %s; releases: %s; holds: %s%s; calls: %s}",
		names(s.Acquires), names(s.Releases), names(s.Holds), cond, strings.Join(calls, ", "))
}

// Empty reports whether s has no effect at all.
func (s *Summary) Empty() bool {
	return len(s.Acquires) == 0 && len(s.Releases) == 0 && len(s.Holds) == 0 && len(s.CondHolds) == 0 && len(s.ParamCalls) == 0
}

// Result is the lockset analysis of one package. Its methods may be called
// from several goroutines.
type Result struct {
	// SSA is the SSA form the results refer to. Analyzers that query the
	// result must use these functions and instructions (not those of
	// another buildssa run).
	SSA *buildssa.SSA
	// Funcs are the functions analyzed: SSA.SrcFuncs, or none in a
	// standard library package (its locking is not modelled).
	Funcs []*ssa.Function
	// Classifier names mutexes and recognizes lock operations.
	Classifier *Classifier

	mu sync.Mutex
	e  *engine
}

// HeldBefore returns the locks that are held on every path to instr (an
// instruction of one of SSA.SrcFuncs or of a function they call), taking
// into account the function's entry lockset.
func (r *Result) HeldBefore(instr ssa.Instruction) Set {
	fn := instr.Parent()
	if fn == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e.finalFlow(fn).heldBefore(r.e, instr)
}

// LockFlags returns the boolean parameters of fn that decide whether it
// takes or releases a lock (if lock { mu.Lock(); defer mu.Unlock() }):
// which locks are held past such a branch depends on the caller's
// argument, which HeldBeforeWhen tells apart.
func (r *Result) LockFlags(fn *ssa.Function) []*ssa.Parameter {
	if fn.Blocks == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e.lockFlags(fn)
}

// HeldBeforeWhen is HeldBefore on the paths to instr that take the
// branches on p, a boolean parameter of instr's function, as p == want
// does; false when no such path reaches instr.
func (r *Result) HeldBeforeWhen(instr ssa.Instruction, p *ssa.Parameter, want bool) (Set, bool) {
	if instr.Parent() == nil || p.Parent() != instr.Parent() {
		return nil, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e.heldBeforeWhen(instr, p, want)
}

// Ref returns the reference (class and instance) of the mutex v points to.
func (r *Result) Ref(v ssa.Value) (Ref, bool) { return r.Classifier.Ref(v) }

// Op returns the lock operation performed by the call, if any.
func (r *Result) Op(call ssa.CallInstruction) (Op, bool) { return r.Classifier.Op(call.Common()) }

// Summary returns the summary of fn (imported from a fact for functions of
// other packages; empty when unknown).
func (r *Result) Summary(fn *ssa.Function) *Summary {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e.summary(fn)
}

// Entry returns the entry lockset of fn: the locks held at each of its
// call sites when fn is unexported, never used as a value, and only called
// directly from the package; nil otherwise. The locks are Inherited.
func (r *Result) Entry(fn *ssa.Function) Set {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e.entry(fn)
}

// CallSites returns the direct calls of fn in the package when fn is only
// ever called directly (see Entry); nil otherwise.
func (r *Result) CallSites(fn *ssa.Function) []*ssa.Call {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.e.eligible(fn) {
		return nil
	}
	return r.e.callsites[fn]
}

// Callees returns the functions the call may invoke as the lockset
// analysis resolves them: the static callee, or the dynamic callees VTA
// finds among the package's functions (the package's own implementations
// of an interface method where VTA does not apply).
func (r *Result) Callees(call ssa.CallInstruction) []*ssa.Function {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.e.callees(call, call.Common())
}

// Dynamic returns the functions VTA finds that a call of a function
// value or an interface method may invoke, and whether VTA covered the
// call at all: covered with no functions means no value the package
// makes reaches the call (it comes from outside: a parameter of an
// exported function, a field the user sets).
func (r *Result) Dynamic(call ssa.CallInstruction) (fns []*ssa.Function, covered bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.e.graph == nil || call.Common().StaticCallee() != nil {
		return nil, false
	}
	if !r.e.inGraph[call.Parent()] {
		return nil, false
	}
	return r.e.dynamic[call], true
}

// Trace returns the acquisitions, unmatched releases and returns of fn,
// computed from its entry lockset.
func (r *Result) Trace(fn *ssa.Function) *Trace {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := &Trace{}
	obs := &observer{
		acquire: func(a Acquisition) { t.Acquisitions = append(t.Acquisitions, a) },
		release: func(rel Release) { t.Releases = append(t.Releases, rel) },
		ret:     func(ret Return) { t.Returns = append(t.Returns, ret) },
		join:    func(j Join) { t.Joins = append(t.Joins, j) },
	}
	f := r.e.finalFlow(fn)
	f.replay(r.e, obs)
	if f.lossy {
		r.e.firstHeld(f, t.Acquisitions)
	}
	return t
}

func run(pass *analysis.Pass) (any, error) {
	ssaRes, ok := pass.ResultOf[buildssa.Analyzer].(*buildssa.SSA)
	if !ok {
		return nil, fmt.Errorf("lockset: no SSA for package %s", pass.Pkg.Path())
	}
	importFact := func(obj types.Object, s *Summary) bool {
		if !pass.ImportObjectFact(obj, s) {
			return false
		}
		s.parse()
		return true
	}
	res := &Result{SSA: ssaRes}
	funcs := ssaRes.SrcFuncs
	if NotAnalyzed(pass) {
		// The standard library's internal locking is not modelled: its
		// locks are not the user's, and analyzing it costs time.
		funcs = nil
	}
	res.Funcs = funcs
	res.e = newEngine(ssaRes.Pkg, funcs, importFact)
	res.Classifier = res.e.cls
	for _, fn := range funcs {
		res.e.finalFlow(fn)
		res.e.summary(fn)
	}
	if res.e.verifyChans() {
		// Channels taken for mutexes that no function locks and then
		// unlocks itself are signals: compute again without them.
		res.e.reset()
		for _, fn := range funcs {
			res.e.finalFlow(fn)
		}
	}
	for _, fn := range funcs {
		// Only exported functions and methods: other packages cannot
		// call the rest. Facts about methods are re-exported by every
		// package importing this one, directly or not (go vet's facts
		// about fields, methods and types are), so unexported ones
		// would only be decoded and encoded again by each of them.
		obj, ok := fn.Object().(*types.Func)
		if !ok || fn.Parent() != nil || !obj.Exported() || obj.Pkg() != pass.Pkg {
			continue
		}
		s := res.e.summary(fn)
		if s.Empty() {
			continue
		}
		pass.ExportObjectFact(obj, exportable(s))
	}
	return res, nil
}

// exportable returns a copy of s without package-local positions.
func exportable(s *Summary) *Summary {
	strip := func(items []Item) []Item {
		out := make([]Item, len(items))
		for i, it := range items {
			it.Pos = 0
			out[i] = it
		}
		return out
	}
	calls := make([]ParamCall, len(s.ParamCalls))
	for i, pc := range s.ParamCalls {
		calls[i] = ParamCall{Param: pc.Param, Held: strip(pc.Held)}
	}
	return &Summary{Acquires: strip(s.Acquires), Releases: strip(s.Releases), Holds: strip(s.Holds), CondHolds: strip(s.CondHolds), ParamCalls: calls}
}

// NotAnalyzed reports whether the analyzers leave the package of pass
// out: a package of the standard library, whose locks and races are not
// the user's, and analyzing which is most of the cost of go vet
// -vettool. No fact is made about its functions, so calls into it are
// not followed.
func NotAnalyzed(pass *analysis.Pass) bool {
	return inGOROOT(pass)
}

// inGOROOT reports whether the package's files are in the Go
// distribution's source tree.
func inGOROOT(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 {
		return false
	}
	name := pass.Fset.Position(pass.Files[0].Pos()).Filename
	if strings.HasPrefix(name, "$GOROOT"+string(filepath.Separator)) {
		return true
	}
	root := build.Default.GOROOT
	return root != "" && strings.HasPrefix(name, filepath.Join(root, "src")+string(filepath.Separator))
}
