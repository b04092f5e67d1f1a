package instrument

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
	"golang.org/x/tools/go/packages"
)

// Request says what to instrument.
type Request struct {
	// Dir is the working directory (the user's), for go/packages and go list.
	Dir string
	// Package is one package pattern, e.g. "./bank" or an import path.
	Package string
	// Locations are the observe, read and write points the caller asks
	// for (file:line[:col] and kind); the index of a location is the loc
	// argument of its runtime call. File is absolute or relative to Dir.
	Locations []rt.Location
	// Accesses asks to also instrument every read and write of struct
	// fields and package-level variables in the package's non-test files
	// (appended to Locations with kinds "read" and "write").
	Accesses bool
	// BuildFlags are passed to go/packages and, by GoTestFlags, to go test
	// (e.g. -tags=x). Coverage flags are stripped (see Result.Stripped).
	BuildFlags []string
	// Files are extra files of the package, by absolute name in its
	// directory: synthesized tests, which exist only in the overlay. They
	// are loaded and instrumented like the package's own files.
	Files map[string][]byte
}

// Result is an instrumented package ready to build.
type Result struct {
	// ImportPath is the import path of the instrumented package.
	ImportPath string
	// PkgDir is the directory of the package.
	PkgDir string
	// Overlay is the path of the overlay JSON file for `go test -overlay`.
	Overlay string
	// Locations is the final list of locations: the requested ones, then
	// the automatic accesses; the index is the loc argument.
	Locations []rt.Location
	// Objects maps "abs/file.go:line" to what the synchronization
	// operations and accesses on that line operate on, in reviewer words,
	// e.g. "(*bank.Account).mu" or "chan done" (several joined by ", ").
	Objects map[string]string
	// Tests are the names of the top-level Test functions, in source order
	// (internal test files, then external ones, each by file name).
	Tests []string
	// TestPos maps a test name to its "file:line".
	TestPos map[string]string
	// Dir is the temporary directory holding everything; Remove deletes it.
	Dir string
	// RuntimePath is the import path of the injected runtime package.
	RuntimePath string
	// Notes say what could not be instrumented, and why, one per line
	// ("file:line:col: what"; a package of the module that stays
	// uncontrolled has no position).
	Notes []string
	// Uncontrolled are the notes that limit what the scheduler controls:
	// a sync value that keeps its real type, a package of the module that
	// stays uncontrolled, a channel operation or a call into
	// synchronizing code left as it is, a goroutine or timer that runs
	// outside the scheduler. Their operations are not scheduling points,
	// so exploring every schedule does not explore their interleavings.
	// The other notes (an access without its point, which Unobserved
	// covers when it was requested; a process exit; an argument
	// evaluated in the new goroutine) limit nothing the scheduler
	// interleaves.
	Uncontrolled []string
	// Unobserved are the indexes of the requested read and write
	// locations that could not be instrumented as accesses: the race
	// oracle never sees them, so no execution can show a race there.
	Unobserved []int
	// Stripped are the build flags that were dropped (coverage flags,
	// golang/go#73802).
	Stripped []string

	buildFlags []string
}

// Remove deletes the temporary directory of the result.
func (r *Result) Remove() error {
	if r == nil || r.Dir == "" {
		return nil
	}
	if err := os.RemoveAll(r.Dir); err != nil {
		return fmt.Errorf("removing instrumented files: %w", err)
	}
	return nil
}

// GoTestFlags returns the flags `go test` needs to build the instrumented
// package: the overlay, -vet=off (vet cannot enter the runtime's
// overlay-only directory), and the request's build flags without coverage
// flags.
func (r *Result) GoTestFlags() []string {
	flags := []string{"-overlay=" + r.Overlay, "-vet=off"}
	return append(flags, r.buildFlags...)
}

