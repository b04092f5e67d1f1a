package instrument

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
)

// typecheck type-checks the rewritten package (and its external tests)
// against the injected runtime and returns the errors, with positions in
// the user's files.
func typecheck(ctx context.Context, lp *loaded, flags []string, rtFiles map[string][]byte, rtPath string, out *rewritten) []error {
	fset := token.NewFileSet()
	var errs []error
	parse := func(name string, src []byte) *ast.File {
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			errs = append(errs, err)
		}
		return f
	}
	var rtSyntax, primary, xtest []*ast.File
	rtNames := make([]string, 0, len(rtFiles))
	for n := range rtFiles {
		rtNames = append(rtNames, n)
	}
	sort.Strings(rtNames)
	for _, n := range rtNames {
		rtSyntax = append(rtSyntax, parse(n, rtFiles[n]))
	}
	deps := make(map[string][]*ast.File)
	for _, n := range out.order {
		f := parse(n, out.files[n])
		switch {
		case out.dep[n] != "":
			deps[out.dep[n]] = append(deps[out.dep[n]], f)
		case out.xtest[n]:
			xtest = append(xtest, f)
		default:
			primary = append(primary, f)
		}
	}
	if len(errs) > 0 {
		return errs
	}
	all := append(append(append([]*ast.File(nil), rtSyntax...), primary...), xtest...)
	for _, fs := range deps {
		all = append(all, fs...)
	}
	paths := importPaths(all)
	delete(paths, rtPath)
	delete(paths, lp.plain.PkgPath)
	for _, p := range lp.deps {
		delete(paths, p.PkgPath)
	}
	exports, err := exportFiles(ctx, lp.dir, flags, paths)
	if err != nil {
		return []error{err}
	}
	imp := &overlayImporter{
		gc: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
			f, ok := exports[path]
			if !ok {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(f)
		}).(types.ImporterFrom),
		pkgs: make(map[string]*types.Package),
	}
	check := func(path string, files []*ast.File, ver string) *types.Package {
		conf := types.Config{
			Importer:  imp,
			GoVersion: ver,
			Sizes:     types.SizesFor("gc", runtime.GOARCH),
			Error:     func(err error) { errs = append(errs, err) },
		}
		p, _ := conf.Check(path, fset, files, nil)
		return p
	}
	imp.pkgs[rtPath] = check(rtPath, rtSyntax, lp.goVer)
	if len(errs) > 0 {
		return append([]error{fmt.Errorf("the runtime does not type-check in module %s (go %s)", lp.module.Path, lp.module.GoVersion)}, errs...)
	}
	// The module's other packages, rewritten, in dependency order: the
	// package and they import them from their rewritten source.
	for _, p := range lp.deps {
		ver := lp.goVer
		if p.Module != nil && p.Module.GoVersion != "" {
			ver = "go" + p.Module.GoVersion
		}
		imp.pkgs[p.PkgPath] = check(p.PkgPath, deps[p.PkgPath], ver)
	}
	imp.pkgs[lp.plain.PkgPath] = check(lp.plain.PkgPath, primary, lp.goVer)
	// The external tests are checked only when no package between them and
	// the package under test would need rebuilding against the rewritten
	// package (go test recompiles those; export data has the originals).
	if len(xtest) > 0 && !lp.xtestImportsVariants() {
		check(lp.xtest.PkgPath, xtest, lp.goVer)
	}
	return errs
}

// xtestImportsVariants reports whether the external test package imports
// a package that itself depends on the package under test.
func (lp *loaded) xtestImportsVariants() bool {
	for _, p := range lp.xtest.Imports {
		if p.PkgPath != lp.plain.PkgPath && strings.Contains(p.ID, "[") {
			return true
		}
	}
	return false
}

// overlayImporter imports the runtime and the rewritten package from
// source and everything else from export data.
type overlayImporter struct {
	gc   types.ImporterFrom
	pkgs map[string]*types.Package
}

func (i *overlayImporter) Import(path string) (*types.Package, error) {
	return i.ImportFrom(path, "", 0)
}

func (i *overlayImporter) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	if p, ok := i.pkgs[path]; ok {
		return p, nil
	}
	return i.gc.ImportFrom(path, dir, mode)
}

// importPaths returns the import paths of files.
func importPaths(files []*ast.File) map[string]bool {
	paths := make(map[string]bool)
	for _, f := range files {
		for _, s := range f.Imports {
			if p, err := strconv.Unquote(s.Path.Value); err == nil && p != "unsafe" && p != "C" {
				paths[p] = true
			}
		}
	}
	return paths
}

// exportFiles runs go list -export to find the export data of the imports
// (building them if needed, as go test would).
func exportFiles(ctx context.Context, dir string, flags []string, paths map[string]bool) (map[string]string, error) {
	exports := make(map[string]string)
	if len(paths) == 0 {
		return exports, nil
	}
	args := append([]string{"list", "-e", "-export", "-deps", "-f", "{{.ImportPath}} {{.Export}}{{if .Error}} ERROR {{.Error}}{{end}}"}, flags...)
	args = append(args, "--")
	for p := range paths {
		args = append(args, p)
	}
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export in %s: %w: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	for sc.Scan() {
		path, file, _ := strings.Cut(sc.Text(), " ")
		if file != "" && !strings.Contains(file, " ERROR ") {
			exports[path] = file
		}
	}
	return exports, nil
}
