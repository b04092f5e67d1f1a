package pipeline

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/confirm-go/confirm/confirm/runner"
)

// maxDiagramSteps bounds the steps a sequence diagram shows: the last
// ones, which end in the failure.
const maxDiagramSteps = 40

// Markdown returns the report for a code-review page: one section per
// confirmed warning and per bug found, with the verdict, a Mermaid
// sequence diagram of the interleaving (GitHub renders it in a comment)
// and the replay command; then a table of the other warnings and their
// verdicts.
func (r Renderer) Markdown(rep *Report) string {
	var b strings.Builder
	c := rep.Counts()
	fmt.Fprintf(&b, "## Confirm: %d confirmed, %d bugs found\n\n", c[Confirmed], len(rep.Bugs))
	fmt.Fprintf(&b, "%s.\n", summaryLine(rep))
	for _, f := range rep.Findings {
		if f.Verdict != Confirmed || f.Result == nil {
			continue
		}
		w := f.Warning
		fmt.Fprintf(&b, "\n### %s at `%s`\n\n", w.Kind, r.findingPosn(f))
		fmt.Fprintf(&b, "> %s\n\n", mdText(r.Text(w.Message)))
		fmt.Fprintf(&b, "**%s** (test `%s`).", capitalize(VerdictText(f)), f.Test)
		if f.Result.Failure != nil {
			fmt.Fprintf(&b, " %s.", mdText(firstLine(r.Text(f.Result.Failure.Message))))
		}
		b.WriteString("\n")
		if h := f.Synthesized; h != nil {
			fmt.Fprintf(&b, "\n<details><summary>The test Confirm wrote (it exists only in the build overlay)</summary>\n\n```go\n%s```\n\n</details>\n", h.Source)
		}
		r.diagram(&b, f.Result)
		if cmd := r.ReplayCommand(f); cmd != "" {
			fmt.Fprintf(&b, "\nReplay: `%s`\n", cmd)
		}
	}
	for _, bug := range rep.Bugs {
		fmt.Fprintf(&b, "\n### Bug found: `%s`\n\n", BugID(bug.Signature))
		fmt.Fprintf(&b, "> %s\n\n", mdText(r.Text(BugMessage(bug))))
		if p := BugPosn(bug); p != "" {
			fmt.Fprintf(&b, "At `%s`. ", r.Text(p))
		}
		fmt.Fprintf(&b, "Found by %s.\n", strings.Join(bug.FoundBy, ", "))
		r.diagram(&b, bug.Result)
		if cmd := r.Replay(bug.Token, bug.PackageArg); cmd != "" {
			fmt.Fprintf(&b, "\nReplay: `%s`\n", cmd)
		}
	}
	var rest []*Finding
	for _, f := range rep.Findings {
		if f.Verdict != Confirmed {
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 {
		b.WriteString("\n### Other warnings\n\n| warning | verdict | why |\n|---|---|---|\n")
		for _, f := range rest {
			why := f.Cause
			if f.Verdict == Error {
				why = ""
			}
			fmt.Fprintf(&b, "| `%s` %s | %s | %s |\n", r.findingPosn(f), mdCell(r.Text(f.Warning.Message)), mdCell(VerdictText(f)), mdCell(r.Text(why)))
		}
	}
	for _, e := range rep.PackageErrors {
		fmt.Fprintf(&b, "\nPackage `%s` could not be checked:\n\n```\n%s\n```\n", e.Package, r.Text(e.Message))
	}
	return b.String()
}

// diagram writes the interleaving of res as a Mermaid sequence diagram:
// one participant per goroutine involved in the failure (all, when the
// failure names none), the synchronization operations as notes over the
// goroutine that ran them, a go statement as a message to the goroutine
// it starts, and the failure highlighted at the end.
func (r Renderer) diagram(b *strings.Builder, res *runner.Result) {
	if res == nil || len(res.Trace) == 0 {
		return
	}
	involved := map[int]bool{}
	if res.Failure != nil {
		involved = res.Failure.Involved()
	}
	in := func(g int) bool { return len(involved) == 0 || involved[g] }
	var steps []runner.Event
	for _, ev := range res.Trace {
		if !in(ev.G) || ev.Op == "observe" || ev.Op == "start" {
			continue
		}
		if ev.Op == "go" && !in(ev.Choice) && ev.Choice != 0 {
			continue
		}
		steps = append(steps, ev)
	}
	skipped := 0
	if len(steps) > maxDiagramSteps {
		skipped = len(steps) - maxDiagramSteps
		steps = steps[skipped:]
	}
	var gs []int
	for _, ev := range steps {
		if !slices.Contains(gs, ev.G) {
			gs = append(gs, ev.G)
		}
		if ev.Op == "go" && ev.Choice != 0 && !slices.Contains(gs, ev.Choice) {
			gs = append(gs, ev.Choice)
		}
	}
	slices.Sort(gs)
	b.WriteString("\n```mermaid\nsequenceDiagram\n")
	for _, g := range gs {
		fmt.Fprintf(b, "    participant G%d as %s\n", g, mdLabel(r.goroutineLabel(res, g)))
	}
	if skipped > 0 {
		fmt.Fprintf(b, "    Note over G%d,G%d: %d earlier steps\n", gs[0], gs[len(gs)-1], skipped)
	}
	for _, ev := range steps {
		at := ""
		if ev.File != "" {
			at = fmt.Sprintf(" at %s:%d", path.Base(ev.File), ev.Line)
		}
		what := ev.Op
		if ev.Name != "" {
			what += " " + ev.Name
		}
		if ev.Op == "go" && ev.Choice != 0 {
			fmt.Fprintf(b, "    G%d->>G%d: %d go%s\n", ev.G, ev.Choice, ev.Step, mdLabel(at))
			continue
		}
		fmt.Fprintf(b, "    Note over G%d: %d %s\n", ev.G, ev.Step, mdLabel(what+at))
	}
	if f := res.Failure; f != nil && len(gs) > 0 {
		b.WriteString("    rect rgb(255, 210, 210)\n")
		// The blocked operations, which the trace does not hold: a
		// waiter's arrow points at the holder of what it waits for.
		for _, w := range f.Waits {
			if !slices.Contains(gs, w.G) {
				continue
			}
			at := ""
			if len(w.Frames) > 0 {
				at = " at " + path.Base(w.Frames[0])
			}
			what := w.Op + " " + r.objectName(res, w.Object)
			switch {
			case len(w.Holders) == 1 && slices.Contains(gs, w.Holders[0]):
				fmt.Fprintf(b, "    G%d-->>G%d: blocked: %s, held by goroutine %d%s\n", w.G, w.Holders[0], mdLabel(what), w.Holders[0], mdLabel(at))
			default:
				fmt.Fprintf(b, "    Note over G%d: blocked: %s\n", w.G, mdLabel(what+at))
			}
		}
		fmt.Fprintf(b, "    Note over G%d,G%d: %s: %s\n    end\n", gs[0], gs[len(gs)-1], f.Kind, mdLabel(firstLine(r.Text(f.Message))))
	}
	b.WriteString("```\n")
}

// objectName names object id of res as its trace does.
func (r Renderer) objectName(res *runner.Result, id int) string {
	for _, ev := range res.Trace {
		if ev.Object == id && ev.Name != "" {
			return ev.Name
		}
	}
	return fmt.Sprintf("object %d", id)
}

// goroutineLabel names goroutine g of res: "goroutine 1 (abba.Transfer)".
func (r Renderer) goroutineLabel(res *runner.Result, g int) string {
	if g == 0 {
		return fmt.Sprintf("goroutine 0 (%s)", res.Test)
	}
	for _, gr := range res.Goroutines {
		if gr.ID == g && gr.Func != "" {
			return fmt.Sprintf("goroutine %d (%s)", g, ShortFunc(gr.Func))
		}
	}
	return fmt.Sprintf("goroutine %d", g)
}

// findingPosn is the primary position of f, relative to the working
// directory.
func (r Renderer) findingPosn(f *Finding) string {
	if len(f.Warning.Sites) == 0 {
		return ""
	}
	p := f.Warning.Sites[0].Position
	return r.Posn(p.Filename, p.Line, p.Column)
}

// summaryLine says how many warnings got which verdict.
func summaryLine(rep *Report) string {
	c := rep.Counts()
	return fmt.Sprintf("%d warnings: %d confirmed, %d not confirmed, %d without a test, %d errors",
		len(rep.Findings), c[Confirmed], c[Unconfirmed], c[NoTest], c[Error])
}

// mdLabel makes s safe in a Mermaid label: no line breaks, semicolons,
// colons after the first, or characters Mermaid takes for syntax.
func mdLabel(s string) string {
	return strings.NewReplacer("\n", " ", ";", ",", "#", "no. ", "<", "‹", ">", "›", "{", "(", "}", ")").Replace(s)
}

// mdText makes s one line of Markdown text.
func mdText(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// mdCell makes s safe in a Markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(mdText(s), "|", "\\|") }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ShortFunc drops the package path of a function name:
// "example.com/bank/abba.Transfer" -> "abba.Transfer". A major version
// suffix is no package name: "github.com/panjf2000/ants/v2.(*Pool).Tune"
// -> "ants.(*Pool).Tune", and its external test package is "ants_test".
func ShortFunc(fn string) string {
	i := strings.LastIndexByte(fn, '/')
	if i < 0 {
		return fn
	}
	rest := fn[i+1:]
	dot := strings.IndexByte(rest+".", '.')
	elem, test := strings.CutSuffix(rest[:dot], "_test")
	if j := strings.LastIndexByte(fn[:i], '/'); j >= 0 && majorVersion(elem) {
		name := fn[j+1 : i]
		if test {
			name += "_test"
		}
		return name + rest[dot:]
	}
	return rest
}

// majorVersion reports whether a path element is a major version suffix
// ("v2", "v10").
func majorVersion(elem string) bool {
	if len(elem) < 2 || elem[0] != 'v' || elem[1] == '0' || elem == "v1" {
		return false
	}
	for _, c := range elem[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
