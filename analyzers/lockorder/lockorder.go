// Package lockorder is being written; see doc.go once it lands.
package lockorder

import (
	"reflect"

	"github.com/confirm-go/confirm/analyzers/warning"
	"golang.org/x/tools/go/analysis"
)

// Analyzer is the lockorder analyzer. (Stub: reports nothing yet.)
var Analyzer = &analysis.Analyzer{
	Name:       "lockorder",
	Doc:        "stub",
	Run:        run,
	ResultType: reflect.TypeOf((*warning.Result)(nil)),
}

func run(pass *analysis.Pass) (any, error) { return &warning.Result{}, nil }
