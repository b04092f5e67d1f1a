package synth

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
)

// A Harness is one synthesized test.
type Harness struct {
	// Test is the name of the test function.
	Test string
	// Warning is the ID of the warning it was written for.
	Warning string
	// Source is the test function as written, gofmt'ed.
	Source string
}

// A File is the synthesized test file of one package.
type File struct {
	// Path is the file's absolute name in the package's directory. The
	// file exists only in the overlay.
	Path string
	// Source is its content.
	Source []byte

	starts []start // where each harness's function starts
}

type start struct {
	line int
	test string
}

// ErrCannot wraps the reasons a warning gets no harness.
var ErrCannot = errors.New("no test can be synthesized")

// A Writer synthesizes the harnesses of the warnings of one package into
// one test file.
type Writer struct {
	prog    *testselect.Program
	pkgPath string
	pkgName string
	dir     string
	taken   map[string]bool   // names of the package's scope (test files too)
	imports map[string]string // import path -> the name the file gives it
	funcs   []*Harness
	// recv, other, wg and err are the names of a harness's variables,
	// chosen not to hide a name of the package a harness uses.
	recv, other, wg, err string
}

// NewWriter returns a Writer for the package pkgPath of prog.
func NewWriter(prog *testselect.Program, pkgPath string) (*Writer, error) {
	wr := &Writer{prog: prog, pkgPath: pkgPath, taken: make(map[string]bool), imports: make(map[string]string)}
	for _, p := range prog.Packages {
		if p.PkgPath != pkgPath || p.Types == nil {
			continue
		}
		wr.pkgName = p.Types.Name()
		for _, n := range p.Types.Scope().Names() {
			wr.taken[n] = true
		}
		if wr.dir == "" && len(p.GoFiles) > 0 {
			wr.dir = filepath.Dir(p.GoFiles[0])
		}
	}
	if wr.pkgName == "" || wr.dir == "" {
		return nil, fmt.Errorf("synthesizing tests: package %s is not loaded", pkgPath)
	}
	wr.recv, wr.other, wr.wg, wr.err = wr.local("recv"), wr.local("other"), wr.local("wg"), wr.local("err")
	return wr, nil
}

// A side is one of the two calls a harness makes concurrently.
type side struct {
	fn   *types.Func  // the generic origin for methods of generic types
	recv *types.Named // the receiver's named type (its origin), nil for functions
	site warning.Site
}

// Add writes the harnesses of warning w, best first. defs are the stores
// callers must make before the warned code can run (see
// sequence.Generator.DataDefs). A warning that gets none returns an error
// wrapping ErrCannot that says why.
func (wr *Writer) Add(w *warning.Warning, defs []token.Position) ([]*Harness, error) {
	switch w.Kind {
	case warning.Race, warning.LockOrderCycle:
	default:
		return nil, fmt.Errorf("%w: a %s shows in one goroutine, and the package's tests are what shows it", ErrCannot, w.Kind)
	}
	if len(w.Sites) < 2 {
		return nil, fmt.Errorf("%w: the warning has one site", ErrCannot)
	}
	hs, err := wr.add(w, defs, true)
	if errors.Is(err, errNoMaker) {
		// Through the exported functions that use such a value instead
		// (a package-level one, say).
		if hs2, err2 := wr.add(w, defs, false); err2 == nil {
			return hs2, nil
		}
	}
	return hs, err
}

// errNoMaker wraps the reason of a warning whose sides are methods of a
// type that clients cannot make.
var errNoMaker = fmt.Errorf("%w: no value to call the methods on", ErrCannot)

