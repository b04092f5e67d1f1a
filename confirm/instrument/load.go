package instrument

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
)

// loaded is the package under test as go/packages loaded it.
type loaded struct {
	plain   *packages.Package // the package itself
	primary *packages.Package // its test variant (with internal test files), else plain
	xtest   *packages.Package // the external test package, or nil
	// deps are the other packages of the main module (and of the
	// workspace's modules) that the test binary links, in dependency
	// order: their synchronization is rewritten too, so that a lock or a
	// channel of a package the test only imports is scheduled and
	// ordered like the package's own.
	deps   []*packages.Package
	module *packages.Module
	dir    string
	goVer  string // the module's go version, "go1.22"
	// notes say which packages of the module stay uncontrolled, and why;
	// each limits what the scheduler controls (see Result.Uncontrolled).
	notes []string
	// syncs holds the packages outside the standard library that the
	// test binary links and that may synchronize (see outsideSync).
	syncs map[string]bool
}

const loadMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles |
	packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo |
	packages.NeedModule

// load loads pattern (one package) with its tests from dir; files are
// extra files of it that exist only in the overlay.
func load(ctx context.Context, dir, pattern string, flags []string, files map[string][]byte) (*loaded, error) {
	if pattern == "" {
		return nil, errors.New("instrument: no package given")
	}
	cfg := &packages.Config{Mode: loadMode, Context: ctx, Dir: dir, Tests: true, BuildFlags: flags, Fset: token.NewFileSet(), Overlay: files}
	pkgs, err := packages.Load(cfg, pattern)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", pattern, err)
	}
	lp := &loaded{}
	var plains []*packages.Package
	for _, p := range pkgs {
		if p.ID == p.PkgPath && !strings.HasSuffix(p.PkgPath, ".test") {
			plains = append(plains, p)
		}
	}
	switch len(plains) {
	case 0:
		if len(pkgs) > 0 && len(pkgs[0].Errors) > 0 {
			return nil, fmt.Errorf("package %s:\n\t%w", pattern, pkgErrors(pkgs[0]))
		}
		return nil, fmt.Errorf("package %s: no Go package matched", pattern)
	case 1:
		lp.plain = plains[0]
	default:
		return nil, fmt.Errorf("package %s: matches %d packages; instrument one at a time", pattern, len(plains))
	}
	lp.primary = lp.plain
	for _, p := range pkgs {
		switch {
		case p.ID != p.PkgPath && p.PkgPath == lp.plain.PkgPath:
			lp.primary = p
		case p.PkgPath == lp.plain.PkgPath+"_test":
			lp.xtest = p
		}
	}
	for _, p := range lp.rewrite() {
		if len(p.Errors) > 0 {
			return nil, fmt.Errorf("package %s does not load:\n\t%w", p.PkgPath, pkgErrors(p))
		}
		if len(p.GoFiles) != len(p.CompiledGoFiles) || len(p.Syntax) != len(p.CompiledGoFiles) {
			return nil, fmt.Errorf("package %s uses cgo, which the instrumenter does not support", p.ID)
		}
	}
	lp.module = lp.plain.Module
	if lp.module == nil || lp.module.Dir == "" {
		return nil, fmt.Errorf("package %s is not in a module (GOPATH mode); the runtime can only be injected into a module", lp.plain.PkgPath)
	}
	for _, p := range []*packages.Package{lp.plain, lp.primary, lp.xtest} {
		if p != nil && len(p.GoFiles) > 0 {
			lp.dir = filepath.Dir(p.GoFiles[0])
			break
		}
	}
	if lp.dir == "" {
		return nil, fmt.Errorf("package %s has no Go files", lp.plain.PkgPath)
	}
	if !lp.module.Main {
		return nil, fmt.Errorf("package %s belongs to module %s, a dependency: only packages of the main module (or of the workspace's modules) can be instrumented", lp.plain.PkgPath, lp.module.Path)
	}
	if v := lp.module.GoVersion; v != "" {
		lp.goVer = "go" + v
	}
	if err := lp.loadDeps(ctx, cfg); err != nil {
		return nil, err
	}
	return lp, nil
}

