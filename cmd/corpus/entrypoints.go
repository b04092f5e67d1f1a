package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// An entryPoint is one of the ways users run the analyzers: confirm
// ./..., confirmvet ./..., go vet -vettool=confirmvet ./... and a
// golangci-lint binary with the confirm plugin. Each should report the
// same findings on a module, each once.
type entryPoint struct {
	name string
	// run analyzes the packages of dir, ./..., and returns one key
	// (file relative to dir:line:col: message) per finding printed.
	run func(ctx context.Context, dir string) ([]string, error)
}

// findingKey is how the entry points' findings are compared.
func findingKey(dir, posn, message string) string {
	if rel, err := filepath.Rel(dir, posn); err == nil && !strings.HasPrefix(rel, "..") {
		posn = rel
	}
	return posn + ": " + message
}

// vetEntryPoints returns the entry points other than confirm ./...:
// confirmvet standalone and under go vet, and golangci-lint when gcl
// names a binary built with the plugin (golangci-lint custom).
func vetEntryPoints(confirmvet, gcl, tmp string) ([]entryPoint, error) {
	eps := []entryPoint{
		{"confirmvet ./...", func(ctx context.Context, dir string) ([]string, error) {
			stdout, stderr, err := runTool(ctx, dir, nil, confirmvet, "-json", "./...")
			if err != nil {
				return nil, err
			}
			return vetJSONKeys(dir, append(stdout, stderr...))
		}},
		{"go vet -vettool=confirmvet ./...", func(ctx context.Context, dir string) ([]string, error) {
			stdout, stderr, err := runTool(ctx, dir, nil, "go", "vet", "-json", "-vettool="+confirmvet, "./...")
			if err != nil {
				return nil, err
			}
			return vetJSONKeys(dir, append(stdout, stderr...))
		}},
	}
	if gcl == "" {
		return eps, nil
	}
	cfg := filepath.Join(tmp, "golangci.yml")
	if err := os.WriteFile(cfg, []byte(golangciConfig), 0o644); err != nil {
		return nil, fmt.Errorf("writing the golangci-lint configuration: %w", err)
	}
	// golangci-lint caches results by package and configuration, not by
	// plugin build: a cache of its own keeps a rebuilt binary honest.
	cache, err := os.MkdirTemp(tmp, "golangci-cache-")
	if err != nil {
		return nil, err
	}
	eps = append(eps, entryPoint{"golangci-lint (plugin confirm)", func(ctx context.Context, dir string) ([]string, error) {
		stdout, _, err := runTool(ctx, dir, []string{"GOLANGCI_LINT_CACHE=" + cache}, gcl, "run", "-c", cfg, "--output.json.path", "stdout", "./...")
		if err != nil {
			return nil, err
		}
		return golangciKeys(dir, stdout)
	}})
	return eps, nil
}

// golangciConfig enables the confirm plugin alone and keeps every issue
// (golangci-lint otherwise caps issues per linter and per text, and
// keeps one per line).
const golangciConfig = `version: "2"
run:
  relative-path-mode: wd
linters:
  default: none
  enable: [confirm]
  settings:
    custom:
      confirm:
        type: module
issues:
  max-issues-per-linter: 0
  max-same-issues: 0
  uniq-by-line: false
`

// runTool runs name in dir and returns its output. An exit status of 1
// or 3 (findings printed, as go vet and the analysis drivers say) is not
// an error; any other failure is, with the end of its output.
func runTool(ctx context.Context, dir string, env []string, name string, args ...string) (stdout, stderr []byte, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && (exit.ExitCode() == 1 || exit.ExitCode() == 3) {
		err = nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, lastLines(errb.String(), 20))
	}
	return out.Bytes(), errb.Bytes(), nil
}