// add is Add; hidden says whether a side may be a method of an
// unexported type.
func (wr *Writer) add(w *warning.Warning, defs []token.Position, hidden bool) ([]*Harness, error) {
	var sides [2]side
	for i := range sides {
		s, err := wr.entry(w.Sites[i], hidden)
		if err != nil {
			return nil, err
		}
		sides[i] = s
	}
	recv := sides[0].recv
	if recv == nil {
		recv = sides[1].recv
	}
	if sides[0].recv != nil && sides[1].recv != nil && typeKey(sides[0].recv) != typeKey(sides[1].recv) {
		return nil, fmt.Errorf("%w: the two sides are methods of different types (%s, %s)", ErrCannot, sides[0].recv.Obj().Name(), sides[1].recv.Obj().Name())
	}
	b := &builder{wr: wr}
	if recv != nil {
		if err := b.receiver(recv, sides[:]); err != nil {
			return nil, err
		}
	}
	var prefix []string
	for _, pos := range defs {
		call, ok := b.defCall(pos, sides[:])
		if ok && !slices.Contains(prefix, call) {
			prefix = append(prefix, call)
		}
	}
	// A function that starts the goroutine of both sites shows the race
	// by itself: the harness calls it once, not twice at once (which its
	// callers may never do).
	single := sides[0].fn.Pos() == sides[1].fn.Pos() && sides[0].recv == sides[1].recv &&
		(w.Sites[0].Goroutine != "" || w.Sites[1].Goroutine != "") && !b.needOther
	var calls [2]string
	for i, s := range sides {
		self, other := wr.recv, wr.other
		if i == 1 && b.needOther {
			self, other = other, self
		}
		c, err := b.call(s.fn, self, other)
		if err != nil {
			return nil, err
		}
		calls[i] = c
	}
	// Harnesses, in the order they are tried: the writing side once when
	// the other only reads (a setter the reader needs, as a client calls
	// it first), then the calls whose stores feed the guards; the same
	// with one more call that stores what the sides read; the guards'
	// calls alone; nothing. A side that may end the value's life (a Free,
	// a Close) is never called before the concurrent calls: a harness
	// must not make an aliasing its callers never would.
	var base []string
	switch {
	case w.Sites[0].Access == warning.AccessWrite && w.Sites[1].Access == warning.AccessRead:
		base = append(base, calls[0])
	case w.Sites[1].Access == warning.AccessWrite && w.Sites[0].Access == warning.AccessRead:
		base = append(base, calls[1])
	}
	base = append(base, prefix...)
	variants := [][]string{base}
	for _, m := range b.writers(sides[:]) {
		if len(variants) > maxWriters {
			break
		}
		c, err := b.call(m, wr.recv, wr.other)
		if err == nil && !slices.Contains(base, c) {
			variants = append(variants, append(append([]string(nil), base...), c))
		}
	}
	if len(prefix) > 0 {
		variants = append(variants, prefix)
	}
	variants = append(variants, nil)
	var out []*Harness
	seen := make(map[string]bool)
	for _, pre := range variants {
		key := strings.Join(pre, "\n")
		if seen[key] {
			continue
		}
		seen[key] = true
		h, err := wr.harness(w, b, sides, calls, pre, single, len(out))
		if err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, nil
}

// entry returns what a harness calls to run site s: the exported function
// or method containing it, or the nearest exported caller of the function
// containing it (an unexported helper is called the way the package calls
// it, with its locks held).
func (wr *Writer) entry(s warning.Site, hidden bool) (side, error) {
	fns := wr.prog.FuncsAt(s.Position)
	if len(fns) == 0 {
		return side{}, fmt.Errorf("%w: %s is not inside a function", ErrCannot, s.Position)
	}
	fn := fns[0]
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	if strings.HasSuffix(wr.prog.Fset.Position(fn.Pos()).Filename, "_test.go") {
		return side{}, fmt.Errorf("%w: %s is test code; its own test is what runs it", ErrCannot, fn.Name())
	}
	if e, ok := wr.callable(fn, hidden); ok {
		return e, nil
	}
	// Breadth first over the callers, nearest first.
	seen := map[*ssa.Function]bool{fn: true}
	level := []*ssa.Function{fn}
	for depth := 0; depth < 3 && len(level) > 0; depth++ {
		var next []*ssa.Function
		for _, f := range level {
			for _, c := range wr.callers(f) {
				if !seen[c] {
					seen[c] = true
					next = append(next, c)
				}
			}
		}
		sort.Slice(next, func(i, j int) bool { return next[i].Pos() < next[j].Pos() })
		for _, c := range next {
			if e, ok := wr.callable(c, hidden); ok {
				e.site = s
				return e, nil
			}
		}
		level = next
	}
	return side{}, fmt.Errorf("%w: no exported function or method of %s reaches %s", ErrCannot, wr.pkgPath, testselect.ShortName(fn))
}

// callers returns the functions that call fn or one of its instances,
// each by its origin and outermost enclosing function.
func (wr *Writer) callers(fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	for _, f := range wr.prog.Functions() {
		if f != fn && f.Origin() != fn {
			continue
		}
		node := wr.prog.Graph.Nodes[f]
		if node == nil {
			continue
		}
		for _, e := range node.In {
			c := e.Caller.Func
			for c.Parent() != nil {
				c = c.Parent()
			}
			if c.Origin() != nil {
				c = c.Origin()
			}
			if !strings.HasSuffix(wr.prog.Fset.Position(c.Pos()).Filename, "_test.go") {
				out = append(out, c)
			}
		}
	}
	return out
}

// callable reports whether a client of the package can call fn: an
// exported function or an exported method of one of its types (of an
// exported type unless hidden), declared in a non-test file of the
// package.
func (wr *Writer) callable(fn *ssa.Function, hidden bool) (side, bool) {
	obj, ok := fn.Object().(*types.Func)
	if !ok || !obj.Exported() || obj.Pkg() == nil || obj.Pkg().Path() != wr.pkgPath {
		return side{}, false
	}
	if strings.HasSuffix(wr.prog.Fset.Position(obj.Pos()).Filename, "_test.go") {
		return side{}, false
	}
	s := side{fn: obj.Origin()}
	if r := obj.Type().(*types.Signature).Recv(); r != nil {
		n, ok := types.Unalias(deref(r.Type())).(*types.Named)
		if !ok || !hidden && !n.Obj().Exported() {
			return side{}, false
		}
		s.recv = n.Origin()
	}
	return s, true
}

// harness writes the n-th harness of w.
func (wr *Writer) harness(w *warning.Warning, b *builder, sides [2]side, calls [2]string, prefix []string, single bool, n int) (*Harness, error) {
	name := wr.testName(w, n)
	testingName := wr.importName("testing", "testing")
	var src bytes.Buffer
	if single {
		fmt.Fprintf(&src, "// %s was synthesized by Confirm for warning %s: it calls\n// %s, which starts the goroutines.\n",
			name, w.ID, sideName(sides[0]))
	} else {
		fmt.Fprintf(&src, "// %s was synthesized by Confirm for warning %s: it calls\n// %s and %s from two goroutines.\n",
			name, w.ID, sideName(sides[0]), sideName(sides[1]))
	}
	fmt.Fprintf(&src, "func %s(t *%s.T) {\n", name, testingName)
	for _, l := range b.setup {
		src.WriteString(l + "\n")
	}
	for _, c := range prefix {
		src.WriteString(c + "\n")
	}
	if b.durations && len(prefix) > 0 {
		timeName := wr.importName("time", "time")
		fmt.Fprintf(&src, "%s.Sleep(%s.Millisecond) // what the calls above set to expire after 1ns has expired\n", timeName, timeName)
	}
	if single {
		fmt.Fprintf(&src, "%s\n}\n", calls[0])
	} else {
		fmt.Fprintf(&src, "var %s %s.WaitGroup\n%s.Add(2)\n", wr.wg, wr.importName("sync", "sync"), wr.wg)
		for _, c := range calls {
			fmt.Fprintf(&src, "go func() {\ndefer %s.Done()\n%s\n}()\n", wr.wg, c)
		}
		fmt.Fprintf(&src, "%s.Wait()\n}\n", wr.wg)
	}
	out, err := format.Source(src.Bytes())
	if err != nil {
		return nil, fmt.Errorf("synthesizing a test for %s: %w\n%s", w.ID, err, src.Bytes())
	}
	h := &Harness{Test: name, Warning: w.ID, Source: string(out)}
	wr.funcs = append(wr.funcs, h)
	return h, nil
}

// testName returns a name for the n-th harness of w that the package does
// not use.
func (wr *Writer) testName(w *warning.Warning, n int) string {
	id := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, w.ID)
	base := fmt.Sprintf("TestConfirmSynth_%s_%d", id, n+1)
	name := base
	for i := 2; wr.taken[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	wr.taken[name] = true
	return name
}

// local returns name, or name with a digit when the package declares it.
func (wr *Writer) local(name string) string {
	n := name
	for i := 2; wr.taken[n]; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	return n
}

// importName returns the name the file gives the package at path (named
// name), importing it.
func (wr *Writer) importName(path, name string) string {
	if n, ok := wr.imports[path]; ok {
		return n
	}
	n := name
	for i := 2; wr.taken[n]; i++ {
		n = fmt.Sprintf("%s%d", name, i)
	}
	wr.taken[n] = true
	wr.imports[path] = n
	return n
}

// File returns the test file holding every harness added, or false when
// there is none.
func (wr *Writer) File() (*File, bool) { return wr.Without(nil) }

// Without returns the test file holding every harness added but those
// named in drop (which did not compile), or false when none is left.
func (wr *Writer) Without(drop map[string]bool) (*File, bool) {
	var funcs []*Harness
	for _, h := range wr.funcs {
		if !drop[h.Test] {
			funcs = append(funcs, h)
		}
	}
	if len(funcs) == 0 {
		return nil, false
	}
	var body strings.Builder
	for _, h := range funcs {
		body.WriteString("\n" + h.Source)
	}
	var src bytes.Buffer
	src.WriteString("// Code generated by Confirm: concurrent tests for warnings no test of the package shows. DO NOT EDIT.\n\n")
	fmt.Fprintf(&src, "package %s\n\nimport (\n", wr.pkgName)
	paths := make([]string, 0, len(wr.imports))
	for p := range wr.imports {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		// A package named while writing a call that was then dropped is
		// not imported.
		if strings.Contains(body.String(), wr.imports[p]+".") {
			fmt.Fprintf(&src, "\t%s %q\n", wr.imports[p], p)
		}
	}
	src.WriteString(")\n")
	src.WriteString(body.String())
	out, err := format.Source(src.Bytes())
	if err != nil {
		out = src.Bytes() // the compiler will say what is wrong
	}
	path := filepath.Join(wr.dir, "confirm_synth_test.go")
	for i := 2; exists(path); i++ {
		path = filepath.Join(wr.dir, fmt.Sprintf("confirm_synth%d_test.go", i))
	}
	f := &File{Path: path, Source: out}
	for i, line := range strings.Split(string(out), "\n") {
		if name, ok := strings.CutPrefix(line, "func "); ok {
			if name, _, ok = strings.Cut(name, "("); ok {
				f.starts = append(f.starts, start{line: i + 1, test: name})
			}
		}
	}
	return f, true
}

// TestAt returns the name of the harness that line (1-based) of the file
// belongs to, or "".
func (f *File) TestAt(line int) string {
	test := ""
	for _, s := range f.starts {
		if s.line > line {
			break
		}
		test = s.test
	}
	return test
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func sideName(s side) string {
	if s.recv != nil {
		return fmt.Sprintf("(%s).%s", s.recv.Obj().Name(), s.fn.Name())
	}
	return s.fn.Name()
}

func typeKey(n *types.Named) string {
	if n.Obj().Pkg() == nil {
		return n.Obj().Name()
	}
	return n.Obj().Pkg().Path() + "." + n.Obj().Name()
}

func deref(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}
