package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"golang.org/x/mod/modfile"

	"github.com/confirm-go/confirm/confirm/pipeline"
)

// options are the command-line settings.
type options struct {
	dir       string
	only      string
	budget    time.Duration
	replays   int
	flags     string
	analyzers bool
	golangci  string // golangci-lint built with the confirm plugin, for -analyzers
	heldout   bool
	held      heldoutOptions
}

// A module is a pinned module of modules.txt.
type module struct {
	path, version string
	name          string // its last path element without a major version suffix
}

// A judgement is what a reader decided about one claim of confirm.
type judgement struct {
	real   bool
	reason string
}

// A claim is a confirmed warning or a bug found, and what became of it.
type claim struct {
	module  string
	id      string
	kind    string // the warning kind, or "bug"
	message string
	posn    string
	test    string
	failure string // the failure kind
	token   string
	arg     string // the replay's package argument
	replays int    // replays that reproduced it
	judged  *judgement
}

// A trial is confirm's run on one module.
type trial struct {
	mod      module
	verdicts map[string]int
	hangs    int
	claims   []*claim
	wall     time.Duration
	exit     int
	stderr   string
}

// parseModules reads modules.txt.
func parseModules(text string) ([]module, error) {
	var mods []module
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p, v, ok := strings.Cut(line, "@")
		if !ok || p == "" || v == "" {
			return nil, fmt.Errorf("modules.txt:%d: want module@version, got %q", i+1, line)
		}
		mods = append(mods, module{path: p, version: v, name: moduleName(p)})
	}
	return mods, nil
}

// moduleName is the last element of a module path without a major
// version suffix: "github.com/panjf2000/ants/v2" is "ants".
func moduleName(p string) string {
	base := path.Base(p)
	if regexp.MustCompile(`^v[0-9]+$`).MatchString(base) {
		base = path.Base(path.Dir(p))
	}
	return base
}

// parseJudged reads judged.txt: one claim a line, "module id true|false
// reason", keyed by "module id".
func parseJudged(text string) (map[string]*judgement, error) {
	out := make(map[string]*judgement)
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) < 4 || f[2] != "true" && f[2] != "false" {
			return nil, fmt.Errorf("judged.txt:%d: want \"module id true|false reason\", got %q", i+1, line)
		}
		out[f[0]+" "+f[1]] = &judgement{real: f[2] == "true", reason: f[3]}
	}
	return out, nil
}

// run runs the corpus and reports whether every claim is judged real and
// replays.
func run(ctx context.Context, o options, out, log io.Writer) (bool, error) {
	mods, err := selectModules(o.only)
	if err != nil {
		return false, err
	}
	judged, err := parseJudged(judgedTxt)
	if err != nil {
		return false, err
	}
	if err := ensureDir(&o); err != nil {
		return false, err
	}
	root, err := repoRoot()
	if err != nil {
		return false, err
	}
	confirm := filepath.Join(o.dir, "bin", "confirm")
	printf(log, "corpus: building confirm from %s\n", root)
	if err := command(ctx, root, nil, "go", "build", "-o", confirm, "./cmd/confirm"); err != nil {
		return false, err
	}
	var trials []*trial
	for _, m := range mods {
		printf(log, "corpus: %s@%s\n", m.path, m.version)
		dir, err := fetch(ctx, m, o.dir)
		if err != nil {
			return false, err
		}
		tr, err := check(ctx, confirm, dir, m, o)
		if err != nil {
			return false, err
		}
		for _, c := range tr.claims {
			c.judged = judged[c.module+" "+c.id]
			c.replays = replay(ctx, confirm, dir, c, o.replays)
		}
		trials = append(trials, tr)
	}
	return report(out, trials, o.replays), nil
}

// ensureDir makes o.dir a new temporary directory when it is empty.
func ensureDir(o *options) error {
	if o.dir != "" {
		return os.MkdirAll(o.dir, 0o755)
	}
	var err error
	o.dir, err = os.MkdirTemp("", "confirm-corpus-")
	return err
}

