package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"
)

// options are the command-line settings of one benchmark.
type options struct {
	module       string // path@version in the module cache
	dir          string // or a module directory
	pkgs         string // space-separated package patterns
	rounds       int
	vettool      string // prebuilt confirmvet, or "" to build it
	confirmFlags string // extra go vet flags of the confirmvet run
	gocache      string // shared build cache, or "" for a fresh one
	verbose      bool
}

// A tool is one of the two compared commands.
type tool struct {
	name  string   // as printed
	path  string   // the unitchecker binary go vet runs
	flags []string // extra go vet flags
}

// A measurement is the cost of one go vet run.
type measurement struct {
	wall     time.Duration
	cpu      time.Duration // user+sys of the whole process tree
	peakRSS  int64         // bytes; 0 when unknown
	findings int           // diagnostic lines printed
}

// bench holds what the rounds share.
type bench struct {
	opts   options
	modDir string   // the writable copy of the module
	env    []string // environment of every go command
	log    io.Writer
}

// run benchmarks both tools according to o and writes the report to out.
func run(ctx context.Context, o options, out, log io.Writer) error {
	if err := o.check(); err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "vetbench")
	if err != nil {
		return fmt.Errorf("creating the work directory: %w", err)
	}
	defer func() { _ = os.RemoveAll(work) }()

	b := &bench{opts: o, modDir: filepath.Join(work, "module"), log: log}
	if b.opts.gocache == "" {
		b.opts.gocache = filepath.Join(work, "gocache")
	}
	b.env = append(os.Environ(),
		"GOWORK=off",
		"GOCACHE="+b.opts.gocache,
		"GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"),
	)

	src, what, err := b.source(ctx)
	if err != nil {
		return err
	}
	if err := os.CopyFS(b.modDir, os.DirFS(src)); err != nil {
		return fmt.Errorf("copying %s to a temporary directory: %w", src, err)
	}
	vettool := o.vettool
	if vettool == "" {
		vettool = filepath.Join(work, "confirmvet")
		if err := buildConfirmvet(ctx, vettool); err != nil {
			return err
		}
	}
	npkgs, err := b.prime(ctx)
	if err != nil {
		return err
	}

	govet, err := goCmd(ctx, "", nil, "env", "GOTOOLDIR")
	if err != nil {
		return fmt.Errorf("finding go vet's own tool: %w", err)
	}
	tools := []tool{
		{name: "go vet", path: filepath.Join(strings.TrimSpace(govet), "vet")},
		{name: strings.TrimSpace("go vet -vettool=confirmvet " + o.confirmFlags), path: vettool, flags: strings.Fields(o.confirmFlags)},
	}
	results := make([][]measurement, len(tools))
	for r := range o.rounds {
		for i := range tools {
			t := (i + r) % len(tools) // alternate which tool goes first
			m, err := b.vet(ctx, tools[t])
			if err != nil {
				return err
			}
			results[t] = append(results[t], m)
		}
	}
	if err := report(out, fmt.Sprintf("%s, %s (%d packages)", what, o.pkgs, npkgs), tools, results); err != nil {
		return fmt.Errorf("writing the report: %w", err)
	}
	return nil
}

// check validates o and makes o.vettool absolute.
func (o *options) check() error {
	if o.rounds < 1 {
		return fmt.Errorf("-n must be at least 1, got %d", o.rounds)
	}
	if o.module != "" && o.dir != "" {
		return errors.New("-module and -dir are exclusive")
	}
	if strings.TrimSpace(o.pkgs) == "" {
		return errors.New("-pkgs is empty")
	}
	if o.vettool != "" {
		abs, err := executable(o.vettool)
		if err != nil {
			return fmt.Errorf("-vettool: %w", err)
		}
		o.vettool = abs
	}
	return nil
}

