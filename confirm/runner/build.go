package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/confirm-go/confirm/confirm/instrument"
	"github.com/confirm-go/confirm/confirm/rt"
)

// BuildOptions say which package to build and how to instrument it.
type BuildOptions struct {
	// Dir is the user's working directory; relative package patterns
	// and file names are resolved against it. Empty means the current
	// directory.
	Dir string
	// Package is one package pattern, e.g. "./bank" or an import path.
	Package string
	// Locations are the observe, read and write points to insert (see
	// instrument.Request.Locations).
	Locations []rt.Location
	// Accesses asks to instrument every field and package-level variable
	// access of the package's non-test files, so that the race oracle can
	// fire on them.
	Accesses bool
	// BuildFlags are extra `go test` build flags, e.g. -tags=x.
	BuildFlags []string
	// Files are extra files of the package by absolute name (synthesized
	// tests); they exist only in the overlay, never on disk.
	Files map[string][]byte
}

// ErrNoTests is the error of Instrument for a package without Test
// functions.
var ErrNoTests = errors.New("no Test functions")

// A Binary is the instrumented test binary of one package.
type Binary struct {
	// Path is the executable; empty until Compile.
	Path string
	// Package is the import path of the package.
	Package string
	// Dir is the working directory given to Build, made absolute.
	Dir string
	// PkgDir is the package's directory; tests run in it, as under go test.
	PkgDir string
	// Tests are the package's top-level tests in source order.
	Tests []string
	// Locations are the instrumented locations; a location's index is the
	// Loc of the trace events at it.
	Locations []rt.Location
	// Objects maps "file:line" (absolute file) to the names of the objects
	// operated on there.
	Objects map[string]string
	// Unobserved are the indexes of the requested read and write
	// locations not instrumented as accesses (see
	// instrument.Result.Unobserved).
	Unobserved []int
	// Notes say what the instrumenter could not instrument, and why (see
	// instrument.Result.Notes).
	Notes []string
	// Uncontrolled are the notes of constructs whose operations are not
	// scheduling points (see instrument.Result.Uncontrolled): exploring
	// every schedule of the binary's tests does not explore theirs.
	Uncontrolled []string
	// Options are the options the binary was built with.
	Options BuildOptions

	tmp   string
	instr *instrument.Result
}

// A BuildError reports a package whose instrumented tests do not compile.
type BuildError struct {
	Package string
	// Output is the compiler's output.
	Output string
	Err    error
}

func (e *BuildError) Error() string {
	out := strings.TrimSpace(e.Output)
	if out == "" {
		return fmt.Sprintf("package %s does not compile: %v", e.Package, e.Err)
	}
	return fmt.Sprintf("package %s does not compile:\n%s", e.Package, out)
}

func (e *BuildError) Unwrap() error { return e.Err }

// Build instruments the package of opts and compiles its test binary into
// a temporary directory. The caller must Close the Binary.
func Build(ctx context.Context, opts BuildOptions) (*Binary, error) {
	b, err := Instrument(ctx, opts)
	if err != nil {
		return nil, err
	}
	if err := b.Compile(ctx); err != nil {
		_ = b.Close()
		return nil, err
	}
	return b, nil
}

// Instrument is the first half of Build: it instruments the package, so
// that its tests are known, without compiling it. Compile does the rest.
// The caller must Close the Binary.
func Instrument(ctx context.Context, opts BuildOptions) (*Binary, error) {
	dir, err := absDir(opts.Dir)
	if err != nil {
		return nil, err
	}
	opts.Dir = dir
	instr, err := instrument.Instrument(ctx, instrument.Request{
		Dir:        dir,
		Package:    opts.Package,
		Locations:  opts.Locations,
		Accesses:   opts.Accesses,
		BuildFlags: opts.BuildFlags,
		Files:      opts.Files,
	})
	if err != nil {
		return nil, err
	}
	b := &Binary{
		Package:      instr.ImportPath,
		Dir:          dir,
		PkgDir:       instr.PkgDir,
		Tests:        instr.Tests,
		Locations:    instr.Locations,
		Objects:      instr.Objects,
		Options:      opts,
		Unobserved:   instr.Unobserved,
		Notes:        instr.Notes,
		Uncontrolled: instr.Uncontrolled,
		instr:        instr,
	}
	if len(b.Tests) == 0 {
		_ = b.Close()
		return nil, fmt.Errorf("package %s has no tests to run: %w", b.Package, ErrNoTests)
	}
	return b, nil
}

// Compile compiles the instrumented test binary (once; later calls do
// nothing). A package that does not compile gives a *BuildError.
func (b *Binary) Compile(ctx context.Context) error {
	if b.Path != "" {
		return nil
	}
	tmp, err := os.MkdirTemp("", "confirm-run-")
	if err != nil {
		return fmt.Errorf("building %s: %w", b.Package, err)
	}
	b.tmp = tmp
	path := filepath.Join(tmp, "pkg.test")
	if err := b.compile(ctx, path); err != nil {
		return err
	}
	b.Path = path
	return nil
}

// compile runs go test -c with the instrumenter's flags.
func (b *Binary) compile(ctx context.Context, path string) error {
	args := []string{"test", "-c", "-o", path}
	args = append(args, b.instr.GoTestFlags()...)
	args = append(args, b.Package)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.Dir
	cmd.Env = goEnv(os.Environ())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("building %s: %w", b.Package, ctx.Err())
		}
		return &BuildError{Package: b.Package, Output: out.String(), Err: err}
	}
	if _, err := os.Stat(path); err != nil {
		return &BuildError{Package: b.Package, Output: out.String(), Err: errors.New("go test -c wrote no test binary")}
	}
	return nil
}

// Close removes the binary and the instrumented sources.
func (b *Binary) Close() error {
	var errs []error
	if b.tmp != "" {
		if err := os.RemoveAll(b.tmp); err != nil {
			errs = append(errs, fmt.Errorf("removing test binary: %w", err))
		}
	}
	if b.instr != nil {
		errs = append(errs, b.instr.Remove())
	}
	return errors.Join(errs...)
}

func absDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	return abs, nil
}

// goEnv returns env with the coverage flags removed from GOFLAGS: they do
// not work with overlay-only packages (golang/go#73802).
func goEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GOFLAGS="); ok {
			kv = "GOFLAGS=" + WithoutCoverFlags(v)
		}
		out = append(out, kv)
	}
	return out
}

// WithoutCoverFlags returns a GOFLAGS value without its coverage flags,
// which do not work with the overlay-only runtime package
// (golang/go#73802). Build removes them from the go commands it runs; a
// program that also loads packages through other tools (the instrumenter
// uses go/packages with the process's environment) should clean its own
// GOFLAGS with it first.
func WithoutCoverFlags(goflags string) string {
	return strings.Join(withoutCover(strings.Fields(goflags)), " ")
}

// withoutCover drops -cover, -covermode=, -coverpkg= and -coverprofile=
// from flags (as GOFLAGS spells them, with "=").
func withoutCover(flags []string) []string {
	var kept []string
	for _, f := range flags {
		name, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if isCoverFlag(name) {
			continue
		}
		kept = append(kept, f)
	}
	return kept
}

func isCoverFlag(name string) bool {
	switch name {
	case "cover", "covermode", "coverpkg", "coverprofile":
		return true
	}
	return false
}