// loadDeps loads, into the package's file set, the packages of the main
// modules that the package and its tests import, directly or not, and
// orders them so that a package comes after those it imports. A package
// that cannot be rewritten (cgo) stays uncontrolled, with a note.
func (lp *loaded) loadDeps(ctx context.Context, cfg *packages.Config) error {
	list := &packages.Config{
		Mode:    packages.NeedName | packages.NeedModule | packages.NeedImports | packages.NeedDeps,
		Context: ctx, Dir: cfg.Dir, Tests: true, BuildFlags: cfg.BuildFlags, Overlay: cfg.Overlay,
	}
	roots, err := packages.Load(list, lp.plain.PkgPath)
	if err != nil {
		return fmt.Errorf("listing the imports of %s: %w", lp.plain.PkgPath, err)
	}
	// A package that imports the package under test (a test helper of
	// the module, imported by the external tests) is compiled against its
	// test variant: it stays as it is.
	importsTarget := make(map[*packages.Package]bool)
	var reaches func(p *packages.Package, seen map[*packages.Package]bool) bool
	reaches = func(p *packages.Package, seen map[*packages.Package]bool) bool {
		if v, ok := importsTarget[p]; ok {
			return v
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		found := false
		for _, q := range p.Imports {
			if q.PkgPath == lp.plain.PkgPath || (q.Module != nil && q.Module.Main && reaches(q, seen)) {
				found = true
				break
			}
		}
		importsTarget[p] = found
		return found
	}
	lp.syncs = syncingPackages(roots)
	var paths []string
	seen := make(map[string]bool)
	packages.Visit(roots, nil, func(p *packages.Package) {
		path := p.PkgPath
		if seen[path] || p.ID != path || path == lp.plain.PkgPath || path == lp.plain.PkgPath+"_test" ||
			strings.HasSuffix(path, ".test") || p.Module == nil || !p.Module.Main {
			return
		}
		seen[path] = true
		if reaches(p, make(map[*packages.Package]bool)) {
			lp.notes = append(lp.notes, fmt.Sprintf("package %s (imported) stays uncontrolled: it imports the package under test", path))
			return
		}
		paths = append(paths, path)
	})
	if len(paths) == 0 {
		return nil
	}
	sort.Strings(paths)
	dcfg := *cfg
	dcfg.Tests = false
	deps, err := packages.Load(&dcfg, paths...)
	if err != nil {
		return fmt.Errorf("loading the packages %s imports: %w", lp.plain.PkgPath, err)
	}
	byPath := make(map[string]*packages.Package, len(deps))
	for _, p := range deps {
		switch {
		case len(p.Errors) > 0:
			lp.notes = append(lp.notes, fmt.Sprintf("package %s (imported) stays uncontrolled: it does not load: %v", p.PkgPath, p.Errors[0]))
		case len(p.GoFiles) != len(p.CompiledGoFiles) || len(p.Syntax) != len(p.CompiledGoFiles):
			lp.notes = append(lp.notes, fmt.Sprintf("package %s (imported) stays uncontrolled: it uses cgo", p.PkgPath))
		default:
			byPath[p.PkgPath] = p
		}
	}
	// Dependency order (depth-first over the imports among them).
	done := make(map[string]bool)
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if done[p.PkgPath] {
			return
		}
		done[p.PkgPath] = true
		imps := make([]string, 0, len(p.Imports))
		for path := range p.Imports {
			imps = append(imps, path)
		}
		sort.Strings(imps)
		for _, path := range imps {
			if q := byPath[path]; q != nil {
				visit(q)
			}
		}
		lp.deps = append(lp.deps, p)
	}
	for _, path := range paths {
		if p := byPath[path]; p != nil {
			visit(p)
		}
	}
	return nil
}

// syncingPackages returns the packages outside the standard library in
// the import graph of roots that may synchronize goroutines: they import
// sync or sync/atomic, or a package of their own module that does. (Not
// through other modules: a test helper that imports a YAML library with a
// cache behind a mutex does not synchronize its callers; and not through
// channels alone, which an import does not show.)
func syncingPackages(roots []*packages.Package) map[string]bool {
	out := make(map[string]bool)
	done := make(map[*packages.Package]bool)
	var visit func(p *packages.Package) bool
	visit = func(p *packages.Package) bool {
		if v, ok := done[p]; ok {
			return v
		}
		done[p] = false // an import cycle through test variants ends here
		syncs := false
		for path, q := range p.Imports {
			switch {
			case q.Module == nil:
				syncs = syncs || path == "sync" || path == "sync/atomic"
			case p.Module != nil && q.Module.Path == p.Module.Path:
				syncs = visit(q) || syncs
			default:
				visit(q)
			}
		}
		done[p] = syncs
		if syncs && p.Module != nil {
			out[p.PkgPath] = true
		}
		return syncs
	}
	for _, p := range roots {
		visit(p)
	}
	return out
}