// source returns the directory of the module to analyze and its name.
func (b *bench) source(ctx context.Context) (dir, what string, err error) {
	if b.opts.dir != "" {
		abs, err := filepath.Abs(b.opts.dir)
		if err != nil {
			return "", "", fmt.Errorf("-dir: %w", err)
		}
		if _, err := os.Stat(filepath.Join(abs, "go.mod")); err != nil {
			return "", "", fmt.Errorf("-dir %s is not a module root: %w", b.opts.dir, err)
		}
		return abs, abs, nil
	}
	mod := b.opts.module
	if mod == "" {
		out, err := goCmd(ctx, "", nil, "list", "-m", "-f", "{{.Path}}@{{.Version}}", "golang.org/x/tools")
		if err != nil {
			return "", "", fmt.Errorf("finding the version of golang.org/x/tools this module requires (run vetbench inside the Confirm module or pass -module): %w", err)
		}
		mod = strings.TrimSpace(out)
	}
	if !strings.Contains(mod, "@") {
		return "", "", fmt.Errorf("-module %q: want path@version", mod)
	}
	out, err := goCmd(ctx, os.TempDir(), []string{"GOWORK=off", "GOFLAGS=-mod=mod"}, "mod", "download", "-json", mod)
	var info struct{ Dir, Error string }
	if jerr := json.Unmarshal([]byte(out), &info); jerr == nil && info.Error != "" {
		return "", "", fmt.Errorf("downloading %s: %s", mod, info.Error)
	}
	if err != nil {
		return "", "", fmt.Errorf("downloading %s: %w", mod, err)
	}
	if info.Dir == "" {
		return "", "", fmt.Errorf("downloading %s: go mod download gave no directory", mod)
	}
	return info.Dir, mod, nil
}

// executable returns the absolute path of the executable file path.
func executable(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	info, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if info.IsDir() || info.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("%s is not an executable file", abs)
	}
	return abs, nil
}

// buildConfirmvet builds confirmvet into bin.
func buildConfirmvet(ctx context.Context, bin string) error {
	if _, err := goCmd(ctx, "", nil, "build", "-o", bin, "github.com/confirm-go/confirm/cmd/confirmvet"); err != nil {
		return fmt.Errorf("building confirmvet (run vetbench inside the Confirm module or pass -vettool): %w", err)
	}
	return nil
}

// prime downloads the dependencies of the module copy and fills the build
// cache with the export data of every package go vet needs, and returns
// the number of packages matched.
func (b *bench) prime(ctx context.Context) (int, error) {
	pkgs := strings.Fields(b.opts.pkgs)
	b.logf("priming the build cache %s", b.opts.gocache)
	args := append([]string{"list", "-deps", "-test", "-export", "-f", "{{if .Error}}{{.Error}}{{end}}"}, pkgs...)
	if _, err := goCmd(ctx, b.modDir, b.env, args...); err != nil {
		return 0, fmt.Errorf("compiling the packages to vet: %w", err)
	}
	out, err := goCmd(ctx, b.modDir, b.env, append([]string{"list"}, pkgs...)...)
	if err != nil {
		return 0, fmt.Errorf("listing the packages to vet: %w", err)
	}
	return len(strings.Fields(out)), nil
}

// diagRE matches the first line of a diagnostic of go vet; its related
// positions follow on lines whose message starts with a tab.
var diagRE = regexp.MustCompile(`(?m)^\S+\.go:\d+:\d+: [^\t]`)

// uncached writes a new wrapper script around the analysis tool bin and
// returns its path. go vet caches vet results under the identity the tool
// prints for -V=full: for go's own vet that is its release version, fixed,
// and no vet flag changes the cache key without changing the analysis (go
// vet handles -c itself). The wrapper reports an identity of its own and
// passes every other invocation to bin, so that each run analyzes every
// package, including the facts-only runs over dependencies, while the
// compiled export data stays cached. Both tools go through the same kind
// of wrapper, so its cost (one sh per package) is the same for both.
func (b *bench) uncached(bin string) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(b.modDir), "vettool-*.sh")
	if err != nil {
		return "", fmt.Errorf("creating the vet tool wrapper: %w", err)
	}
	id := fmt.Sprintf("%016x%016x", rand.Uint64(), rand.Uint64())
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" = "-V=full" ]; then
	echo "%s version devel vetbench buildID=%s"
	exit 0