// Instrument rewrites the package of req (its files, internal test files
// and external test package) into a temporary directory and returns the
// overlay that builds it with the runtime injected. The user's tree is
// never written.
func Instrument(ctx context.Context, req Request) (_ *Result, err error) {
	flags, stripped := stripCover(req.BuildFlags)
	for _, f := range flags {
		if name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "="); name == "overlay" {
			return nil, fmt.Errorf("instrumenting %s: build flag %s: the instrumenter provides the overlay and cannot merge another", req.Package, f)
		}
	}
	lp, err := load(ctx, req.Dir, req.Package, flags, req.Files)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "confirm-instrument-")
	if err != nil {
		return nil, fmt.Errorf("instrumenting %s: %w", req.Package, err)
	}
	res := &Result{
		ImportPath: lp.primary.PkgPath,
		PkgDir:     lp.dir,
		Objects:    make(map[string]string),
		TestPos:    make(map[string]string),
		Dir:        dir,
		Stripped:   stripped,
		buildFlags: flags,
	}
	defer func() {
		if err != nil {
			_ = res.Remove()
		}
	}()
	rtFiles, err := runtimeFiles()
	if err != nil {
		return nil, err
	}
	rtDir, err := runtimeDir(lp.module.Dir, rtFiles)
	if err != nil {
		return nil, err
	}
	res.RuntimePath = lp.module.Path + "/" + filepath.Base(rtDir)
	if !atLeastMinLang(lp.goVer) {
		for name, src := range rtFiles {
			rtFiles[name] = upgradeLang(src, filepath.Join(rtDir, name))
		}
	}
	keep := make(map[token.Pos]bool)
	fallbacks := &sink{} // notes of the fallbacks, across attempts
	var out *rewritten
	for attempt := 0; ; attempt++ {
		out, err = rewritePackage(lp, req, res.RuntimePath, keep)
		if err != nil {
			return nil, err
		}
		errs := typecheck(ctx, lp, flags, rtFiles, res.RuntimePath, out)
		if len(errs) == 0 {
			break
		}
		if attempt == 3 || !lp.keepReal(errs, keep, fallbacks) {
			return nil, fmt.Errorf("instrumented package %s does not type-check (an unsupported construct or a bug of the instrumenter): %w",
				lp.primary.PkgPath, quoteErrors(errs))
		}
	}
	res.Locations = out.locations
	res.Unobserved = out.unobserved
	res.Notes = slices.Concat(lp.notes, fallbacks.notes, out.sink.notes)
	res.Uncontrolled = slices.Concat(lp.notes, fallbacks.uncontrolled, out.sink.uncontrolled)
	for k, v := range out.sink.objects {
		res.Objects[k] = strings.Join(v, ", ")
	}
	for _, t := range out.tests {
		res.Tests = append(res.Tests, t.name)
		res.TestPos[t.name] = fmt.Sprintf("%s:%d", t.pos.Filename, t.pos.Line)
	}
	overlay := make(map[string]string)
	for i, name := range out.order {
		tmp := filepath.Join(dir, fmt.Sprintf("%03d_%s", i, filepath.Base(name)))
		if err := os.WriteFile(tmp, out.files[name], 0o644); err != nil {
			return nil, fmt.Errorf("writing instrumented %s: %w", name, err)
		}
		overlay[name] = tmp
	}
	if err := os.MkdirAll(filepath.Join(dir, "rt"), 0o755); err != nil {
		return nil, fmt.Errorf("writing runtime: %w", err)
	}
	for name, src := range rtFiles {
		tmp := filepath.Join(dir, "rt", name)
		if err := os.WriteFile(tmp, src, 0o644); err != nil {
			return nil, fmt.Errorf("writing runtime: %w", err)
		}
		overlay[filepath.Join(rtDir, name)] = tmp
	}
	data, err := json.MarshalIndent(struct{ Replace map[string]string }{overlay}, "", "\t")
	if err != nil {
		return nil, fmt.Errorf("writing overlay: %w", err)
	}
	res.Overlay = filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(res.Overlay, data, 0o644); err != nil {
		return nil, fmt.Errorf("writing overlay: %w", err)
	}
	return res, nil
}

