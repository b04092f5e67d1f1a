package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// A heldoutModule is a module of heldout.txt: one the analyzers were not
// tuned on, measured in a named set and copied to a directory of its own.
type heldoutModule struct {
	set      string   // the set it was judged in: h2, h3, ...
	dir      string   // the name of its copy, which its judgements use
	mod      module   // the pinned module; mod.name is dir
	patterns []string // the packages vetted: ./... unless heldout.txt names others
}

// A heldJudgement is one line of heldout-judged.txt: what a reader decided
// about a finding at a position.
type heldJudgement struct {
	dir, file string
	line, col int    // col is 0 when the judge named no column
	kind      string // race, double-lock, rwr, lock-order, lock-leak, lock-channel
	verdict   string // true, false or unsure
	reason    string
}

// The verdicts of a finding. A finding whose judgements are tied between
// verdicts is a conflict; one that no judgement names is unjudged.
const (
	verdictTrue     = "true"
	verdictFalse    = "false"
	verdictUnsure   = "unsure"
	verdictConflict = "conflict"
	verdictUnjudged = "unjudged"
)

// A judgedKey is what a finding and a judgement are matched on.
type judgedKey struct {
	dir, file string
	line      int
	kind      string
}

// A vetFinding is one finding go vet printed, and the verdict its
// judgements give it.
type vetFinding struct {
	file      string // relative to the module's root, slash-separated
	line, col int
	kind      string
	message   string
	verdict   string
	reasons   []string // the reasons of the judgements that decided it
	mixed     bool     // the judgements at its position disagree
}

// A heldoutRun is one vet binary's run on one held-out module.
type heldoutRun struct {
	hm       heldoutModule
	findings []*vetFinding
	other    []string // lines vet printed that are not findings: package errors
	err      error    // the module could not be fetched or vetted
	wall     time.Duration
}

// parseHeldout reads heldout.txt: "set dir module@version [patterns...]"
// a line.
func parseHeldout(text string) ([]heldoutModule, error) {
	var out []heldoutModule
	seen := map[string]bool{}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 3 {
			return nil, fmt.Errorf("heldout.txt:%d: want \"set dir module@version [patterns...]\", got %q", i+1, line)
		}
		p, v, ok := strings.Cut(f[2], "@")
		if !ok || p == "" || v == "" {
			return nil, fmt.Errorf("heldout.txt:%d: want module@version, got %q", i+1, f[2])
		}
		if seen[f[1]] {
			return nil, fmt.Errorf("heldout.txt:%d: directory %s named twice", i+1, f[1])
		}
		seen[f[1]] = true
		hm := heldoutModule{set: f[0], dir: f[1], mod: module{path: p, version: v, name: f[1]}, patterns: f[3:]}
		if len(hm.patterns) == 0 {
			hm.patterns = []string{"./..."}
		}
		out = append(out, hm)
	}
	return out, nil
}

// heldPosn matches the position of a judgement: file:line or file:line:col.
var heldPosn = regexp.MustCompile(`^(.+?):([0-9]+)(?::([0-9]+))?$`)

// heldKinds are the kinds a judgement may name.
var heldKinds = []string{"race", "double-lock", "rwr", "lock-order", "lock-leak", "lock-channel"}

// parseHeldoutJudged reads heldout-judged.txt: "dir file:line[:col] kind
// true|false|unsure reason" a line.
func parseHeldoutJudged(text string) ([]heldJudgement, error) {
	var out []heldJudgement
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, " ", 5)
		if len(f) < 5 {
			return nil, fmt.Errorf("heldout-judged.txt:%d: want \"dir file:line kind true|false|unsure reason\", got %q", i+1, line)
		}
		m := heldPosn.FindStringSubmatch(f[1])
		if m == nil {
			return nil, fmt.Errorf("heldout-judged.txt:%d: want file:line[:col], got %q", i+1, f[1])
		}
		if !slices.Contains(heldKinds, f[2]) {
			return nil, fmt.Errorf("heldout-judged.txt:%d: unknown kind %q (want one of %s)", i+1, f[2], strings.Join(heldKinds, ", "))
		}
		switch f[3] {
		case verdictTrue, verdictFalse, verdictUnsure:
		default:
			return nil, fmt.Errorf("heldout-judged.txt:%d: want true, false or unsure, got %q", i+1, f[3])
		}
		j := heldJudgement{dir: f[0], file: m[1], kind: f[2], verdict: f[3], reason: strings.TrimSpace(f[4])}
		j.line, _ = strconv.Atoi(m[2])
		if m[3] != "" {
			j.col, _ = strconv.Atoi(m[3])
		}
		out = append(out, j)
	}
	return out, nil
}