fi
exec %s "$@"
`, filepath.Base(f.Name()), id, shellQuote(bin))
	if _, err := f.WriteString(script); err != nil {
		_ = f.Close()
		return "", fmt.Errorf("writing the vet tool wrapper: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("writing the vet tool wrapper: %w", err)
	}
	if err := os.Chmod(f.Name(), 0o755); err != nil {
		return "", fmt.Errorf("making the vet tool wrapper executable: %w", err)
	}
	return f.Name(), nil
}

// shellQuote quotes s for sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// vet runs go vet with the analysis tool of t over the packages and
// measures it.
func (b *bench) vet(ctx context.Context, t tool) (measurement, error) {
	wrapper, err := b.uncached(t.path)
	if err != nil {
		return measurement{}, err
	}
	args := append(append([]string{"vet", "-vettool=" + wrapper}, t.flags...), strings.Fields(b.opts.pkgs)...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = b.modDir
	cmd.Env = b.env
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	b.logf("go %s", strings.Join(args, " "))
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		return measurement{}, fmt.Errorf("running %s: %w", t.name, err)
	}
	m := measurement{
		wall:     wall,
		cpu:      cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(),
		peakRSS:  peakRSS(cmd.ProcessState),
		findings: len(diagRE.FindAllIndex(stderr.Bytes(), -1)),
	}
	// go vet exits 1 when it reports findings; anything else, or 1
	// without findings, is a failure such as a package that does not build.
	if code := cmd.ProcessState.ExitCode(); code != 0 && (code != 1 || m.findings == 0) {
		return measurement{}, fmt.Errorf("%s failed with exit code %d:\n%s", t.name, code, tail(stderr.String(), 20))
	}
	b.logf("%s: %v", t.name, wall.Round(time.Millisecond))
	return m, nil
}

// report writes the table of results: per tool the best round (least wall
// time), then the ratios of the best rounds.
func report(w io.Writer, what string, tools []tool, results [][]measurement) error {
	var b strings.Builder
	fmt.Fprintf(&b, "vetbench: %s; GOMAXPROCS=%d, %s/%s, %d round(s)\n", what, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, len(results[0]))
	fmt.Fprintf(&b, "build cache primed with every package's export data; vet results not cached\n\n")
	var rows strings.Builder // tab-separated cells
	fmt.Fprintf(&rows, "command\twall (best)\twall (each round)\tcpu user+sys\tpeak RSS\tfindings\t\n")
	best := make([]measurement, len(tools))
	for i, t := range tools {
		best[i] = results[i][0]
		var walls []string
		for _, m := range results[i] {
			if m.wall < best[i].wall {
				best[i] = m
			}
			walls = append(walls, seconds(m.wall))
		}
		fmt.Fprintf(&rows, "%s\t%s\t%s\t%s\t%s\t%d\t\n", t.name, seconds(best[i].wall), strings.Join(walls, " "), seconds(best[i].cpu), mib(best[i].peakRSS), best[i].findings)
	}
	if len(tools) == 2 {
		fmt.Fprintf(&rows, "ratio confirmvet / go vet\t%s\t\t%s\t%s\t\t\n",
			ratio(float64(best[1].wall), float64(best[0].wall)),
			ratio(float64(best[1].cpu), float64(best[0].cpu)),
			ratio(float64(best[1].peakRSS), float64(best[0].peakRSS)))
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	if _, err := io.WriteString(tw, rows.String()); err != nil {
		return err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(&b, "\npeak RSS: the largest resident set of any one process of the go vet tree (go command or one analysis process), from wait4's rusage of the go command\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func seconds(d time.Duration) string { return fmt.Sprintf("%.1fs", d.Seconds()) }

func mib(n int64) string {
	if n <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MiB", float64(n)/(1<<20))
}

func ratio(a, b float64) string {
	if a <= 0 || b <= 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.2fx", a/b)
}

// goCmd runs the go command in dir with env added to the environment and
// returns its standard output; its error names the command and holds the
// end of its standard error.
func goCmd(ctx context.Context, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	if env != nil {
		cmd.Env = append(os.Environ(), env...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, tail(stderr.String(), 20))
	}
	return stdout.String(), nil
}

// tail returns the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{"..."}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

func (b *bench) logf(format string, args ...any) {
	if b.opts.verbose {
		_, _ = fmt.Fprintf(b.log, "vetbench: "+format+"\n", args...) // progress only
	}
}