// repoRoot returns the root of the confirm checkout the command runs in.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(data, []byte("module github.com/confirm-go/confirm\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("run it inside a checkout of github.com/confirm-go/confirm")
		}
		dir = parent
	}
}

// fetch downloads m and copies it, writable, to a directory below root,
// with a go.mod when it has none and its dependencies tidied.
func fetch(ctx context.Context, m module, root string) (string, error) {
	dir, err := copyModule(ctx, m, root)
	if err != nil {
		return "", err
	}
	if err := command(ctx, dir, nil, "go", "mod", "tidy"); err != nil {
		return "", fmt.Errorf("%s: %w", m.path, err)
	}
	return dir, nil
}

// copyModule downloads m and copies it, writable, to the directory below
// root named m.name, with a go.mod when it has none (naming its path and
// go 1.21, as go mod init would).
func copyModule(ctx context.Context, m module, root string) (string, error) {
	var info struct{ Dir, Error string }
	data, err := output(ctx, root, nil, "go", "mod", "download", "-json", m.path+"@"+m.version)
	if jerr := json.Unmarshal(data, &info); jerr != nil || info.Error != "" || err != nil {
		if info.Error != "" {
			err = errors.Join(err, errors.New(info.Error))
		}
		return "", fmt.Errorf("downloading %s@%s: %w", m.path, m.version, errors.Join(err, jerr))
	}
	dir := filepath.Join(root, m.name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := copyTree(info.Dir, dir); err != nil {
		return "", fmt.Errorf("copying %s: %w", m.path, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); errors.Is(err, fs.ErrNotExist) {
		if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+m.path+"\n\ngo 1.21\n"), 0o644); err != nil {
			return "", err
		}
	}
	if err := dropLocalReplaces(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("%s: %w", m.path, err)
	}
	return dir, nil
}