// stripCover drops coverage flags, which do not work with overlay-only
// packages (golang/go#73802).
func stripCover(flags []string) (kept, stripped []string) {
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		name := strings.TrimLeft(f, "-")
		if j := strings.IndexByte(name, '='); j >= 0 {
			name = name[:j]
		}
		switch name {
		case "cover":
			stripped = append(stripped, f)
		case "covermode", "coverpkg", "coverprofile":
			stripped = append(stripped, f)
			if !strings.Contains(f, "=") && i+1 < len(flags) {
				i++
				stripped = append(stripped, flags[i])
			}
		default:
			kept = append(kept, f)
		}
	}
	return kept, stripped
}

// runtimeDir returns a directory name inside the module root that does
// not exist, for the overlay-only runtime package. The name is the hash of
// the runtime's files, so that every build of the module with this
// runtime compiles it once: the build cache keys the package by its
// import path. A random name is the fallback if that one exists.
func runtimeDir(root string, files map[string][]byte) (string, error) {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(files)) {
		_, _ = fmt.Fprintf(h, "%s %d\n", name, len(files[name])) // a hash.Hash never fails to write
		h.Write(files[name])
	}
	name := h.Sum(nil)[:6]
	for range 11 {
		d := filepath.Join(root, "confirmrt_"+hex.EncodeToString(name))
		if _, err := os.Stat(d); errors.Is(err, fs.ErrNotExist) {
			return d, nil
		}
		if _, err := rand.Read(name); err != nil {
			return "", fmt.Errorf("naming the runtime package: %w", err)
		}
	}
	return "", fmt.Errorf("no unused directory name for the runtime in %s", root)
}

// runtimeFiles returns the runtime's non-test source files by name.
func runtimeFiles() (map[string][]byte, error) {
	entries, err := fs.ReadDir(rt.Source, ".")
	if err != nil {
		return nil, fmt.Errorf("reading embedded runtime: %w", err)
	}
	files := make(map[string][]byte)
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") || strings.HasPrefix(n, "embed") {
			continue
		}
		src, err := fs.ReadFile(rt.Source, n)
		if err != nil {
			return nil, fmt.Errorf("reading embedded runtime: %w", err)
		}
		files[n] = withLanguageVersion(src)
	}
	if len(files) == 0 {
		return nil, errors.New("the embedded runtime has no source files")
	}
	return files, nil
}

// withLanguageVersion puts a //go:build line with the tool's Go version on
// a runtime file: the runtime is compiled as a package of the user's module,
// and the line lets it use the language version it was written for even
// when the module declares an older one (module go >= 1.21).
func withLanguageVersion(src []byte) []byte {
	v := runtime.Version() // "go1.26.8", or "devel ..."
	if !strings.HasPrefix(v, "go1.") {
		return src
	}
	if i := strings.IndexByte(v[len("go1."):], '.'); i >= 0 {
		v = v[:len("go1.")+i]
	}
	if i := strings.IndexAny(v, " -"); i >= 0 {
		v = v[:i]
	}
	text := string(src)
	// Merge with the file's own constraint, if any.
	for _, line := range strings.SplitAfter(text, "\n") {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "package ") {
			break
		}
		if expr, ok := strings.CutPrefix(trimmed, "//go:build "); ok {
			return []byte(strings.Replace(text, line, "//go:build "+v+" && ("+expr+")\n", 1))
		}
	}
	return []byte("//go:build " + v + "\n\n" + text)
}

// rewritten is the output of rewriting a package.
type rewritten struct {
	files      map[string][]byte // original absolute path -> new source
	order      []string          // files in load order
	xtest      map[string]bool   // files of the external test package
	dep        map[string]string // files of the module's other packages -> their import path
	locations  []rt.Location
	unobserved []int // see Result.Unobserved
	tests      []testFunc
	sink       *sink
}

