package pipeline

import (
	"fmt"
	"html"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/confirm-go/confirm/confirm/runner"
)

// maxLaneSteps bounds the steps a swimlane view shows: the last ones,
// which end in the failure.
const maxLaneSteps = 200

// HTML returns the report as one self-contained page (no script, no
// network): per confirmed warning and per bug found, its verdict and an
// interleaving drawn as swimlanes, one column per goroutine involved and
// one row per step, each step linked to its file and line and the failing
// step marked; then a table of the other warnings.
func (r Renderer) HTML(rep *Report) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Confirm report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:20px}h2{font-size:16px;margin-top:2em}
code,pre,.step{font-family:ui-monospace,monospace;font-size:12px}
.verdict{font-weight:bold}
.lanes{display:grid;gap:2px 8px;margin:1em 0;border-top:1px solid #ccc;padding-top:4px}
.lane-head{font-weight:bold;background:#eef;padding:4px;position:sticky;top:0}
.step{background:#f6f6f6;padding:2px 4px;border-left:3px solid #99c}
.step a{color:#555}
.blocked{background:#fff3d6;border-left-color:#d90}
.fail{background:#ffd6d6;border-left-color:#c00;font-weight:bold}
.empty{}
.note{color:#666;font-style:italic}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}
</style></head><body>
`)
	c := rep.Counts()
	fmt.Fprintf(&b, "<h1>Confirm: %d confirmed, %d bugs found</h1>\n<p>%s.</p>\n", c[Confirmed], len(rep.Bugs), html.EscapeString(summaryLine(rep)))
	n := 0
	for _, f := range rep.Findings {
		if f.Verdict != Confirmed || f.Result == nil {
			continue
		}
		n++
		w := f.Warning
		fmt.Fprintf(&b, "<section class=\"finding\" id=\"f%d\">\n<h2>%s at <code>%s</code></h2>\n", n, html.EscapeString(string(w.Kind)), html.EscapeString(r.findingPosn(f)))
		fmt.Fprintf(&b, "<p>%s</p>\n<p class=\"verdict\">%s (test <code>%s</code>)</p>\n", html.EscapeString(r.Text(w.Message)), html.EscapeString(capitalize(VerdictText(f))), html.EscapeString(f.Test))
		if h := f.Synthesized; h != nil {
			fmt.Fprintf(&b, "<details><summary>The test Confirm wrote (it exists only in the build overlay)</summary><pre>%s</pre></details>\n", html.EscapeString(h.Source))
		}
		r.lanes(&b, f.Result)
		if cmd := r.ReplayCommand(f); cmd != "" {
			fmt.Fprintf(&b, "<p>Replay: <code>%s</code></p>\n", html.EscapeString(cmd))
		}
		b.WriteString("</section>\n")
	}
	for _, bug := range rep.Bugs {
		n++
		fmt.Fprintf(&b, "<section class=\"finding\" id=\"f%d\">\n<h2>Bug found: <code>%s</code></h2>\n<p>%s</p>\n", n, BugID(bug.Signature), html.EscapeString(r.Text(BugMessage(bug))))
		r.lanes(&b, bug.Result)
		if cmd := r.Replay(bug.Token, bug.PackageArg); cmd != "" {
			fmt.Fprintf(&b, "<p>Replay: <code>%s</code></p>\n", html.EscapeString(cmd))
		}
		b.WriteString("</section>\n")
	}
	var rest []*Finding
	for _, f := range rep.Findings {
		if f.Verdict != Confirmed {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		b.WriteString("<h2>Other warnings</h2>\n<table><tr><th>warning</th><th>verdict</th><th>why</th></tr>\n")
		for _, f := range rest {
			fmt.Fprintf(&b, "<tr><td><code>%s</code> %s</td><td>%s</td><td>%s</td></tr>\n",
				html.EscapeString(r.findingPosn(f)), html.EscapeString(r.Text(f.Warning.Message)),
				html.EscapeString(VerdictText(f)), html.EscapeString(r.Text(f.Cause)))
		}
		b.WriteString("</table>\n")
	}
	b.WriteString("</body></html>\n")
	return b.String()
}

// lanes writes the interleaving of res as swimlanes: a column per
// goroutine involved in the failure (every goroutine when it names none),
// a row per step, the blocked operations of a deadlock and the failure as
// marked rows at the end.
func (r Renderer) lanes(b *strings.Builder, res *runner.Result) {
	if res == nil || len(res.Trace) == 0 {
		return
	}
	involved := map[int]bool{}
	if res.Failure != nil {
		involved = res.Failure.Involved()
	}
	var steps []runner.Event
	var gs []int
	for _, ev := range res.Trace {
		if len(involved) > 0 && !involved[ev.G] || ev.Op == "start" {
			continue
		}
		steps = append(steps, ev)
		if !slices.Contains(gs, ev.G) {
			gs = append(gs, ev.G)
		}
	}
	for g := range involved {
		if !slices.Contains(gs, g) {
			gs = append(gs, g)
		}
	}
	slices.Sort(gs)
	if len(gs) == 0 {
		return
	}
	col := make(map[int]int, len(gs))
	for i, g := range gs {
		col[g] = i
	}
	fmt.Fprintf(b, "<div class=\"lanes\" style=\"grid-template-columns:repeat(%d,minmax(12em,1fr))\">\n", len(gs))
	for _, g := range gs {
		fmt.Fprintf(b, "<div class=\"lane-head\">%s</div>\n", html.EscapeString(r.goroutineLabel(res, g)))
	}
	if len(steps) > maxLaneSteps {
		fmt.Fprintf(b, "<div class=\"note\" style=\"grid-column:1/-1\">%d earlier steps</div>\n", len(steps)-maxLaneSteps)
		steps = steps[len(steps)-maxLaneSteps:]
	}
	cell := func(g int, class, content string) {
		for i := range gs {
			if i == col[g] {
				fmt.Fprintf(b, "<div class=\"%s\">%s</div>\n", class, content)
			} else {
				b.WriteString("<div class=\"empty\"></div>\n")
			}
		}
	}
	for _, ev := range steps {
		what := ev.Op
		if ev.Name != "" {
			what += " " + ev.Name
		}
		cell(ev.G, "step", fmt.Sprintf("%d %s %s", ev.Step, html.EscapeString(what), r.sourceLink(ev.File, ev.Line)))
	}
	if f := res.Failure; f != nil {
		for _, w := range f.Waits {
			if _, ok := col[w.G]; !ok {
				continue
			}
			what := "blocked: " + w.Op + " " + r.objectName(res, w.Object)
			if len(w.Holders) > 0 {
				what += fmt.Sprintf(", held by goroutine %d", w.Holders[0])
			}
			at := ""
			if len(w.Frames) > 0 {
				file, line := splitFrame(w.Frames[0])
				at = r.sourceLink(file, line)
			}
			cell(w.G, "step blocked", html.EscapeString(what)+" "+at)
		}
		fmt.Fprintf(b, "<div class=\"step fail\" style=\"grid-column:1/-1\">%s: %s</div>\n", html.EscapeString(f.Kind), html.EscapeString(firstLine(r.Text(f.Message))))
	}
	b.WriteString("</div>\n")
}

// sourceLink links file:line to the file (a file: URL with the line as
// fragment), showing it relative to the working directory.
func (r Renderer) sourceLink(file string, line int) string {
	if file == "" {
		return ""
	}
	text := r.Posn(file, line, 0)
	if !filepath.IsAbs(file) {
		return "<code>" + html.EscapeString(text) + "</code>"
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(file), Fragment: fmt.Sprintf("L%d", line)}
	return fmt.Sprintf("<a href=\"%s\">%s</a>", html.EscapeString(u.String()), html.EscapeString(text))
}

// splitFrame splits a "file:line" frame.
func splitFrame(frame string) (string, int) {
	file, line, ok := splitPosn(frame)
	if !ok {
		return frame, 0
	}
	return file, line
}