// vetJSONKeys reads the JSON that go vet -json and the analysis drivers
// print (one object per package: analyzer name to diagnostics, or to an
// error), skipping go's "# package" lines, and returns one key per
// diagnostic. An analyzer's error is returned as an error.
func vetJSONKeys(dir string, out []byte) ([]string, error) {
	var text bytes.Buffer
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	for sc.Scan() {
		if line := sc.Bytes(); !bytes.HasPrefix(line, []byte("#")) {
			text.Write(line)
			text.WriteByte('\n')
		}
	}
	var keys []string
	dec := json.NewDecoder(&text)
	for {
		var pkgs map[string]map[string]json.RawMessage
		if err := dec.Decode(&pkgs); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("reading vet JSON: %w", err)
		}
		for pkg, byAnalyzer := range pkgs {
			for analyzer, raw := range byAnalyzer {
				var diags []struct{ Posn, Message string }
				if err := json.Unmarshal(raw, &diags); err != nil {
					var failed struct {
						Err string `json:"error"`
					}
					if json.Unmarshal(raw, &failed) == nil && failed.Err != "" {
						return nil, fmt.Errorf("%s on %s: %s", analyzer, pkg, failed.Err)
					}
					return nil, fmt.Errorf("reading vet JSON of %s on %s: %w", analyzer, pkg, err)
				}
				for _, d := range diags {
					keys = append(keys, findingKey(dir, d.Posn, d.Message))
				}
			}
		}
	}
	return keys, nil
}

// golangciKeys reads golangci-lint's JSON output and returns one key per
// issue. golangci-lint prefixes an issue's text with its analyzer's name
// ("race: possible data race: ..."), which the key leaves out, and prints
// the related positions of a finding as issues of their own
// ("race(related information): ..."), which it skips.
func golangciKeys(dir string, out []byte) ([]string, error) {
	var report struct {
		Issues []struct {
			FromLinter string
			Text       string
			Pos        struct {
				Filename     string
				Line, Column int
			}
		}
	}
	// The JSON report comes first; the text summary ("N issues.") follows.
	if err := json.NewDecoder(bytes.NewReader(out)).Decode(&report); err != nil {
		return nil, fmt.Errorf("reading golangci-lint JSON: %w", err)
	}
	var keys []string
	for _, is := range report.Issues {
		text := is.Text
		analyzer, rest, ok := strings.Cut(text, ": ")
		switch {
		case ok && strings.HasSuffix(analyzer, "(related information)"):
			continue
		case ok && !strings.Contains(analyzer, " "):
			text = rest
		}
		file := is.Pos.Filename
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		keys = append(keys, findingKey(dir, fmt.Sprintf("%s:%d:%d", file, is.Pos.Line, is.Pos.Column), text))
	}
	return keys, nil
}

// A disagreement is how one entry point's findings on a module differ
// from confirm ./...'s.
type disagreement struct {
	entry          string
	err            error
	missing, extra []string // findings confirm has and it lacks, and the reverse
	repeated       []string // findings it printed more than once
}

// compareEntryPoints runs every entry point on dir and compares its
// findings with want, confirm's; it returns the entry points that differ.
func compareEntryPoints(ctx context.Context, dir string, want []string, eps []entryPoint) []disagreement {
	var out []disagreement
	for _, ep := range eps {
		got, err := ep.run(ctx, dir)
		if err != nil {
			out = append(out, disagreement{entry: ep.name, err: err})
			continue
		}
		d := disagreement{entry: ep.name}
		d.missing, d.extra, d.repeated = diffKeys(want, got)
		if len(d.missing)+len(d.extra)+len(d.repeated) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// diffKeys returns the keys of want that got lacks, those of got that
// want lacks, and those got holds more than once.
func diffKeys(want, got []string) (missing, extra, repeated []string) {
	count := map[string]int{}
	for _, k := range got {
		count[k]++
	}
	for k, n := range count {
		if n > 1 {
			repeated = append(repeated, k)
		}
		if !slices.Contains(want, k) {
			extra = append(extra, k)
		}
	}
	for _, k := range want {
		if count[k] == 0 && !slices.Contains(missing, k) {
			missing = append(missing, k)
		}
	}
	slices.Sort(extra)
	slices.Sort(repeated)
	return missing, extra, repeated
}

// buildEntryPoints builds confirmvet from this checkout into o.dir and
// returns the entry points to compare with confirm ./....
func buildEntryPoints(ctx context.Context, o options) ([]entryPoint, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	bin := filepath.Join(o.dir, "bin")
	confirmvet := filepath.Join(bin, "confirmvet")
	if err := command(ctx, root, nil, "go", "build", "-o", confirmvet, "./cmd/confirmvet"); err != nil {
		return nil, err
	}
	gcl := o.golangci
	if gcl != "" {
		if gcl, err = filepath.Abs(gcl); err != nil {
			return nil, err
		}
		if _, err := os.Stat(gcl); err != nil {
			return nil, fmt.Errorf("golangci-lint binary with the confirm plugin: %w", err)
		}
	}
	return vetEntryPoints(confirmvet, gcl, bin)
}
