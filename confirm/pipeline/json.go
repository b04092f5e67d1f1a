package pipeline

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"go/token"
	"path/filepath"
	"strings"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// JSONFinding is the stable JSON form of a Finding (confirm -json prints
// an array of them). Positions are "file:line:col" (or "file:line") with
// file names relative to the working directory when below it, as go vet
// -json does. Fields that do not apply are omitted.
type JSONFinding struct {
	// ID is the warning's stable ID ("user" for a -seq sequence).
	ID string `json:"id,omitempty"`
	// Analyzer is the analyzer that reported the warning.
	Analyzer string `json:"analyzer,omitempty"`
	// Kind is the warning kind: lock-order-cycle, double-lock,
	// rwr-deadlock, lock-leak, lock-channel-deadlock, race, sequence
	// (-seq); bug for a bug found on the way (verdict "found");
	// build-error for a package that does not compile.
	Kind string `json:"kind"`
	// Message is the analyzer's diagnostic.
	Message string `json:"message"`
	// Posn is the primary position.
	Posn string `json:"posn,omitempty"`
	// Related are the other sites of the warning.
	Related []JSONRelated `json:"related,omitempty"`
	// Package is the import path of the package.
	Package string `json:"package,omitempty"`
	// Sequence is the key-location sequence the search followed.
	Sequence []JSONStep `json:"sequence,omitempty"`
	// Test is the test that ran the search.
	Test string `json:"test,omitempty"`
	// Verdict is confirmed, unconfirmed, no-test or error; found for a
	// bug.
	Verdict string `json:"verdict"`
	// Cause explains verdicts error and no-test, and why the search of an
	// unconfirmed warning ended.
	Cause string `json:"cause,omitempty"`
	// Unreached names the warning's functions no test reaches (no-test).
	Unreached []string `json:"unreached,omitempty"`
	// Bugs are the ids of the bugs the warning's search found on the way
	// (objects of kind "bug" in the same array).
	Bugs []string `json:"bugs,omitempty"`
	// FoundBy are, for a bug, the ids of the warnings whose searches
	// found it.
	FoundBy []string `json:"foundBy,omitempty"`
	// Synthesized is the test Confirm wrote that confirmed the warning,
	// when no test of the package did: {test, source}.
	Synthesized *JSONSynth `json:"synthesized,omitempty"`
	// Failure is the error found: {kind, message, stack, goroutines,
	// objects}.
	Failure *rt.Failure `json:"failure,omitempty"`
	// Trace is the failing execution, step by step.
	Trace []JSONEvent `json:"trace,omitempty"`
	// Goroutines say where each goroutine of the trace was spawned.
	Goroutines []JSONGoroutine `json:"goroutines,omitempty"`
	// Replay is the command that replays the trace; Token its token.
	Replay string `json:"replay,omitempty"`
	Token  string `json:"token,omitempty"`
	// Stats are the search statistics.
	Stats *rt.Stats `json:"stats,omitempty"`
	// Trials summarise -trials.
	Trials *TrialStats `json:"trials,omitempty"`
	// Notes are the instrumenter's notes on the package (Report.Notes):
	// what it could not instrument, and why.
	Notes []string `json:"notes,omitempty"`
}

// JSONRelated is a related position of a warning.
type JSONRelated struct {
	Posn    string `json:"posn"`
	Message string `json:"message"`
}

// JSONStep is one key location of a sequence.
type JSONStep struct {
	Posn string `json:"posn"`
	// Kind is observe, read or write.
	Kind string `json:"kind"`
	Why  string `json:"why,omitempty"`
}

// JSONEvent is one scheduling decision of a trace.
type JSONEvent struct {
	Step int `json:"step"`
	// G is the goroutine that ran the operation (0 is the test).
	G  int    `json:"g"`
	Op string `json:"op"`
	// Object is the runtime's id of the object operated on, ObjectKind
	// its kind and Name what it is in the source ("(*abba.Account).mu").
	Object     int    `json:"object,omitempty"`
	ObjectKind string `json:"objectKind,omitempty"`
	Name       string `json:"name,omitempty"`
	// Choice is the chosen select case (-1 default) or the spawned
	// goroutine of a go.
	Choice int    `json:"choice,omitempty"`
	Posn   string `json:"posn,omitempty"`
	Func   string `json:"func,omitempty"`
}