// rewritePackage rewrites every file of the loaded package.
func rewritePackage(lp *loaded, req Request, rtPath string, keep map[token.Pos]bool) (*rewritten, error) {
	out := &rewritten{
		files:     make(map[string][]byte),
		xtest:     make(map[string]bool),
		dep:       make(map[string]string),
		locations: append([]rt.Location(nil), req.Locations...),
		sink:      &sink{objects: make(map[string][]string)},
	}
	names := lp.namer()
	for _, n := range []string{rtName, unsafeName} {
		if names.taken(n) {
			return nil, fmt.Errorf("package %s uses the identifier %s, which the instrumenter needs for its imports", lp.primary.PkgPath, n)
		}
	}
	requested := lp.requested(req)
	matched := make(map[int]bool)
	var tests []testFunc
	var xtests []testFunc
	for _, p := range lp.all() {
		dep := lp.isDep(p)
		for i, f := range p.Syntax {
			name := p.CompiledGoFiles[i]
			src, ok := req.Files[name]
			var err error
			if !ok {
				src, err = os.ReadFile(name)
			}
			if err != nil {
				return nil, fmt.Errorf("reading %s: %w", name, err)
			}
			r := &fileRewriter{
				fset: p.Fset, info: p.TypesInfo, pkg: p.Types, file: f, filename: name,
				tf: p.Fset.File(f.FileStart), ed: &editor{src: src}, names: names,
				isTest: strings.HasSuffix(name, "_test.go"), keepReal: keep,
				rewrittenPkgRefs: make(map[*ast.Ident]bool), handled: make(map[ast.Node]bool),
				recv2: make(map[*ast.UnaryExpr]bool), sink: out.sink, accessed: make(map[ast.Expr]bool),
				outside: lp.outsideSync,
			}
			if r.tf == nil || r.tf.Size() != len(src) {
				return nil, fmt.Errorf("%s changed on disk while instrumenting", name)
			}
			for _, i := range requested[filepath.Clean(name)] {
				if r.request(req.Locations[i], i) {
					matched[i] = true
				}
			}
			if req.Accesses && !r.isTest && !dep {
				for _, a := range r.accesses(true) {
					if r.instrumentAccess(a, r.location(a).Kind, len(out.locations)) {
						out.locations = append(out.locations, r.location(a))
					}
				}
			}
			r.rewrite()
			r.imports(rtPath)
			text, err := r.ed.render()
			if err != nil {
				return nil, fmt.Errorf("rewriting %s: %w", name, err)
			}
			ver := lp.goVer
			if p.Module != nil && p.Module.GoVersion != "" {
				ver = "go" + p.Module.GoVersion
			}
			if !atLeastMinLang(ver) {
				text = upgradeLang(text, name)
			}
			out.files[name] = text
			out.order = append(out.order, name)
			if dep {
				out.dep[name] = p.PkgPath
				continue
			}
			if p == lp.xtest {
				out.xtest[name] = true
				xtests = append(xtests, r.tests...)
			} else {
				tests = append(tests, r.tests...)
			}
		}
	}
	for i, l := range req.Locations {
		if !matched[i] {
			out.sink.note("%s:%d: requested %s location not found in package %s", l.File, l.Line, l.Kind, lp.primary.PkgPath)
			if l.Kind == "read" || l.Kind == "write" {
				out.unobserved = append(out.unobserved, i)
			}
		}
	}
	byFile := func(ts []testFunc) {
		sort.SliceStable(ts, func(i, j int) bool { return ts[i].pos.Filename < ts[j].pos.Filename })
	}
	byFile(tests)
	byFile(xtests)
	out.tests = append(tests, xtests...)
	return out, nil
}

// requested maps each file of the package to the indexes of the requested
// locations in it. A location's file is absolute, relative to the request's
// directory, or else a path suffix ("bank.go", "bank/bank.go") that names
// one file of the package.
func (lp *loaded) requested(req Request) map[string][]int {
	var files []string
	for _, p := range lp.all() {
		files = append(files, p.CompiledGoFiles...)
	}
	requested := make(map[string][]int)
	for i, l := range req.Locations {
		f := l.File
		if !filepath.IsAbs(f) {
			f = filepath.Join(req.Dir, f)
		}
		f = filepath.Clean(f)
		if !slices.Contains(files, f) {
			var found []string
			for _, name := range files {
				if strings.HasSuffix(name, string(filepath.Separator)+filepath.Clean(l.File)) {
					found = append(found, name)
				}
			}
			if len(found) == 1 {
				f = found[0]
			}
		}
		requested[f] = append(requested[f], i)
	}
	return requested
}