// outsideSync reports whether a function of package path runs outside
// control and may synchronize: a package outside the standard library
// that is not rewritten and may synchronize (see syncingPackages).
func (lp *loaded) outsideSync(path string) bool {
	if !lp.syncs[path] {
		return false
	}
	for _, p := range lp.all() {
		if p.PkgPath == path {
			return false
		}
	}
	return true
}

// all returns the packages whose files are rewritten: the package (its
// test variant), its external tests and the module's packages it imports.
func (lp *loaded) all() []*packages.Package {
	return append(lp.rewrite(), lp.deps...)
}

// isDep reports whether p is one of the module's packages the package
// imports (rewritten for their synchronization only).
func (lp *loaded) isDep(p *packages.Package) bool { return slices.Contains(lp.deps, p) }

// pkgErrors quotes the first errors of a package as the go command
// prints them. When the go command reported errors, its messages are kept
// and the parser's and type checker's, which say the same again in other
// words, are left out; its "# package" header lines are dropped, and so is
// the "-" position of errors that have none.
func pkgErrors(p *packages.Package) error {
	fromGo := false
	for _, e := range p.Errors {
		fromGo = fromGo || e.Kind == packages.ListError
	}
	var lines []string
	seen := make(map[string]bool)
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !seen[s] {
			seen[s] = true
			lines = append(lines, s)
		}
	}
	for _, e := range p.Errors {
		switch {
		case e.Kind == packages.ListError:
			for _, line := range strings.Split(e.Msg, "\n") {
				if !strings.HasPrefix(line, "# ") {
					add(line)
				}
			}
		case !fromGo:
			add(strings.TrimPrefix(e.Error(), "-: "))
		}
	}
	const most = 10
	if len(lines) > most {
		lines = append(lines[:most], fmt.Sprintf("and %d more errors", len(lines)-most))
	}
	return errors.New(strings.Join(lines, "\n\t"))
}

// rewrite returns the packages whose files are rewritten.
func (lp *loaded) rewrite() []*packages.Package {
	ps := []*packages.Package{lp.primary}
	if lp.xtest != nil {
		ps = append(ps, lp.xtest)
	}
	return ps
}

// namer returns a namer whose prefix no identifier of the package uses.
func (lp *loaded) namer() *namer {
	idents := make(map[string]bool)
	for _, p := range lp.all() {
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok {
					idents[id.Name] = true
				}
				return true
			})
		}
	}
	prefix := "confirm_"
	for i := 0; ; i++ {
		clash := false
		for id := range idents {
			if strings.HasPrefix(id, prefix) {
				clash = true
				break
			}
		}
		if !clash {
			break
		}
		prefix = fmt.Sprintf("confirm%d_", i)
	}
	return &namer{prefix: prefix, idents: idents}
}

// keepReal marks the sync types of the variables and fields that appear on
// the lines of errs to stay real, and reports whether it marked any. Such
// a variable flows into code that demands the real type (a dependency's
// *sync.Mutex parameter, say).
func (lp *loaded) keepReal(errs []error, keep map[token.Pos]bool, s *sink) bool {
	lines := make(map[string]bool)
	for _, err := range errs {
		var te types.Error
		if errors.As(err, &te) {
			p := te.Fset.Position(te.Pos)
			lines[fmt.Sprintf("%s:%d", p.Filename, p.Line)] = true
		}
	}
	marked := false
	for _, p := range lp.all() {
		for _, f := range p.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				e, ok := n.(ast.Expr)
				if !ok {
					return true
				}
				pos := p.Fset.Position(e.Pos())
				if !lines[fmt.Sprintf("%s:%d", pos.Filename, pos.Line)] {
					return true
				}
				if call, ok := e.(*ast.CallExpr); ok && lp.keepParams(p, call, keep, s) {
					marked = true
				}
				if ref := syncRef(p.TypesInfo, e); ref != "" && !keep[e.Pos()] {
					// new(sync.Mutex), sync.Mutex{} and the like on the
					// line: keep the reference itself real.
					keep[e.Pos()] = true
					marked = true
					s.limit("%s: %s stays the real type: the value flows into code that needs it; its operations are not scheduling points", pos, ref)
					return false
				}
				if !mentionsSync(p.TypesInfo.TypeOf(e)) {
					return true
				}
				obj := exprObject(p.TypesInfo, e)
				if obj == nil || obj.Pkg() != p.Types && (lp.xtest == nil || obj.Pkg() != lp.primary.Types) {
					return true
				}
				if lp.markDecl(obj, keep) {
					marked = true
					s.limit("%s: %s keeps its real sync type: it flows into code that needs the real type here; its operations are not scheduling points", pos, obj.Name())
				}
				return true
			})
		}
	}
	return marked
}