// JSONGoroutine describes one goroutine of a trace.
type JSONGoroutine struct {
	ID     int    `json:"id"`
	Parent int    `json:"parent"`
	Posn   string `json:"posn,omitempty"`
	Func   string `json:"func,omitempty"`
}

// A Renderer turns findings into output with positions relative to WD
// and replay commands that start with Command (e.g. "confirm" or
// "confirm -C dir").
type Renderer struct {
	WD      string
	Command string
	// Handle, when set, turns a token into what the replay commands
	// print (a short handle for a long token); -json's token stays whole.
	Handle func(token string) string
}

// Rel shortens an absolute file name below the working directory.
func (r Renderer) Rel(file string) string {
	if r.WD != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(r.WD, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return file
}

// Posn formats a position as file:line:col (file:line without a column).
func (r Renderer) Posn(file string, line, col int) string {
	if file == "" {
		return ""
	}
	if col > 0 {
		return fmt.Sprintf("%s:%d:%d", r.Rel(file), line, col)
	}
	return fmt.Sprintf("%s:%d", r.Rel(file), line)
}

func (r Renderer) position(p token.Position) string { return r.Posn(p.Filename, p.Line, p.Column) }

// Text shortens every absolute path below the working directory in s.
func (r Renderer) Text(s string) string {
	if r.WD == "" || r.WD == string(filepath.Separator) {
		return s
	}
	return strings.ReplaceAll(s, r.WD+string(filepath.Separator), "")
}

// ReplayCommand is the command line that replays f, or "".
func (r Renderer) ReplayCommand(f *Finding) string { return r.Replay(f.Token, f.PackageArg) }

// Replay is the command line that replays token in package arg, or "".
func (r Renderer) Replay(token, arg string) string {
	if token == "" {
		return ""
	}
	cmd := r.Command
	if cmd == "" {
		cmd = "confirm"
	}
	if r.Handle != nil {
		token = r.Handle(token)
	}
	return fmt.Sprintf("%s replay -token %s %s", cmd, token, arg)
}

// JSON returns the JSON form of the report: its findings, its bugs, then
// one object of kind build-error per package that does not compile.
func (r Renderer) JSON(rep *Report) []JSONFinding {
	out := make([]JSONFinding, 0, len(rep.Findings)+len(rep.Bugs)+len(rep.PackageErrors))
	notes := make(map[string][]string)
	for _, n := range rep.Notes {
		notes[n.Package] = append(notes[n.Package], r.Text(n.Message))
	}
	for _, f := range rep.Findings {
		j := r.finding(f)
		j.Notes = notes[j.Package]
		out = append(out, j)
	}
	for _, b := range rep.Bugs {
		out = append(out, r.bug(b))
	}
	for _, e := range rep.PackageErrors {
		out = append(out, JSONFinding{
			Kind:    "build-error",
			Message: r.Text(e.Message),
			Package: e.Package,
			Verdict: Error,
			Cause:   "build error",
		})
	}
	return out
}

func (r Renderer) finding(f *Finding) JSONFinding {
	w := f.Warning
	j := JSONFinding{
		ID:        w.ID,
		Analyzer:  w.Analyzer,
		Kind:      string(w.Kind),
		Message:   r.Text(w.Message),
		Package:   w.Package,
		Test:      f.Test,
		Verdict:   f.Verdict,
		Cause:     r.Text(f.Cause),
		Unreached: f.Unreached,
		Token:     f.Token,
		Replay:    r.ReplayCommand(f),
		Trials:    f.Trials,
	}
	for _, sig := range f.Bugs {
		j.Bugs = append(j.Bugs, BugID(sig))
	}
	if len(w.Sites) > 0 {
		j.Posn = r.position(w.Sites[0].Position)
		for _, s := range w.Sites[1:] {
			j.Related = append(j.Related, JSONRelated{Posn: r.position(s.Position), Message: s.Role})
		}
	}
	for _, s := range f.Sequence {
		j.Sequence = append(j.Sequence, JSONStep{Posn: r.Posn(s.File, s.Line, s.Col), Kind: s.Kind, Why: s.Why})
	}
	if f.Verdict == Confirmed || f.Verdict == Unconfirmed {
		st := f.Stats
		j.Stats = &st
	}
	if h := f.Synthesized; h != nil {
		j.Synthesized = &JSONSynth{Test: h.Test, Source: h.Source}
	}
	if res := f.Result; res != nil {
		r.result(&j, res)
	}
	return j
}

// JSONSynth is a synthesized test in the JSON output.
type JSONSynth struct {
	// Test is the test function's name.
	Test string `json:"test"`
	// Source is the test function, which exists only in the overlay
	// Confirm built the package with.
	Source string `json:"source"`
}

// bug returns the JSON form of a bug found.
func (r Renderer) bug(b *Bug) JSONFinding {
	j := JSONFinding{
		ID:       BugID(b.Signature),
		Analyzer: "confirm",
		Kind:     "bug",
		Message:  r.Text(BugMessage(b)),
		Posn:     r.Text(BugPosn(b)),
		Package:  b.Package,
		Test:     b.Test,
		Verdict:  "found",
		Token:    b.Token,
		Replay:   r.Replay(b.Token, b.PackageArg),
		FoundBy:  b.FoundBy,
	}
	r.result(&j, b.Result)
	return j
}

// result fills in the failure, trace and goroutines of res.
func (r Renderer) result(j *JSONFinding, res *runner.Result) {
	if res.Package != "" {
		j.Package = res.Package
	}
	if res.Failure != nil {
		fl := *res.Failure
		fl.Message, fl.Stack = r.Text(fl.Message), r.Text(fl.Stack)
		j.Failure = &fl
	}
	j.Trace = r.trace(res.Trace)
	for _, g := range res.Goroutines {
		j.Goroutines = append(j.Goroutines, JSONGoroutine{ID: g.ID, Parent: g.Parent, Posn: r.Posn(g.File, g.Line, 0), Func: g.Func})
	}
}

// BugID is the id of the bug with signature sig: "bug-" and 8 hex digits
// of its hash, stable across runs and checkouts (file names count without
// their directories).
func BugID(sig string) string {
	fields := strings.Fields(sig)
	for i, f := range fields {
		if j := strings.LastIndexByte(f, '/'); j >= 0 {
			fields[i] = f[j+1:]
		}
	}
	h := sha256.Sum256([]byte(strings.Join(fields, " ")))
	return "bug-" + hex.EncodeToString(h[:4])
}

// BugMessage says in one line what the bug is.
func BugMessage(b *Bug) string {
	f := b.Result.Failure
	return fmt.Sprintf("%s found by %s: %s", bugKind(f.Kind), b.Test, summary(f.Message))
}

// summary is the first line of a failure's message, with, when that line
// is only where a test failed ("x_test.go:12: " before testify's report),
// the error the report gives.
func summary(msg string) string {
	lines := strings.Split(msg, "\n")
	first := strings.TrimSpace(lines[0])
	if !strings.HasSuffix(first, ":") {
		return first
	}
	for i, l := range lines[1:] {
		what, ok := strings.CutPrefix(strings.TrimSpace(l), "Error:")
		if !ok {
			continue
		}
		what = strings.TrimSpace(what)
		if strings.HasSuffix(what, ":") && i+2 < len(lines) {
			what += " " + strings.TrimSpace(lines[i+2])
		}
		return strings.TrimSpace(first + " " + what)
	}
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			return first + " " + l
		}
	}
	return first
}

// bugKind names a failure kind in a bug's message.
func bugKind(kind string) string {
	switch kind {
	case rt.FailRace:
		return "data race"
	case rt.FailTest:
		return "test failure"
	}
	return kind
}

// BugPosn is the position a bug is reported at: where its failure
// happened (a racing access, the first blocked goroutine's operation, the
// panic), or "".
func BugPosn(b *Bug) string {
	f := b.Result.Failure
	switch {
	case len(f.Accesses) > 0:
		return f.Accesses[len(f.Accesses)-1].Pos
	case len(f.Waits) > 0 && len(f.Waits[0].Frames) > 0:
		return f.Waits[0].Frames[0]
	case len(f.Frames) > 0:
		return f.Frames[0]
	}
	return ""
}

func (r Renderer) trace(evs []runner.Event) []JSONEvent {
	out := make([]JSONEvent, 0, len(evs))
	for _, ev := range evs {
		out = append(out, JSONEvent{
			Step: ev.Step, G: ev.G, Op: ev.Op, Object: ev.Object, ObjectKind: ev.ObjectKind,
			Name: ev.Name, Choice: ev.Choice, Posn: r.Posn(ev.File, ev.Line, 0), Func: ev.Func,
		})
	}
	return out
}
