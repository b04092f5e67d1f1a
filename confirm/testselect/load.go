// Package testselect loads a package with its tests into SSA form with a
// VTA call graph, and selects the tests whose executions can reach the
// functions of a warning.
//
// The loaded Program is shared with the sequence generator (package
// sequence imports this package), so that one package is loaded, type
// checked and converted to SSA once per confirmation run.
//
// Every package of the main module that the pattern reaches is loaded
// from source, with its test variants; other dependencies (the standard
// library, third-party modules) are loaded from export data, so their
// function bodies are absent. Calls into them are treated as leaves, and
// function values handed to them (t.Run, sync.Once.Do, sort.Slice...) are
// treated as called by the function that hands them over.
package testselect

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/cha"
	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

// A Program is a set of packages loaded with their tests, in SSA form,
// with a call graph and the reachability of every test function. It is
// safe for concurrent use once Load returns.
type Program struct {
	// Fset is the file set of every loaded file.
	Fset *token.FileSet
	// SSA is the SSA program. Only the packages of the main module have
	// function bodies.
	SSA *ssa.Program
	// Graph is the VTA call graph of the functions with bodies.
	Graph *callgraph.Graph
	// Packages are the loaded packages of the main module, test variants
	// included.
	Packages []*packages.Package

	dir   string
	files map[string][]fileVariant // absolute file name -> its parsed variants
	funcs []*ssa.Function          // functions with bodies, deterministic order
	user  map[*ssa.Function]bool   // funcs as a set
	spans map[string][]funcSpan    // absolute file name -> function spans
	calls map[token.Pos]*ast.CallExpr
	out   map[*ssa.Function][]Edge
	tests []*Test
}

// A fileVariant is one parse of a file: a package and its test variant
// parse the same file separately.
type fileVariant struct {
	tok    *token.File
	syntax *ast.File
}

// A funcSpan is the byte range [start, end) of a function's syntax.
type funcSpan struct {
	start, end int
	fn         *ssa.Function
}

// A Test is a top-level test function of a loaded test package.
type Test struct {
	// Name is the name of the test function, e.g. "TestTransfer".
	Name string
	// Package is the import path of the package under test (without the
	// _test suffix of an external test package).
	Package string
	// Func is the test function.
	Func *ssa.Function

	reach map[funcKey]int           // call-graph steps from Func
	via   map[*ssa.Function]Edge    // BFS tree: the edge that first reached a function
	first map[funcKey]*ssa.Function // the variant of a function reached first
	// spawned holds the functions the test reaches inside a goroutine it
	// starts.
	spawned map[funcKey]bool
}

// loadMode loads typed syntax for the initial packages only; the others
// come from export data.
const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedTypesSizes |
	packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

// Load loads the packages matching pattern in dir, with their tests and
// with every package of the main module they import, builds their SSA
// form and a VTA call graph, and computes what each test reaches.
// buildFlags are passed to the go command (for example "-tags=x").
func Load(ctx context.Context, dir, pattern string, buildFlags []string) (*Program, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("testselect: resolving %s: %w", dir, err)
	}
	if fi, err := os.Stat(abs); err != nil {
		return nil, fmt.Errorf("testselect: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("testselect: %s is not a directory", abs)
	}
	cfg := &packages.Config{Context: ctx, Dir: abs, Mode: loadMode, Tests: true, BuildFlags: buildFlags}
	patterns, err := withModuleDeps(cfg, pattern)
	if err != nil {
		return nil, err
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, fmt.Errorf("testselect: loading %s in %s: %w", pattern, abs, err)
	}
	if err := loadErrors(pkgs); err != nil {
		return nil, fmt.Errorf("testselect: loading %s in %s: %w", pattern, abs, err)
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("testselect: no packages match %q in %s", pattern, abs)
	}
	pkgs = withoutTestMain(pkgs)
	prog, ssaPkgs := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	p := &Program{
		Fset:     pkgs[0].Fset,
		SSA:      prog,
		Packages: pkgs,
		dir:      abs,
		files:    map[string][]fileVariant{},
		user:     map[*ssa.Function]bool{},
		spans:    map[string][]funcSpan{},
		calls:    map[token.Pos]*ast.CallExpr{},
	}
	for i, sp := range ssaPkgs {
		if sp == nil {
			return nil, fmt.Errorf("testselect: no SSA for %s (ill-typed)", pkgs[i].ID)
		}
		sp.Build()
	}
	p.indexSyntax()
	p.indexFuncs(ssaPkgs)
	p.Graph = vta.CallGraph(p.user, cha.CallGraph(prog))
	p.buildEdges()
	p.findTests(ssaPkgs)
	for _, t := range p.tests {
		p.reachFrom(t)
	}
	return p, nil
}

// withModuleDeps returns pattern followed by the import paths of the
// packages of the main module that the matching packages import, so
// that those are loaded from source too.
func withModuleDeps(cfg *packages.Config, pattern string) ([]string, error) {
	listCfg := *cfg
	listCfg.Mode = packages.NeedName | packages.NeedImports | packages.NeedDeps | packages.NeedModule
	roots, err := packages.Load(&listCfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("testselect: listing %s in %s: %w", pattern, cfg.Dir, err)
	}
	if err := loadErrors(roots); err != nil {
		return nil, fmt.Errorf("testselect: listing %s in %s: %w", pattern, cfg.Dir, err)
	}
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r.PkgPath] = true
	}
	var deps []string
	packages.Visit(roots, nil, func(q *packages.Package) {
		if !isRoot[q.PkgPath] && q.Module != nil && q.Module.Main {
			deps = append(deps, q.PkgPath)
		}
	})
	sort.Strings(deps)
	return append([]string{pattern}, deps...), nil
}