// messageKinds classify a finding by how its message starts, as the
// analyzers word them.
var messageKinds = []struct{ prefix, kind string }{
	{"possible data race:", "race"},
	{"double lock:", "double-lock"},
	{"recursive read lock:", "rwr"},
	{"lock-order cycle", "lock-order"},
	{"lock leak:", "lock-leak"},
	{"lock held across a channel", "lock-channel"},
}

// classify returns the kind of a finding's message, or "" when it is no
// message of the analyzers (a compiler's or go vet's own).
func classify(message string) string {
	for _, k := range messageKinds {
		if strings.HasPrefix(message, k.prefix) {
			return k.kind
		}
	}
	return ""
}

// vetLine matches a line of go vet's text output: file:line:col: message.
var vetLine = regexp.MustCompile(`^(.+?):([0-9]+):([0-9]+): (.*)$`)

// parseVet reads what go vet printed in dir. It returns the findings, and
// the lines that are neither findings nor their related sites (indented
// with a tab), package headers ("# path") or the go command's progress
// ("go: downloading ..."): package errors and anything unexpected.
func parseVet(dir string, out []byte) (findings []*vetFinding, other []string) {
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "go: ") {
			continue
		}
		m := vetLine.FindStringSubmatch(line)
		if m != nil && strings.HasPrefix(m[4], "\t") {
			continue
		}
		var kind string
		if m != nil {
			kind = classify(m[4])
		}
		if kind == "" {
			other = append(other, line)
			continue
		}
		f := &vetFinding{file: relFile(dir, m[1]), kind: kind, message: m[4]}
		f.line, _ = strconv.Atoi(m[2])
		f.col, _ = strconv.Atoi(m[3])
		findings = append(findings, f)
	}
	return findings, other
}

// relFile returns file relative to the module's root dir, slash-separated:
// go vet prints it relative to the directory it runs in, or absolute.
func relFile(dir, file string) string {
	if filepath.IsAbs(file) {
		if rel, err := filepath.Rel(dir, file); err == nil && !strings.HasPrefix(rel, "..") {
			file = rel
		}
	}
	return filepath.ToSlash(strings.TrimPrefix(file, "./"))
}

// indexJudged groups the judgements by the key findings are matched on.
func indexJudged(js []heldJudgement) map[judgedKey][]heldJudgement {
	idx := make(map[judgedKey][]heldJudgement)
	for _, j := range js {
		k := judgedKey{j.dir, j.file, j.line, j.kind}
		idx[k] = append(idx[k], j)
	}
	return idx
}

// judge gives f, a finding in the copy named dir, the verdict of its
// judgements: those at its dir, file, line and kind, narrowed to those
// naming its column when any does. The verdict most of them give wins; a
// tie between verdicts is a conflict, which precision leaves out like an
// unsure one.
func judge(f *vetFinding, dir string, idx map[judgedKey][]heldJudgement) {
	js := idx[judgedKey{dir, f.file, f.line, f.kind}]
	var atCol []heldJudgement
	for _, j := range js {
		if j.col == f.col {
			atCol = append(atCol, j)
		}
	}
	if len(atCol) > 0 {
		js = atCol
	}
	f.verdict, f.reasons, f.mixed = verdictUnjudged, nil, false
	if len(js) == 0 {
		return
	}
	count := map[string]int{}
	for _, j := range js {
		count[j.verdict]++
		f.reasons = append(f.reasons, j.verdict+": "+j.reason)
	}
	f.mixed = len(count) > 1
	best := 0
	for v, n := range count {
		switch {
		case n > best:
			best, f.verdict = n, v
		case n == best:
			f.verdict = verdictConflict
		}
	}
}

