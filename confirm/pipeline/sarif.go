package pipeline

import (
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/confirm-go/confirm/confirm/runner"
)

// SARIF types: the subset of SARIF 2.1.0 confirm writes.
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool               sarifTool                   `json:"tool"`
		OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
		Results            []sarifResult               `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		InformationURI string      `json:"informationUri,omitempty"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID               string       `json:"id"`
		ShortDescription sarifMessage `json:"shortDescription"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations,omitempty"`
		RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
		CodeFlows           []sarifCodeFlow   `json:"codeFlows,omitempty"`
		PartialFingerprints map[string]string `json:"partialFingerprints,omitempty"`
		Properties          map[string]any    `json:"properties,omitempty"`
	}
	sarifLocation struct {
		ID               *int                   `json:"id,omitempty"`
		PhysicalLocation *sarifPhysicalLocation `json:"physicalLocation,omitempty"`
		Message          *sarifMessage          `json:"message,omitempty"`
	}
	sarifPhysicalLocation struct {
		ArtifactLocation sarifArtifactLoc `json:"artifactLocation"`
		Region           *sarifRegion     `json:"region,omitempty"`
	}
	sarifArtifactLoc struct {
		URI       string `json:"uri"`
		URIBaseID string `json:"uriBaseId,omitempty"`
	}
	sarifRegion struct {
		StartLine   int `json:"startLine"`
		StartColumn int `json:"startColumn,omitempty"`
	}
	sarifCodeFlow struct {
		Message     sarifMessage      `json:"message"`
		ThreadFlows []sarifThreadFlow `json:"threadFlows"`
	}
	sarifThreadFlow struct {
		ID        string                    `json:"id"`
		Message   sarifMessage              `json:"message"`
		Locations []sarifThreadFlowLocation `json:"locations"`
	}
	sarifThreadFlowLocation struct {
		Location       sarifLocation `json:"location"`
		ExecutionOrder int           `json:"executionOrder"`
	}
)

const srcRoot = "%SRCROOT%"

// SARIF returns the report as a SARIF 2.1.0 log. Each finding is a
// result whose rule is its warning kind; a confirmed warning is level
// "error" and carries its trace as a codeFlow with one threadFlow per
// goroutine, whose locations are ordered by step (executionOrder).
func (r Renderer) SARIF(rep *Report) any {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:           "confirm",
			InformationURI: "https://github.com/confirm-go/confirm",
		}},
		Results: []sarifResult{},
	}
	if r.WD != "" {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(r.WD) + "/"}
		run.OriginalURIBaseIDs = map[string]sarifArtifactLoc{srcRoot: {URI: u.String()}}
	}
	rules := make(map[string]int)
	rule := func(id, desc string) int {
		if i, ok := rules[id]; ok {
			return i
		}
		rules[id] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: id, ShortDescription: sarifMessage{Text: desc}})
		return rules[id]
	}
	for _, f := range rep.Findings {
		j := r.finding(f)
		id := j.Kind
		res := sarifResult{
			RuleID:    id,
			RuleIndex: rule(id, ruleDescription(id)),
			Level:     sarifLevel(f.Verdict),
			Message:   sarifMessage{Text: fmt.Sprintf("%s [%s]", j.Message, VerdictText(f))},
			Properties: map[string]any{
				"verdict": f.Verdict,
			},
		}
		if j.ID != "" {
			res.PartialFingerprints = map[string]string{"confirmWarningId/v1": j.ID}
		}
		if j.Test != "" {
			res.Properties["test"] = j.Test
		}
		if j.Replay != "" {
			res.Properties["replay"] = j.Replay
		}
		if j.Cause != "" {
			res.Properties["cause"] = j.Cause
		}
		if h := j.Synthesized; h != nil {
			res.Properties["synthesizedTest"] = h.Source
		}
		if len(f.Warning.Sites) > 0 {
			p := f.Warning.Sites[0].Position
			res.Locations = []sarifLocation{{PhysicalLocation: r.physical(p.Filename, p.Line, p.Column)}}
			for i, s := range f.Warning.Sites[1:] {
				id := i + 1
				res.RelatedLocations = append(res.RelatedLocations, sarifLocation{
					ID:               &id,
					PhysicalLocation: r.physical(s.Position.Filename, s.Position.Line, s.Position.Column),
					Message:          &sarifMessage{Text: s.Role},
				})
			}
		}
		if f.Result != nil && len(f.Result.Trace) > 0 {
			res.CodeFlows = []sarifCodeFlow{r.codeFlow(f)}
		}
		run.Results = append(run.Results, res)
	}
	for _, b := range rep.Bugs {
		j := r.bug(b)
		res := sarifResult{
			RuleID:              "bug",
			RuleIndex:           rule("bug", ruleDescription("bug")),
			Level:               "error",
			Message:             sarifMessage{Text: j.Message},
			PartialFingerprints: map[string]string{"confirmBugId/v1": j.ID},
			Properties:          map[string]any{"verdict": j.Verdict, "test": j.Test, "replay": j.Replay, "foundBy": j.FoundBy},
		}
		if file, line, ok := splitPosn(BugPosn(b)); ok {
			res.Locations = []sarifLocation{{PhysicalLocation: r.physical(file, line, 0)}}
		}
		if len(b.Result.Trace) > 0 {
			res.CodeFlows = []sarifCodeFlow{r.codeFlowOf(b.Result, "the interleaving of the bug")}
		}
		run.Results = append(run.Results, res)
	}
	for _, e := range rep.PackageErrors {
		run.Results = append(run.Results, sarifResult{
			RuleID:     "build-error",
			RuleIndex:  rule("build-error", "the package does not compile"),
			Level:      "error",
			Message:    sarifMessage{Text: fmt.Sprintf("package %s does not compile:\n%s", e.Package, r.Text(e.Message))},
			Properties: map[string]any{"verdict": Error},
		})
	}
	if run.Tool.Driver.Rules == nil {
		run.Tool.Driver.Rules = []sarifRule{}
	}
	return sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	}
}

