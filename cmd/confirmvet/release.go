package main

import (
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/buildssa"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
)

// releaseAnalyzer frees, once buildssa has built a unit's SSA form, the
// results that only buildssa needed: the inspector of inspect (an event
// for every node of the package's syntax) and the control-flow graphs of
// ctrlflow (their facts, the functions that never return, are kept).
// unitchecker holds every analyzer's result until the unit is done, so
// without it they stay live through the lockset, race and lockorder
// runs, where the heap peaks.
//
// It is only correct in confirmvet's own units, where no analyzer but
// ctrlflow and buildssa reads these results: the Confirm analyzers
// require buildssa and lockset alone. See withRelease.
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
