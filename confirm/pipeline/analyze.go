package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
	"github.com/confirm-go/confirm/analyzers/warning"
)

// Analyzers are the analyzers whose warnings Run confirms.
var Analyzers = []*analysis.Analyzer{lockorder.Analyzer, race.Analyzer}

// Analyze runs the analyzers as Run does before it confirms anything: on
// the packages of opts.Patterns, with their tests, in opts.Dir. It returns
// the warnings, each once, and the packages that could not be analyzed.
func Analyze(opts Options) ([]*warning.Warning, []PackageError, error) {
	ws, errs, _, err := analyze(opts)
	return ws, errs, err
}

// loaded says what analyze found of the packages besides the warnings.
type loaded struct {
	// tested are the import paths of the packages that have tests and
	// type-check, in order, for exploration.
	tested []string
	// importers maps a package to the other tested packages whose tests
	// import it, directly or not, in order: their tests may run its code.
	importers map[string][]string
}

// analyze loads the packages of opts.Patterns with their tests and runs
// the analyzers on those that type-check. Packages with errors are
// returned as PackageErrors quoting the compiler; the warnings of the
// others are returned each once.
//
// It also returns what it found of the packages (see loaded).
func analyze(opts Options) ([]*warning.Warning, []PackageError, *loaded, error) {
	cfg := &packages.Config{
		Mode:       packages.LoadAllSyntax,
		Dir:        opts.Dir,
		Tests:      true,
		BuildFlags: opts.BuildFlags,
	}
	pkgs, err := packages.Load(cfg, opts.Patterns...)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("loading %s: %w", strings.Join(opts.Patterns, " "), err)
	}
	if len(pkgs) == 0 {
		return nil, nil, nil, fmt.Errorf("no packages match %s", strings.Join(opts.Patterns, " "))
	}
	var (
		good    []*packages.Package
		pkgErrs []PackageError
		broken  = make(map[string]bool)
	)
	for _, p := range pkgs {
		if msg := loadErrors(p); msg != "" {
			path := basePath(p)
			if !broken[path] {
				broken[path] = true
				pkgErrs = append(pkgErrs, PackageError{Package: path, Message: msg})
			}
			continue
		}
		good = append(good, p)
	}
	var kept []*packages.Package
	for _, p := range good {
		if !broken[basePath(p)] {
			kept = append(kept, p)
		}
	}
	if len(kept) == 0 {
		return nil, pkgErrs, &loaded{}, nil
	}
	ld := &loaded{importers: make(map[string][]string)}
	for _, p := range kept {
		// A package with tests has a test variant "p [p.test]" (or an
		// external test package); the generated "p.test" main is not one.
		if path := basePath(p); strings.Contains(p.ID, " [") && !slices.Contains(ld.tested, path) {
			ld.tested = append(ld.tested, path)
		}
	}
	analyzed := make(map[string]bool)
	for _, p := range kept {
		analyzed[basePath(p)] = true
	}
	for _, p := range kept {
		q := basePath(p)
		if !strings.Contains(p.ID, " [") {
			continue // the tests are in the test variants
		}
		packages.Visit([]*packages.Package{p}, nil, func(dep *packages.Package) {
			if path := dep.PkgPath; path != q && analyzed[path] && !slices.Contains(ld.importers[path], q) {
				ld.importers[path] = append(ld.importers[path], q)
			}
		})
	}
	for _, qs := range ld.importers {
		slices.Sort(qs)
	}
	graph, err := checker.Analyze(Analyzers, vetRoots(kept), nil)
	if err != nil {
		return nil, pkgErrs, nil, fmt.Errorf("analyzing: %w", err)
	}
	var out []*warning.Warning
	seen := make(map[string]bool)
	for _, act := range graph.Roots {
		if act.Err != nil {
			path := basePath(act.Package)
			if !broken[path] {
				broken[path] = true
				pkgErrs = append(pkgErrs, PackageError{Package: path, Message: fmt.Sprintf("%s: %v", act.Analyzer.Name, act.Err)})
			}
			continue
		}
		res, ok := act.Result.(*warning.Result)
		if !ok {
			continue
		}
		for _, w := range res.Warnings {
			if !seen[w.ID] {
				seen[w.ID] = true
				// An external test package's warnings are the package's:
				// one test file, one package name.
				w.Package = basePath(act.Package)
				out = append(out, w)
			}
		}
	}
	return out, pkgErrs, ld, nil
}

// loadErrors returns the errors of p and of the packages it imports, as
// the compiler would print them, or "".
func loadErrors(p *packages.Package) string {
	var lines []string
	seen := make(map[string]bool)
	packages.Visit([]*packages.Package{p}, nil, func(q *packages.Package) {
		for _, e := range q.Errors {
			s := strings.TrimPrefix(e.Error(), "-: ")
			if !seen[s] {
				seen[s] = true
				lines = append(lines, s)
			}
		}
	})
	return strings.Join(lines, "\n")
}

// basePath is the import path of p without its test-variant suffix
// ("p [p.test]" and "p_test [p.test]" are p, "p.test" is p).
func basePath(p *packages.Package) string {
	path := p.PkgPath
	if i := strings.Index(p.ID, " ["); i >= 0 {
		path = strings.TrimSuffix(p.ID[i+2:], "]")
	}
	return strings.TrimSuffix(path, ".test")
}

// absDir returns dir made absolute ("" is the current directory) after
// checking that it is a directory.
func absDir(dir string) (string, error) {
	if dir == "" {
		return os.Getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("directory %s: %w", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("directory %s: %w", dir, err)
	}
	if !st.IsDir() {
		return "", fmt.Errorf("%s is not a directory", dir)
	}
	return abs, nil
}

// vetRoots returns the packages whose warnings are reported, as go vet
// chooses them: a package with tests in its own package is analyzed as
// its test variant "p [p.test]" (the same files and the tests) and not
// also alone; a package with only external tests is analyzed alone and
// with its external test package. So confirm ./... and go vet
// -vettool=confirmvet ./... report the same warnings.
func vetRoots(pkgs []*packages.Package) []*packages.Package {
	variant := make(map[string]bool)
	for _, p := range pkgs {
		if strings.HasSuffix(p.ID, " ["+p.PkgPath+".test]") {
			variant[p.PkgPath] = true
		}
	}
	var out []*packages.Package
	for _, p := range pkgs {
		if p.ID == p.PkgPath && variant[p.PkgPath] {
			continue
		}
		out = append(out, p)
	}
	return out
}