// codeFlow is the trace of f's result: one threadFlow per goroutine.
func (r Renderer) codeFlow(f *Finding) sarifCodeFlow {
	res := f.Result
	return r.codeFlowOf(res, "the interleaving that confirms the warning")
}

// codeFlowOf is the trace of res: one threadFlow per goroutine.
func (r Renderer) codeFlowOf(res *runner.Result, what string) sarifCodeFlow {
	byG := make(map[int][]runner.Event)
	for _, ev := range res.Trace {
		byG[ev.G] = append(byG[ev.G], ev)
	}
	gs := make([]int, 0, len(byG))
	for g := range byG {
		gs = append(gs, g)
	}
	sort.Ints(gs)
	if res.Failure != nil {
		what += ": " + firstLine(r.Text(res.Failure.Message))
	}
	cf := sarifCodeFlow{Message: sarifMessage{Text: what}}
	for _, g := range gs {
		tf := sarifThreadFlow{ID: fmt.Sprintf("goroutine %d", g), Message: sarifMessage{Text: r.goroutineText(res, g)}}
		for _, ev := range byG[g] {
			loc := sarifLocation{Message: &sarifMessage{Text: strings.TrimSpace(ev.Op + " " + ev.Name)}}
			if ev.File != "" {
				loc.PhysicalLocation = r.physical(ev.File, ev.Line, 0)
			}
			tf.Locations = append(tf.Locations, sarifThreadFlowLocation{Location: loc, ExecutionOrder: ev.Step})
		}
		cf.ThreadFlows = append(cf.ThreadFlows, tf)
	}
	return cf
}

func (r Renderer) goroutineText(res *runner.Result, id int) string {
	if id == 0 {
		return "the test " + res.Test
	}
	for _, g := range res.Goroutines {
		if g.ID == id && g.File != "" {
			return fmt.Sprintf("spawned by goroutine %d at %s, runs %s", g.Parent, r.Posn(g.File, g.Line, 0), g.Func)
		}
	}
	return fmt.Sprintf("goroutine %d", id)
}

func (r Renderer) physical(file string, line, col int) *sarifPhysicalLocation {
	rel := r.Rel(file)
	loc := sarifArtifactLoc{URI: filepath.ToSlash(rel)}
	if !filepath.IsAbs(rel) && r.WD != "" {
		loc.URIBaseID = srcRoot
	} else {
		loc.URI = (&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String()
	}
	p := &sarifPhysicalLocation{ArtifactLocation: loc}
	if line > 0 {
		p.Region = &sarifRegion{StartLine: line, StartColumn: col}
	}
	return p
}

func sarifLevel(verdict string) string {
	switch verdict {
	case Confirmed:
		return "error"
	case Unconfirmed, Error:
		return "warning"
	}
	return "note"
}

func ruleDescription(kind string) string {
	switch kind {
	case "lock-order-cycle":
		return "locks acquired in opposite orders (possible AB-BA deadlock)"
	case "double-lock":
		return "a mutex locked again by the goroutine holding it"
	case "rwr-deadlock":
		return "a read lock taken recursively while a writer may wait"
	case "lock-leak":
		return "a lock still held on a return path"
	case "lock-channel-deadlock":
		return "a lock held across a channel operation whose peer needs the lock"
	case "race":
		return "a possible data race"
	case "sequence":
		return "a user-given sequence of key locations"
	case "bug":
		return "a concurrency bug found while searching for a warning's, with its interleaving"
	}
	return kind
}

// splitPosn splits "file:line".
func splitPosn(posn string) (string, int, bool) {
	i := strings.LastIndexByte(posn, ':')
	if i < 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(posn[i+1:])
	return posn[:i], line, err == nil
}

// VerdictText is the verdict of f in words, as the text report prints it.
func VerdictText(f *Finding) string {
	switch f.Verdict {
	case Confirmed:
		if f.Synthesized != nil {
			return "confirmed with a synthesized test"
		}
		return "confirmed"
	case Unconfirmed:
		return "not confirmed"
	case NoTest:
		return "no test reaches it"
	}
	return "error: " + f.Cause
}
