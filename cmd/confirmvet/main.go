// Command confirmvet runs the Confirm analyzers (lockorder and race) the way
// go vet runs its own checks.
//
// Build it and hand it to go vet:
//
//	go install github.com/confirm-go/confirm/cmd/confirmvet@latest
//	go vet -vettool=$(go env GOPATH)/bin/confirmvet ./...
//
// go vet then analyzes each package once, in dependency order, with its
// build cache: it asks confirmvet for its flags (-flags) and its identity
// (-V=full, a hash of the executable, so a rebuilt confirmvet never reuses
// stale results) and then calls it once per package with a unit.cfg file
// describing that package. Findings are printed as file:line:col: message,
// and go vet exits with status 1 when there is at least one.
//
// go vet also runs confirmvet on every dependency, the standard library
// included, for the facts the analyzers export. There race runs as
// race.FactsAnalyzer and lockorder as lockorder.FactsAnalyzer, which
// export their facts without making their checks.
// The analyzers do not analyze the standard library and export nothing
// about it, so for its packages confirmvet computes only the facts
// buildssa needs from them (ctrlflow's: which functions never return) and
// does not build their SSA form: the same facts and findings at about
// half the cost.
//
// confirmvet also runs on its own:
//
//	confirmvet ./...
//
// In that mode it hands the work to go vet -vettool=<itself> (see above),
// so that it reports exactly what go vet does, one package per process
// with go's caches: the memory of one package at a time, where loading a
// large module into one process takes gigabytes. It prints each finding
// once, as file:line:col: message (or, with -json, as JSON by package and
// analyzer), and exits with status 3 when there is at least one, 1 on
// errors such as packages that do not build, and 0 otherwise. Build flags
// (-tags, -mod) go to go vet. With a flag of the in-process analysis
// driver (-test=false, -cpuprofile, -memprofile, -trace, -fix, -diff, -c,
// -debug), it loads the named packages itself with go/packages, like a
// multichecker, and reports the same way.
//
// Each analyzer can be turned off by name: -race=false or -lockorder=false.
// Findings can be suppressed in the source with //confirm:ignore or
// //nolint:<analyzer> on the line of the finding or alone on the line above.
package main

import (
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
)

func main() {
	if delegates(os.Args[1:]) {
		os.Exit(runViaGoVet(os.Args[1:], os.Stdout, os.Stderr))
	}
	tuneGC(gcSlack)
	// multichecker.Main hands a single *.cfg argument (the go vet
	// protocol) to unitchecker and loads packages itself otherwise.
	all := []*analysis.Analyzer{lockorder.Analyzer, race.Analyzer}
	factsOnly := map[*analysis.Analyzer]*analysis.Analyzer{lockorder.Analyzer: lockorder.FactsAnalyzer, race.Analyzer: race.FactsAnalyzer}
	multichecker.Main(unitAnalyzers(os.Args[1:], all, factsOnly)...)
}
