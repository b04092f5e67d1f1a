package pfsm

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// LoadMode is the go/packages mode Build needs.
const LoadMode = packages.LoadSyntax

// Load loads the packages named by patterns, relative to dir, with their
// tests when tests is set, in the mode Build needs.
func Load(dir string, tests bool, patterns ...string) ([]*packages.Package, error) {
	cfg := &packages.Config{Mode: LoadMode, Dir: dir, Tests: tests}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("pfsm: loading %v: %w", patterns, err)
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, err
	}
	return pkgs, nil
}

// packageErrors returns the errors of the loaded packages, if any.
func packageErrors(pkgs []*packages.Package) error {
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, fmt.Errorf("package %s: %w", p.PkgPath, e))
		}
	})
	if len(errs) > 0 {
		return fmt.Errorf("pfsm: %w", errors.Join(errs...))
	}
	return nil
}

// Analyze builds the SSA program of packages loaded with LoadMode and its
// graph. Only the given packages (not their dependencies) have nodes.
func Analyze(pkgs []*packages.Package) (*Graph, error) {
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("pfsm: no packages")
	}
	if slices.Contains(pkgs, nil) {
		return nil, fmt.Errorf("pfsm: nil package in the list")
	}
	if err := packageErrors(pkgs); err != nil {
		return nil, err
	}
	// The generated test main packages ("p.test") hold no user code.
	pkgs = slices.DeleteFunc(slices.Clone(pkgs), func(p *packages.Package) bool {
		return p.Name == "main" && strings.HasSuffix(p.ID, ".test")
	})
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.BuilderMode(0))
	for i, p := range ssaPkgs {
		if p == nil {
			return nil, fmt.Errorf("pfsm: package %s was loaded without syntax or types (use pfsm.LoadMode)", pkgs[i].PkgPath)
		}
	}
	prog.Build()
	// Test variants ("p [p.test]") first: their functions also see the
	// calls from the package's tests.
	scope := slices.Clone(ssaPkgs)
	ids := make(map[*ssa.Package]string, len(pkgs))
	for i, p := range ssaPkgs {
		ids[p] = pkgs[i].ID
	}
	slices.SortStableFunc(scope, func(a, b *ssa.Package) int {
		return boolRank(strings.Contains(ids[b], " [")) - boolRank(strings.Contains(ids[a], " ["))
	})
	return NewGraph(prog, scope)
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Build computes the distance tables of targets over packages loaded with
// LoadMode: Analyze followed by Graph.Distances.
func Build(pkgs []*packages.Package, targets []Target) (*rt.Distances, error) {
	g, err := Analyze(pkgs)
	if err != nil {
		return nil, err
	}
	return g.Distances(targets)
}
