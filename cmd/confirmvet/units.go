package main

import (
	"encoding/json"
	"go/build"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/ctrlflow"
)

// unitAnalyzers returns the analyzers to run with args: all of them,
// except when go vet hands confirmvet a package only for its facts or a
// package of the standard library (args end with the package's unit.cfg,
// the go vet protocol).
//
// go vet runs its tool on every package the named ones depend on, the
// standard library included, for the facts the tool exports (VetxOnly:
// the findings are not printed). There an analyzer that factsOnly maps
// to a facts-only version (race.FactsAnalyzer, lockorder.FactsAnalyzer)
// is replaced by it, which skips the checks, and which collects garbage
// as it returns (see withCollect).
//
// Outside the standard library each analyzer is also replaced by a copy
// that requires releaseAnalyzer, which frees the inspector, the
// control-flow graphs and most of the type checker's info once buildssa
// has used them (see withRelease).
//
// The Confirm analyzers do not analyze the standard library (lockset
// models none of its locking, race and lockorder skip it), so they export
// no fact about it; but their prerequisites would still build its SSA
// form, which nothing reads. What must still be computed is the facts of
// ctrlflow (which functions never return, such as os.Exit and log.Fatal):
// buildssa reads them to cut the control flow of the packages that call
// them. So for a standard library package each analyzer is replaced by a
// stand-in of the same name (its -name flag keeps working) that only
// requires ctrlflow: the same facts are written, the same (no) findings
// reported, without building SSA.
func unitAnalyzers(args []string, all []*analysis.Analyzer, factsOnly map[*analysis.Analyzer]*analysis.Analyzer) []*analysis.Analyzer {
	if len(args) == 0 || !strings.HasSuffix(args[len(args)-1], ".cfg") {
		return all
	}
	var cfg struct {
		GoFiles  []string
		VetxOnly bool
	}
	data, err := os.ReadFile(args[len(args)-1])
	if err != nil || json.Unmarshal(data, &cfg) != nil || len(cfg.GoFiles) == 0 {
		return all // unitchecker reports a bad configuration itself
	}
	out := make([]*analysis.Analyzer, len(all))
	if !inGOROOT(cfg.GoFiles[0]) {
		for i, a := range all {
			out[i] = a
			if f := factsOnly[a]; f != nil && cfg.VetxOnly {
				out[i] = withCollect(f)
			}
			out[i] = withRelease(out[i])
		}
		return out
	}
	for i, a := range all {
		out[i] = &analysis.Analyzer{
			Name:     a.Name,
			Doc:      a.Doc,
			URL:      a.URL,
			Flags:    a.Flags,
			Requires: []*analysis.Analyzer{ctrlflow.Analyzer},
			Run:      func(*analysis.Pass) (any, error) { return nil, nil },
		}
	}
	return out
}

// inGOROOT reports whether file is in the standard library's source
// tree, as the analyzers decide it (analyzers/internal/lockset).
func inGOROOT(file string) bool {
	if build.Default.GOROOT == "" {
		return false
	}
	return strings.HasPrefix(file, filepath.Join(build.Default.GOROOT, "src")+string(filepath.Separator))
}
