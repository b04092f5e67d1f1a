package race_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/confirm-go/confirm/analyzers/race"
)

func TestAnalyzer(t *testing.T) {
	// Fixtures of one package are checked without facts, so that their
	// expectations list only diagnostics; the cross-package fixture
	// checks the facts too.
	noFacts := *race.Analyzer
	noFacts.FactTypes = nil
	tests := []struct {
		name     string
		analyzer *analysis.Analyzer
		pkgs     []string
	}{
		{"lock discipline", &noFacts, []string{"counter"}},
		{"goroutines", &noFacts, []string{"goroutines"}},
		{"unusual code", &noFacts, []string{"odd"}},
		{"cgo", &noFacts, []string{"cgouse"}},
		{"facts across packages", race.Analyzer, []string{"app"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			analysistest.Run(t, analysistest.TestData(), tt.analyzer, tt.pkgs...)
		})
	}
}