// A tally counts the verdicts of a set of findings.
type tally struct {
	modules, findings, other, failed          int
	nTrue, nFalse, unsure, conflict, unjudged int
	wall                                      time.Duration // of the vet runs
}

// add counts r's findings in t.
func (t *tally) add(r *heldoutRun) {
	t.modules++
	t.wall += r.wall
	t.other += len(r.other)
	if r.err != nil {
		t.failed++
	}
	for _, f := range r.findings {
		t.findings++
		switch f.verdict {
		case verdictTrue:
			t.nTrue++
		case verdictFalse:
			t.nFalse++
		case verdictUnsure:
			t.unsure++
		case verdictConflict:
			t.conflict++
		default:
			t.unjudged++
		}
	}
}

// precision is true/(true+false), "-" when nothing is judged either way.
func (t *tally) precision() string {
	if t.nTrue+t.nFalse == 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(t.nTrue)/float64(t.nTrue+t.nFalse))
}

// row prints t as a row of the tables of reportHeldout.
func (t *tally) row(w io.Writer, name string) {
	printf(w, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%.0fs\t\n", name, t.modules, t.findings, t.nTrue, t.nFalse, t.unsure, t.conflict, t.unjudged, t.precision(), t.other, t.failed, t.wall.Seconds())
}

// heldoutOptions are the settings of the -heldout mode.
type heldoutOptions struct {
	sets    string // comma-separated set names; all when empty
	vettool string // the vet binary; built from this checkout when empty
	compare string // a second vet binary to compare with the first
	verbose bool   // print every finding with its verdict
}

// runHeldout fetches the held-out modules of heldout.txt, runs go vet
// with the vet binary (and the one to compare with) on each, and prints
// the precision against heldout-judged.txt per set and overall. It
// reports false when a module could not be fetched or vetted.
func runHeldout(ctx context.Context, o options, out, log io.Writer) (bool, error) {
	mods, err := selectHeldout(heldoutTxt, o.held.sets, o.only)
	if err != nil {
		return false, err
	}
	judged, err := parseHeldoutJudged(heldoutJudgedTxt)
	if err != nil {
		return false, err
	}
	idx := indexJudged(judged)
	if err := ensureDir(&o); err != nil {
		return false, err
	}
	bins, err := vetBinaries(ctx, o)
	if err != nil {
		return false, err
	}
	runs := make([][]*heldoutRun, len(bins))
	start := time.Now()
	for _, hm := range mods {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		printf(log, "corpus: %s %s %s@%s\n", hm.set, hm.dir, hm.mod.path, hm.mod.version)
		dir, ferr := fetchHeldout(ctx, hm.mod, o.dir)
		for i, bin := range bins {
			r := &heldoutRun{hm: hm, err: ferr}
			if ferr == nil {
				r = vetHeldout(ctx, bin, dir, hm, filepath.Join(o.dir, fmt.Sprintf("%s.%d.vet", hm.dir, i)))
			}
			for _, f := range r.findings {
				judge(f, hm.dir, idx)
			}
			if r.err != nil {
				printf(log, "corpus: %s: %v\n", hm.dir, r.err)
			}
			runs[i] = append(runs[i], r)
		}
	}
	wall := time.Since(start)
	ok := true
	for i, bin := range bins {
		if len(bins) > 1 {
			printf(out, "== %s\n\n", bin)
		}
		ok = reportHeldout(out, runs[i], o.held.verbose) && ok
		printf(out, "\n")
	}
	if len(bins) > 1 {
		reportDiff(out, bins, runs[0], runs[1])
	}
	printf(out, "wall time %s (%d modules, %d vet binaries, one vet at a time)\n", wall.Round(time.Second), len(mods), len(bins))
	return ok, nil
}

// selectHeldout returns the modules of heldout.txt in the comma-separated
// sets, and of those the ones whose directories dirs names; all when
// empty.
func selectHeldout(text, sets, dirs string) ([]heldoutModule, error) {
	mods, err := parseHeldout(text)
	if err != nil {
		return nil, err
	}
	var out []heldoutModule
	for _, hm := range mods {
		if (sets == "" || slices.Contains(strings.Split(sets, ","), hm.set)) &&
			(dirs == "" || slices.Contains(strings.Split(dirs, ","), hm.dir)) {
			out = append(out, hm)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("-sets %q -modules %q name none of heldout.txt", sets, dirs)
	}
	return out, nil
}

// vetBinaries returns the vet binaries to run, absolute: -vettool, or
// confirmvet built from this checkout into o.dir, and -compare's.
func vetBinaries(ctx context.Context, o options) ([]string, error) {
	bin := o.held.vettool
	if bin == "" {
		root, err := repoRoot()
		if err != nil {
			return nil, err
		}
		bin = filepath.Join(o.dir, "bin", "confirmvet")
		if err := command(ctx, root, nil, "go", "build", "-o", bin, "./cmd/confirmvet"); err != nil {
			return nil, fmt.Errorf("building confirmvet: %w", err)
		}
	}
	bins := []string{bin}
	if o.held.compare != "" {
		bins = append(bins, o.held.compare)
	}
	for i, b := range bins {
		abs, err := filepath.Abs(b)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(abs); err != nil {
			return nil, fmt.Errorf("vet binary: %w", err)
		}
		bins[i] = abs
	}
	return bins, nil
}

// fetchHeldout copies m to a directory below root as fetch does, but
// tidies it with -e: a held-out module may import a package the module
// proxy no longer serves in a directory heldout.txt does not vet
// (rcrowley/go-metrics' stathat).
func fetchHeldout(ctx context.Context, m module, root string) (string, error) {
	dir, err := copyModule(ctx, m, root)
	if err != nil {
		return "", err
	}
	if err := command(ctx, dir, nil, "go", "mod", "tidy", "-e"); err != nil {
		return "", fmt.Errorf("%s: %w", m.path, err)
	}
	return dir, nil
}

// vetHeldout runs go vet -vettool=bin on hm's packages in dir, as the
// trials did (GOWORK=off, GOFLAGS=-mod=mod), keeps what it printed in
// save and returns its findings.
func vetHeldout(ctx context.Context, bin, dir string, hm heldoutModule, save string) *heldoutRun {
	r := &heldoutRun{hm: hm}
	args := append([]string{"vet", "-vettool=" + bin}, hm.patterns...)
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	start := time.Now()
	// go vet prints findings and errors on standard error.
	data, err := cmd.CombinedOutput()
	r.wall = time.Since(start)
	if werr := os.WriteFile(save, data, 0o644); werr != nil {
		r.err = fmt.Errorf("saving vet output of %s: %w", hm.dir, werr)
		return r
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == 1:
		// Findings, or packages that failed: both are in the output.
	case err != nil:
		r.err = fmt.Errorf("go %s in %s: %w\n%s", strings.Join(args, " "), dir, err, lastLines(string(data), 20))
		return r
	}
	r.findings, r.other = parseVet(dir, data)
	sort.SliceStable(r.findings, func(i, j int) bool { return findingLess(r.findings[i], r.findings[j]) })
	return r
}

// findingLess orders findings by file, line and column.
func findingLess(a, b *vetFinding) bool {
	if a.file != b.file {
		return a.file < b.file
	}
	if a.line != b.line {
		return a.line < b.line
	}
	return a.col < b.col
}

// reportHeldout prints the verdicts per set, per module and overall, the
// findings no one judged (as lines to complete in heldout-judged.txt),
// those whose judgements disagree and the modules that failed; with
// verbose, every finding and its verdict. It reports whether every
// module was vetted.
func reportHeldout(w io.Writer, runs []*heldoutRun, verbose bool) bool {
	header := "\tmodules\tfindings\ttrue\tfalse\tunsure\tconflict\tunjudged\tprecision\tother lines\tfailed\tvet wall\t\n"
	sets := map[string]*tally{}
	var order []string
	var all tally
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	printf(tw, "module%s", header)
	for _, r := range runs {
		var t tally
		t.add(r)
		t.row(tw, r.hm.set+" "+r.hm.dir)
		if sets[r.hm.set] == nil {
			sets[r.hm.set] = &tally{}
			order = append(order, r.hm.set)
		}
		sets[r.hm.set].add(r)
		all.add(r)
	}
	printf(tw, "\t\t\t\t\t\t\t\t\t\t\t\t\n")
	printf(tw, "set%s", header)
	for _, s := range order {
		sets[s].row(tw, s)
	}
	all.row(tw, "all")
	_ = tw.Flush()
	printf(w, "\noverall precision %s (%d true, %d false; %d unsure, %d conflicting and %d unjudged findings left out)\n",
		all.precision(), all.nTrue, all.nFalse, all.unsure, all.conflict, all.unjudged)
	listFindings(w, runs, "\nunjudged findings (judge them in heldout-judged.txt):", func(f *vetFinding) bool { return f.verdict == verdictUnjudged })
	listFindings(w, runs, "\nfindings whose judgements disagree (majority used; a tie is a conflict):", func(f *vetFinding) bool { return f.mixed })
	if verbose {
		listFindings(w, runs, "\nevery finding:", func(*vetFinding) bool { return true })
	}
	ok := true
	for _, r := range runs {
		if r.err != nil {
			ok = false
			printf(w, "\n%s %s failed:\n%s\n", r.hm.set, r.hm.dir, indent(r.err.Error()))
		}
		if len(r.other) > 0 {
			printf(w, "\n%s %s: vet printed %d lines that are not findings:\n%s\n", r.hm.set, r.hm.dir, len(r.other), indent(lastLines(strings.Join(r.other, "\n"), 10)))
		}
	}
	return ok
}

// listFindings prints title and the findings that keep selects, if any,
// one a line, as "dir file:line:col kind verdict: message" and then the
// reasons of their judgements.
func listFindings(w io.Writer, runs []*heldoutRun, title string, keep func(*vetFinding) bool) {
	printed := false
	for _, r := range runs {
		for _, f := range r.findings {
			if !keep(f) {
				continue
			}
			if !printed {
				printf(w, "%s\n", title)
				printed = true
			}
			printf(w, "%s\n", findingLine(r.hm.dir, f))
			for _, reason := range f.reasons {
				printf(w, "\t\t%s\n", reason)
			}
		}
	}
}

// findingLine describes f, a finding in the copy named dir, in the
// layout of heldout-judged.txt with its verdict in place of a judgement.
func findingLine(dir string, f *vetFinding) string {
	return fmt.Sprintf("\t%s %s:%d:%d %s %s: %s", dir, f.file, f.line, f.col, f.kind, f.verdict, f.message)
}

// reportDiff prints, per module, the findings the second binary adds to
// and loses from the first's, with their verdicts.
func reportDiff(w io.Writer, bins []string, base, other []*heldoutRun) {
	printf(w, "== findings of %s against %s\n", bins[1], bins[0])
	var gained, lost int
	for i := range base {
		g, l := diffFindings(base[i].findings, other[i].findings)
		gained += len(g)
		lost += len(l)
		for _, f := range g {
			printf(w, "gained%s\n", findingLine(base[i].hm.dir, f))
		}
		for _, f := range l {
			printf(w, "lost  %s\n", findingLine(base[i].hm.dir, f))
		}
	}
	printf(w, "%d gained, %d lost\n\n", gained, lost)
}

// diffFindings returns the findings of b that a lacks and those of a that
// b lacks, a finding being its position and message (each counted as
// often as it is printed).
func diffFindings(a, b []*vetFinding) (gained, lost []*vetFinding) {
	key := func(f *vetFinding) string { return fmt.Sprintf("%s:%d:%d: %s", f.file, f.line, f.col, f.message) }
	count := map[string]int{}
	for _, f := range a {
		count[key(f)]++
	}
	for _, f := range b {
		if count[key(f)] > 0 {
			count[key(f)]--
			continue
		}
		gained = append(gained, f)
	}
	for _, f := range a {
		if count[key(f)] > 0 {
			count[key(f)]--
			lost = append(lost, f)
		}
	}
	return gained, lost
}
