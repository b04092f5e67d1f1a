package warning

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Report finishes w, and unless a suppression comment covers its primary
// position, reports it as a diagnostic of pass with every other site as a
// related position and appends it to res. A warning whose diagnostic
// (position, message and related positions) res already holds is not
// reported again: one double lock reached at each return of a function
// prints once. It reports whether w was kept.
func Report(pass *analysis.Pass, res *Result, w *Warning) bool {
	if w.Analyzer == "" {
		w.Analyzer = pass.Analyzer.Name
	}
	if w.Package == "" && pass.Pkg != nil {
		w.Package = pass.Pkg.Path()
	}
	w.Finish(pass.Fset)
	if Suppressed(pass.Fset, pass.Files, w.Pos(), pass.Analyzer.Name) {
		return false
	}
	d := analysis.Diagnostic{Pos: w.Pos(), Category: string(w.Kind), Message: w.Message}
	for _, s := range w.Related() {
		if s.Pos.IsValid() {
			d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.Pos, Message: s.Role})
		}
	}
	key := diagnosticKey(d)
	if res.reported[key] {
		return false
	}
	if res.reported == nil {
		res.reported = map[string]bool{}
	}
	res.reported[key] = true
	pass.Report(d)
	res.Warnings = append(res.Warnings, w)
	return true
}

// diagnosticKey identifies d by what a user sees of it.
func diagnosticKey(d analysis.Diagnostic) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %s", d.Pos, d.Category, d.Message)
	for _, r := range d.Related {
		fmt.Fprintf(&b, "\n%d %s", r.Pos, r.Message)
	}
	return b.String()
}

// Suppressed reports whether a comment on the line of pos, or alone on the
// line above it, suppresses findings of the named analyzer at pos. The
// comments that suppress are "//confirm:ignore" (optionally followed by a
// reason), "//nolint" and "//nolint:a,b" where the list names the analyzer,
// "confirm" or "all".
func Suppressed(fset *token.FileSet, files []*ast.File, pos token.Pos, analyzer string) bool {
	if !pos.IsValid() {
		return false
	}
	p := fset.Position(pos)
	for _, f := range files {
		if fset.File(f.Pos()) != fset.File(pos) {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				line := fset.Position(c.Slash).Line
				if line != p.Line && line != p.Line-1 {
					continue
				}
				if suppresses(c.Text, analyzer) {
					return true
				}
			}
		}
	}
	return false
}

func suppresses(text, analyzer string) bool {
	text = strings.TrimSpace(strings.TrimPrefix(text, "//"))
	if text == "confirm:ignore" || strings.HasPrefix(text, "confirm:ignore ") {
		return true
	}
	if !strings.HasPrefix(text, "nolint") {
		return false
	}
	rest := strings.TrimPrefix(text, "nolint")
	if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
		return true // bare //nolint suppresses everything
	}
	if rest[0] != ':' {
		return false
	}
	list := rest[1:]
	if i := strings.IndexAny(list, " \t/"); i >= 0 {
		list = list[:i]
	}
	for _, name := range strings.Split(list, ",") {
		switch strings.TrimSpace(name) {
		case analyzer, "confirm", "all":
			return true
		}
	}
	return false
}
