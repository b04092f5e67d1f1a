package main

import (
	"go/types"
	"runtime"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// releaseAnalyzer frees, once buildssa has built a unit's SSA form, the
// results that only buildssa needed: the inspector of inspect (an event
// for every node of the package's syntax), the control-flow graphs of
// ctrlflow (their facts, the functions that never return, are kept) and
// most of the type checker's info (see releaseTypesInfo).
// unitchecker holds every analyzer's result until the unit is done, so
// without it they stay live through the lockset, race and lockorder
// runs, where the heap peaks.
//
// It then collects garbage: the heap was last measured while the package
// was type-checked and built, at about twice what is live once these
// results and buildssa's own working state are gone, and the collector
// would let the analyzers that follow grow the heap to twice that before
// it looked again (on nats-server's server package, 460 MiB of heap
// where a collection here finds 130 MiB live). One collection per
// unit, of its syntax, types and SSA form, costs little (see withCollect).
//
// It is only correct in confirmvet's own units, where no analyzer but
// ctrlflow and buildssa reads these results: the Confirm analyzers
// require buildssa and lockset alone, and read of the info only Defs.
// See withRelease.
var releaseAnalyzer = &analysis.Analyzer{
	Name:     "confirmrelease",
	Doc:      "free the results only buildssa needs once it has run (internal to confirmvet)",
	Requires: []*analysis.Analyzer{inspect.Analyzer, ctrlflow.Analyzer, buildssa.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		if insp, ok := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector); ok && insp != nil {
			*insp = inspector.Inspector{}
		}
		if cfgs, ok := pass.ResultOf[ctrlflow.Analyzer].(*ctrlflow.CFGs); ok && cfgs != nil {
			*cfgs = ctrlflow.CFGs{}
		}
		releaseTypesInfo(pass.TypesInfo)
		runtime.GC()
		return nil, nil
	},
}

// withRelease returns a copy of a that also requires releaseAnalyzer, so
// that the results only buildssa reads are freed before a runs (a itself
// requires buildssa, or lockset, which does).
func withRelease(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Requires = append([]*analysis.Analyzer{releaseAnalyzer}, a.Requires...)
	return &c
}

// releaseTypesInfo empties the maps of the type checker's info that only
// the SSA builder reads: the type and value of every expression, the
// object of every use, the selections, implicit objects, instances and
// scopes (about a third of the type checker's live heap on a large
// package). Defs is kept: race reads it (the types a contract comment
// documents), and the objects themselves stay reachable from the package.
//
// Nothing reads the others once buildssa has run: the SSA package drops
// its reference to the info once built, and the functions that keep one,
// generic functions, read it only to build instances from syntax, which
// buildssa's builder mode (no ssa.InstantiateGenerics) never does: it
// builds instantiation wrappers instead.
func releaseTypesInfo(info *types.Info) {
	if info == nil {
		return
	}
	info.Types = nil
	info.Uses = nil
	info.Implicits = nil
	info.Selections = nil
	info.Instances = nil
	info.Scopes = nil
}

// withCollect returns a copy of a whose run ends with a garbage
// collection, for the analyzers of a package's facts-only run (see
// unitAnalyzers). Their working state (race's summaries, lockorder's
// edges) dies as they return, but the collector would only notice it
// once the heap reached twice what was live at the last collection,
// which was taken while they ran: the encoding of the facts, which
// follows, then grows the heap to that goal instead of reusing the
// memory they freed. On the largest dependency under nats.go that
// growth is the process's peak. One collection per analyzer, of a heap
// that is mostly the package's syntax, types and SSA form, costs far less
// than a lower GOGC for the whole run.
func withCollect(a *analysis.Analyzer) *analysis.Analyzer {
	c := *a
	c.Run = func(pass *analysis.Pass) (any, error) {
		res, err := a.Run(pass)
		runtime.GC()
		return res, err
	}
	return &c
}
