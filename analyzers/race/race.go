// Package race is being written; see doc.go once it lands.
package race

import (
	"reflect"

	"github.com/confirm-go/confirm/analyzers/warning"
	"golang.org/x/tools/go/analysis"
)

// Analyzer is the race analyzer. (Stub: reports nothing yet.)
var Analyzer = &analysis.Analyzer{
	Name:       "race",
	Doc:        "stub",
	Run:        run,
	ResultType: reflect.TypeOf((*warning.Result)(nil)),
}

func run(pass *analysis.Pass) (any, error) { return &warning.Result{}, nil }