// withoutTestMain drops the generated main packages of test binaries
// (ID "p.test"), whose code is the testing framework's.
func withoutTestMain(pkgs []*packages.Package) []*packages.Package {
	var out []*packages.Package
	for _, p := range pkgs {
		if p.Name == "main" && strings.HasSuffix(p.ID, ".test") {
			continue
		}
		out = append(out, p)
	}
	return out
}

// loadErrors returns the errors of the packages, at most five of them.
// The go command's report of a package that does not compile is left out
// when the type checker's errors say the same.
func loadErrors(pkgs []*packages.Package) error {
	var errs []error
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		typed := false
		for _, e := range p.Errors {
			typed = typed || e.Kind != packages.ListError
		}
		for _, e := range p.Errors {
			if len(errs) < 5 && (!typed || e.Kind != packages.ListError) {
				errs = append(errs, e)
			}
		}
	})
	return errors.Join(errs...)
}

// indexSyntax records every parse of every file and the call expressions
// by the position of their left parenthesis, which is the position SSA
// gives a call.
func (p *Program) indexSyntax() {
	for _, pkg := range p.Packages {
		for _, f := range pkg.Syntax {
			tf := p.Fset.File(f.Pos())
			if tf == nil {
				continue
			}
			name := filepath.Clean(tf.Name())
			p.files[name] = append(p.files[name], fileVariant{tok: tf, syntax: f})
			ast.Inspect(f, func(n ast.Node) bool {
				if c, ok := n.(*ast.CallExpr); ok {
					p.calls[c.Lparen] = c
				}
				return true
			})
		}
	}
}

// indexFuncs records the functions with bodies of the loaded packages and
// the byte span of each one's syntax.
func (p *Program) indexFuncs(pkgs []*ssa.Package) {
	mine := map[*ssa.Package]bool{}
	for _, sp := range pkgs {
		mine[sp] = true
	}
	for fn := range ssautil.AllFunctions(p.SSA) {
		pkg := fn.Pkg
		if fn.Origin() != nil {
			pkg = fn.Origin().Pkg
		}
		if !mine[pkg] || fn.Blocks == nil {
			continue
		}
		p.funcs = append(p.funcs, fn)
		p.user[fn] = true
		syn := fn.Syntax()
		if syn == nil && fn.Origin() != nil {
			syn = fn.Origin().Syntax() // an instance of a generic function
		}
		if syn == nil {
			continue
		}
		tf := p.Fset.File(syn.Pos())
		if tf == nil {
			continue
		}
		name := filepath.Clean(tf.Name())
		p.spans[name] = append(p.spans[name], funcSpan{start: tf.Offset(syn.Pos()), end: tf.Offset(syn.End()), fn: fn})
	}
	sort.Slice(p.funcs, func(i, j int) bool { return funcLess(p.Fset, p.funcs[i], p.funcs[j]) })
}

// funcLess orders functions by position, then by name, then by package
// ID so that the variants of one function have a fixed order.
func funcLess(fset *token.FileSet, a, b *ssa.Function) bool {
	pa, pb := fset.Position(a.Pos()), fset.Position(b.Pos())
	if pa.Filename != pb.Filename {
		return pa.Filename < pb.Filename
	}
	if pa.Offset != pb.Offset {
		return pa.Offset < pb.Offset
	}
	if sa, sb := a.String(), b.String(); sa != sb {
		return sa < sb
	}
	return pkgID(a) < pkgID(b)
}

func pkgID(fn *ssa.Function) string {
	if fn.Pkg == nil {
		return ""
	}
	return fmt.Sprintf("%p", fn.Pkg)
}

// findTests records the top-level test functions of the test packages.
func (p *Program) findTests(pkgs []*ssa.Package) {
	for _, sp := range pkgs {
		for _, m := range sp.Members {
			fn, ok := m.(*ssa.Function)
			if !ok || !isTestFunc(p.Fset, fn) {
				continue
			}
			p.tests = append(p.tests, &Test{
				Name:    fn.Name(),
				Package: strings.TrimSuffix(sp.Pkg.Path(), "_test"),
				Func:    fn,
			})
		}
	}
	sort.Slice(p.tests, func(i, j int) bool {
		a, b := p.tests[i], p.tests[j]
		if a.Package != b.Package {
			return a.Package < b.Package
		}
		return a.Name < b.Name
	})
}

// isTestFunc reports whether fn is a function TestXxx(t *testing.T)
// declared in a _test.go file.
func isTestFunc(fset *token.FileSet, fn *ssa.Function) bool {
	name := fn.Name()
	if !strings.HasPrefix(name, "Test") || fn.Signature.Recv() != nil {
		return false
	}
	if rest := name[len("Test"):]; rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
		return false
	}
	if !strings.HasSuffix(fset.Position(fn.Pos()).Filename, "_test.go") {
		return false
	}
	params := fn.Signature.Params()
	if params.Len() != 1 || fn.Signature.Results().Len() != 0 {
		return false
	}
	return params.At(0).Type().String() == "*testing.T"
}

// Tests returns the top-level tests of the loaded packages, ordered by
// package and name.
func (p *Program) Tests() []*Test { return p.tests }

// Functions returns the functions with bodies of the loaded packages,
// every variant of each (a package and its test variant have distinct
// SSA functions for one declaration), ordered by position.
func (p *Program) Functions() []*ssa.Function { return p.funcs }

// Dir returns the absolute directory the program was loaded in.
func (p *Program) Dir() string { return p.dir }