// request instruments the requested location l (index loc) in this file.
func (r *fileRewriter) request(l rt.Location, loc int) bool {
	switch l.Kind {
	case "observe":
		return r.observe(l.Line, l.Col, loc)
	case "read", "write":
		var best *access
		for _, a := range r.accesses(false) {
			p := r.position(a.expr.Pos())
			end := r.position(a.expr.End())
			if p.Line != l.Line || l.Col != 0 && (l.Col < p.Column || end.Line == l.Line && l.Col > end.Column) {
				continue
			}
			if best == nil || a.write == (l.Kind == "write") && best.write != a.write {
				a := a
				best = &a
			}
		}
		if best == nil {
			return false
		}
		return r.instrumentAccess(*best, l.Kind, loc)
	}
	r.sink.note("%s:%d: unknown location kind %q", l.File, l.Line, l.Kind)
	return true
}

// imports adds the runtime import on the package clause's line and blanks
// the imports whose every use was replaced.
func (r *fileRewriter) imports(rtPath string) {
	if r.usesRT || r.usesUnsafe {
		decl := "; import " + rtName + " " + quote(rtPath)
		if r.usesUnsafe {
			decl = "; import (" + rtName + " " + quote(rtPath) + "; " + unsafeName + " \"unsafe\")"
		}
		r.ed.close(r.off(r.file.Name.End()), 0, decl)
	}
	// Count, per imported package name, the uses left and replaced.
	used, replaced := make(map[types.Object]bool), make(map[types.Object]bool)
	ast.Inspect(r.file, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if pn, ok := r.info.Uses[id].(*types.PkgName); ok {
			if r.rewrittenPkgRefs[id] {
				replaced[pn] = true
			} else {
				used[pn] = true
			}
		}
		return true
	})
	for _, spec := range r.file.Imports {
		if spec.Name != nil && (spec.Name.Name == "_" || spec.Name.Name == ".") {
			if spec.Name.Name == "." && r.dotUnused(spec) {
				r.ed.replace(r.off(spec.Name.Pos()), r.off(spec.Name.End()), 0, "_")
			}
			continue
		}
		var obj types.Object
		if spec.Name != nil {
			obj = r.info.Defs[spec.Name]
		} else {
			obj = r.info.Implicits[spec]
		}
		if obj == nil || !replaced[obj] || used[obj] {
			continue
		}
		if spec.Name != nil {
			r.ed.replace(r.off(spec.Name.Pos()), r.off(spec.Name.End()), 0, "_")
		} else {
			r.ed.open(r.off(spec.Path.Pos()), 0, "_ ")
		}
	}
}

// dotUnused reports whether every use of a dot-imported package was
// replaced.
func (r *fileRewriter) dotUnused(spec *ast.ImportSpec) bool {
	path := strings.Trim(spec.Path.Value, "\"`")
	replaced := false
	for id, o := range r.info.Uses {
		if o.Pkg() == nil || o.Pkg().Path() != path || id.Pos() < r.file.FileStart || id.Pos() > r.file.FileEnd {
			continue
		}
		if !r.rewrittenPkgRefs[id] {
			return false
		}
		replaced = true
	}
	return replaced
}

func quote(s string) string { return "\"" + s + "\"" }

// quoteErrors joins the first errors into one.
func quoteErrors(errs []error) error {
	if len(errs) > 5 {
		errs = append(errs[:5:5], fmt.Errorf("and %d more errors", len(errs)-5))
	}
	return errors.Join(errs...)
}

var _ = packages.NeedName