// dropLocalReplaces removes from the go.mod file at path the replace
// directives that point to a directory (replace x => ../x): they apply
// only in the module's own repository, whose other modules the module
// proxy's copy does not hold (go.opentelemetry.io/otel/sdk), and its
// users build it with the versions it requires.
func dropLocalReplaces(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := modfile.Parse(path, data, nil)
	if err != nil {
		return err
	}
	dropped := false
	for _, r := range slices.Clone(f.Replace) {
		if modfile.IsDirectoryPath(r.New.Path) {
			if err := f.DropReplace(r.Old.Path, r.Old.Version); err != nil {
				return err
			}
			dropped = true
		}
	}
	if !dropped {
		return nil
	}
	out, err := f.Format()
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// copyTree copies the regular files below src to dst, writable.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// check runs confirm -json on the module in dir.
func check(ctx context.Context, confirm, dir string, m module, o options) (*trial, error) {
	args := []string{"-json", "-budget", o.budget.String()}
	args = append(args, strings.Fields(o.flags)...)
	args = append(args, "./...")
	start := time.Now()
	cmd := exec.CommandContext(ctx, confirm, args...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	tr := &trial{mod: m, verdicts: make(map[string]int), wall: time.Since(start), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		tr.exit = ee.ExitCode()
	case err != nil:
		return nil, fmt.Errorf("running confirm on %s: %w", m.path, err)
	}
	var fs []pipeline.JSONFinding
	if err := json.Unmarshal(stdout.Bytes(), &fs); err != nil {
		return nil, fmt.Errorf("confirm -json on %s printed no findings (exit %d): %w\n%s", m.path, tr.exit, err, lastLines(stderr.String(), 20))
	}
	for _, f := range fs {
		tr.verdicts[f.Verdict]++
		if f.Verdict == pipeline.Error && strings.HasPrefix(f.Cause, "hang") {
			tr.hangs++
		}
		if f.Verdict != pipeline.Confirmed && f.Kind != "bug" {
			continue
		}
		c := &claim{module: m.name, id: f.ID, kind: f.Kind, message: f.Message, posn: f.Posn, test: f.Test, token: f.Token}
		if f.Failure != nil {
			c.failure = f.Failure.Kind
		}
		if fields := strings.Fields(f.Replay); len(fields) > 0 {
			c.arg = fields[len(fields)-1]
		}
		tr.claims = append(tr.claims, c)
	}
	return tr, nil
}

// replay replays c's token n times and returns how many reproduced its
// failure.
func replay(ctx context.Context, confirm, dir string, c *claim, n int) int {
	ok := 0
	for range n {
		cmd := exec.CommandContext(ctx, confirm, "replay", "-json", "-token", c.token, c.arg)
		cmd.Dir = dir
		data, _ := cmd.Output()
		var res struct {
			Verdict string `json:"verdict"`
			Failure *struct {
				Kind string `json:"kind"`
			} `json:"failure"`
		}
		if json.Unmarshal(data, &res) == nil && res.Verdict == "error" && res.Failure != nil && res.Failure.Kind == c.failure {
			ok++
		}
	}
	return ok
}

// report prints the trials and reports whether every claim is judged real
// and replayed every time.
func report(w io.Writer, trials []*trial, replays int) bool {
	good := true
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	printf(tw, "module\twarnings\tconfirmed\tnot confirmed\tno test\terrors\thangs\tbugs found\tjudged true\tjudged false\tunjudged\treplayed\twall\texit\t\n")
	for _, tr := range trials {
		var real, bogus, unjudged, replayed, claims, bugs int
		for _, c := range tr.claims {
			claims++
			if c.kind == "bug" {
				bugs++
			}
			switch {
			case c.judged == nil:
				unjudged++
			case c.judged.real:
				real++
			default:
				bogus++
			}
			if c.replays == replays {
				replayed++
			}
		}
		n := tr.verdicts[pipeline.Confirmed] + tr.verdicts[pipeline.Unconfirmed] + tr.verdicts[pipeline.NoTest] + tr.verdicts[pipeline.Error]
		printf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d/%d\t%.0fs\t%d\t\n", tr.mod.name, n,
			tr.verdicts[pipeline.Confirmed], tr.verdicts[pipeline.Unconfirmed], tr.verdicts[pipeline.NoTest], tr.verdicts[pipeline.Error],
			tr.hangs, bugs, real, bogus, unjudged, replayed, claims, tr.wall.Seconds(), tr.exit)
		good = good && bogus == 0 && unjudged == 0 && replayed == claims
	}
	_ = tw.Flush()
	for _, tr := range trials {
		for _, c := range tr.claims {
			verdict := "UNJUDGED"
			if c.judged != nil {
				verdict = fmt.Sprintf("%v: %s", c.judged.real, c.judged.reason)
			}
			printf(w, "\n%s %s [%s %s, test %s, replayed %d/%d]\n\t%s: %s\n\t%s\n", c.module, c.id, c.kind, c.failure, c.test, c.replays, replays, c.posn, c.message, verdict)
		}
		if tr.exit == 2 {
			printf(w, "\n%s: confirm exited 2:\n%s\n", tr.mod.name, indent(lastLines(tr.stderr, 15)))
		}
	}
	return good
}

// command runs a command in dir and returns an error quoting its output.
func command(ctx context.Context, dir string, env []string, name string, args ...string) error {
	_, err := output(ctx, dir, env, name, args...)
	return err
}

// output runs a command in dir and returns its standard output.
func output(ctx context.Context, dir string, env []string, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return out, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out, nil
}

func lastLines(s string, n int) string {
	var lines []string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// printf writes to a report; a failed write is not worth stopping for.
func printf(w io.Writer, format string, args ...any) { _, _ = fmt.Fprintf(w, format, args...) }

func indent(s string) string { return "\t" + strings.ReplaceAll(s, "\n", "\n\t") }
