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
// confirmvet also runs on its own:
//
//	confirmvet ./...
//
// In that mode it loads the named packages itself with go/packages (test
// files included unless -test=false), like a multichecker, prints the
// findings the same way and exits with status 3 when there is at least one,
// 1 on errors such as packages that do not build, and 0 otherwise. It offers
// the flags of the standalone analysis driver as well, for example -json,
// -cpuprofile and -memprofile.
//
// Each analyzer can be turned off by name: -race=false or -lockorder=false.
// Findings can be suppressed in the source with //confirm:ignore or
// //nolint:<analyzer> on the line of the finding or alone on the line above.
package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
)

func main() {
	// multichecker.Main hands a single *.cfg argument (the go vet
	// protocol) to unitchecker and loads packages itself otherwise.
	multichecker.Main(lockorder.Analyzer, race.Analyzer)
}