// keepParams keeps real the sync types of the parameters of a function of
// the package that receive real sync values from a call on an error line
// (a mutex of a dependency's struct passed to the package's own function).
func (lp *loaded) keepParams(p *packages.Package, call *ast.CallExpr, keep map[token.Pos]bool, s *sink) bool {
	fn, ok := typeutil.Callee(p.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg() != p.Types && (lp.xtest == nil || fn.Pkg() != lp.primary.Types) {
		return false
	}
	sig := fn.Signature()
	marked := false
	for i, arg := range call.Args {
		if i >= sig.Params().Len() || !mentionsSync(p.TypesInfo.TypeOf(arg)) {
			continue
		}
		param := sig.Params().At(i)
		if lp.markDecl(param, keep) {
			marked = true
			s.limit("%s: parameter %s of %s keeps its real sync type: it receives a value of the real type here; its operations are not scheduling points",
				p.Fset.Position(arg.Pos()), param.Name(), fn.Name())
		}
	}
	return marked
}

// syncRef returns "sync.X" if e is a replaced name of sync or sync/atomic
// (qualified or dot-imported), else "".
func syncRef(info *types.Info, e ast.Expr) string {
	var id *ast.Ident
	switch x := e.(type) {
	case *ast.SelectorExpr:
		if _, ok := info.Uses[x.Sel].(*types.PkgName); ok {
			return ""
		}
		id = x.Sel
		if xid, ok := x.X.(*ast.Ident); !ok {
			return ""
		} else if _, ok := info.Uses[xid].(*types.PkgName); !ok {
			return ""
		}
	case *ast.Ident:
		id = x
	default:
		return ""
	}
	o := info.Uses[id]
	if o == nil || o.Pkg() == nil || !syncPackage(o.Pkg().Path()) || o.Parent() != o.Pkg().Scope() || replacedNames[o.Pkg().Path()][o.Name()] == "" {
		return ""
	}
	return o.Pkg().Name() + "." + o.Name()
}

// mentionsSync reports whether t is, or points to, a replaced sync type.
func mentionsSync(t types.Type) bool {
	for t != nil {
		switch x := types.Unalias(t).(type) {
		case *types.Pointer:
			t = x.Elem()
		case *types.Named:
			return x.Obj().Pkg() != nil && syncPackage(x.Obj().Pkg().Path()) && replacedNames[x.Obj().Pkg().Path()][x.Obj().Name()] != ""
		default:
			return false
		}
	}
	return false
}

// exprObject returns the variable or field e denotes (through & and parens).
func exprObject(info *types.Info, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return info.Uses[x]
	case *ast.SelectorExpr:
		if s := info.Selections[x]; s != nil {
			return s.Obj()
		}
		return info.Uses[x.Sel]
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return exprObject(info, x.X)
		}
	}
	return nil
}

// markDecl marks the replaced sync names in the declaration of obj.
func (lp *loaded) markDecl(obj types.Object, keep map[token.Pos]bool) bool {
	marked := false
	for _, p := range lp.all() {
		for _, f := range p.Syntax {
			if obj.Pos() < f.FileStart || obj.Pos() > f.FileEnd {
				continue
			}
			var decl ast.Node // the innermost declaration holding obj
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil || n.Pos() > obj.Pos() || n.End() <= obj.Pos() {
					return false
				}
				switch n.(type) {
				case *ast.Field, *ast.ValueSpec, *ast.AssignStmt:
					decl = n
				}
				return true
			})
			if decl == nil {
				continue
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				switch x := n.(type) {
				case *ast.SelectorExpr:
					if o := p.TypesInfo.Uses[x.Sel]; o != nil && o.Pkg() != nil && replacedNames[o.Pkg().Path()][o.Name()] != "" && syncPackage(o.Pkg().Path()) && !keep[x.Pos()] {
						keep[x.Pos()] = true
						marked = true
					}
				case *ast.Ident:
					if o := p.TypesInfo.Uses[x]; o != nil && o.Pkg() != nil && syncPackage(o.Pkg().Path()) && replacedNames[o.Pkg().Path()][o.Name()] != "" && !keep[x.Pos()] {
						keep[x.Pos()] = true
						marked = true
					}
				}
				return true
			})
		}
	}
	return marked
}
