package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/confirm-go/confirm/internal/longtest"
)

// TestRunDemo runs the whole pipeline on the README's example module: the
// AB-BA deadlock and the race are confirmed, the correct package gets no
// warning, and the JSON and SARIF forms hold what the schema promises.
func TestRunDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented tests")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Budget: 10 * time.Second, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	confirmed := make(map[string]bool)
	for _, f := range rep.Findings {
		if strings.Contains(f.Warning.Package, "ledger") {
			t.Errorf("warning in the correct package: %s", f.Warning.Message)
		}
		if f.Verdict == Confirmed {
			confirmed[string(f.Warning.Kind)] = true
			if f.Token == "" || f.Result == nil || len(f.Result.Trace) == 0 {
				t.Errorf("confirmed %s without token or trace", f.Warning.Kind)
			}
		}
	}
	for _, kind := range []string{"lock-order-cycle", "race"} {
		if !confirmed[kind] {
			t.Errorf("no %s confirmed; findings: %s", kind, describe(rep))
		}
	}

	r := Renderer{WD: dir, Command: "confirm"}
	data, err := json.Marshal(r.JSON(rep))
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(data, &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		for _, field := range []string{"id", "analyzer", "kind", "message", "posn", "sequence", "test", "verdict", "failure", "trace", "replay", "stats"} {
			if _, ok := o[field]; !ok {
				t.Errorf("JSON finding lacks %q: %s", field, data)
			}
		}
		if posn, _ := o["posn"].(string); strings.HasPrefix(posn, "/") {
			t.Errorf("posn %q is not relative to the working directory", posn)
		}
	}

	checkSARIF(t, r.SARIF(rep), len(rep.Findings))
}

// sarifSchema is the OASIS SARIF 2.1.0 JSON schema (errata 01), as
// published at docs.oasis-open.org (copied from gosec's test data).
const sarifSchema = "testdata/sarif-schema-2.1.0.json"

// validateSARIF validates the SARIF log data against the SARIF 2.1.0
// schema, as code-scanning uploads are.
func validateSARIF(t *testing.T, data []byte) {
	t.Helper()
	if err := sarifErr(t, data); err != nil {
		t.Errorf("the SARIF output does not validate against the SARIF 2.1.0 schema: %v", err)
	}
}

// TestSARIFSchema: the schema check rejects what code scanning would.
func TestSARIFSchema(t *testing.T) {
	bad := `{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"confirm"}},"results":[{"message":{"text":"m"},"level":"fatal"}]}]}`
	if sarifErr(t, []byte(bad)) == nil {
		t.Error("a result of level fatal validates")
	}
	good := strings.Replace(bad, `"fatal"`, `"error"`, 1)
	if err := sarifErr(t, []byte(good)); err != nil {
		t.Errorf("a minimal log does not validate: %v", err)
	}
}

// sarifErr returns why data does not validate against the schema.
func sarifErr(t *testing.T, data []byte) error {
	t.Helper()
	f, err := os.Open(sarifSchema)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatalf("compiling the SARIF schema: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return schema.Validate(inst)
}

// checkSARIF checks the structure of a SARIF log with n results, and that
// it validates against the SARIF 2.1.0 schema.
func checkSARIF(t *testing.T, log any, n int) {
	t.Helper()
	data, err := json.Marshal(log)
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, data)
	var s struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID string `json:"id"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Message   struct {
					Text string `json:"text"`
				} `json:"message"`
				CodeFlows []struct {
					ThreadFlows []struct {
						Locations []struct {
							ExecutionOrder int `json:"executionOrder"`
							Location       struct {
								PhysicalLocation *struct {
									ArtifactLocation struct {
										URI string `json:"uri"`
									} `json:"artifactLocation"`
								} `json:"physicalLocation"`
							} `json:"location"`
						} `json:"locations"`
					} `json:"threadFlows"`
				} `json:"codeFlows"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	if s.Version != "2.1.0" || len(s.Runs) != 1 || s.Runs[0].Tool.Driver.Name != "confirm" {
		t.Fatalf("SARIF header: version %q, %d runs", s.Version, len(s.Runs))
	}
	run := s.Runs[0]
	if len(run.Results) != n {
		t.Errorf("SARIF has %d results, want %d", len(run.Results), n)
	}
	flows := 0
	for _, res := range run.Results {
		if res.RuleIndex >= len(run.Tool.Driver.Rules) || run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("result rule %q index %d does not match the rules", res.RuleID, res.RuleIndex)
		}
		if res.Message.Text == "" {
			t.Error("result without message")
		}
		for _, cf := range res.CodeFlows {
			flows++
			if len(cf.ThreadFlows) == 0 {
				t.Error("codeFlow without threadFlows")
			}
			for _, tf := range cf.ThreadFlows {
				for _, l := range tf.Locations {
					if l.ExecutionOrder <= 0 {
						t.Errorf("threadFlow location with executionOrder %d", l.ExecutionOrder)
					}
					if pl := l.Location.PhysicalLocation; pl != nil && strings.HasPrefix(pl.ArtifactLocation.URI, "/") {
						t.Errorf("artifact URI %q is an absolute path, not relative to %%SRCROOT%%", pl.ArtifactLocation.URI)
					}
				}
			}
		}
		if res.Level == "error" && len(res.CodeFlows) == 0 {
			t.Errorf("confirmed result %q without codeFlow", res.Message.Text)
		}
	}
	if flows == 0 {
		t.Error("no codeFlows")
	}
}

func describe(rep *Report) string {
	var b strings.Builder
	for _, f := range rep.Findings {
		b.WriteString("\n\t" + string(f.Warning.Kind) + " " + f.Verdict + " " + f.Cause)
	}
	return b.String()
}

// TestRunStrategies confirms the demo's AB-BA deadlock with every
// strategy and secondary heuristic the command line offers.
func TestRunStrategies(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented tests")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ strategy, heuristic string }{
		{"random", ""}, {"pct", ""}, {"meta", "random"}, {"meta", "prefer"},
	}
	for _, tt := range tests {
		t.Run(tt.strategy+"/"+tt.heuristic, func(t *testing.T) {
			if tt.strategy == "pct" || tt.heuristic == "random" {
				// Package runner finds the fixtures' bugs with pct, and
				// package rt tests meta's heuristics.
				longtest.Skip(t, "the default strategy and random show the option reaches the search")
			}
			rep, err := Run(context.Background(), Options{
				Dir: dir, Patterns: []string{"./bank"}, Budget: 10 * time.Second, Seed: 1,
				Strategy: tt.strategy, Heuristic: tt.heuristic,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) != 1 || rep.Findings[0].Verdict != Confirmed {
				t.Errorf("want the AB-BA cycle confirmed; findings:%s", describe(rep))
			}
		})
	}
}

// TestAnalyzeExternalTests: the warnings of an external test package
// (package tally_test) carry the package's import path, as those of its
// internal tests do.
func TestAnalyzeExternalTests(t *testing.T) {
	ws, errs, err := Analyze(Options{Dir: filepath.Join("..", "..", "testdata", "explore"), Patterns: []string{"./tally"}})
	if err != nil || len(errs) > 0 {
		t.Fatalf("Analyze: %v %v", err, errs)
	}
	external := 0
	for _, w := range ws {
		if w.Package != "example.com/explore/tally" {
			t.Errorf("warning %s at %s: package %s, want example.com/explore/tally", w.ID, w.Sites[0].Position, w.Package)
		}
		if strings.HasSuffix(w.Sites[0].Position.Filename, "tally_ext_test.go") {
			external++
		}
	}
	if external == 0 {
		t.Errorf("no warning in the external test file; warnings: %d", len(ws))
	}
}

// TestRunRealSync: a lock-order warning whose search explores every
// schedule, in a package whose file mutex keeps its real sync type (it is
// passed to a dependency that needs a *sync.Mutex), is not said to have
// had every schedule explored: the cause names the mutex the scheduler
// does not control (so does that of its synthesized tests), and the report
// and the JSON carry the package's notes.
func TestRunRealSync(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented tests")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "realsync"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Budget: 5 * time.Second, Seed: 1, Synthesize: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || rep.Findings[0].Verdict != Unconfirmed {
		t.Fatalf("want one unconfirmed warning; findings:%s", describe(rep))
	}
	// Neither the search with the package's test nor the one with the
	// synthesized tests claims every schedule.
	cause := rep.Findings[0].Cause
	if strings.Contains(cause, "every schedule of ") ||
		!strings.Contains(cause, "every schedule Confirm controls of TestMove was explored") ||
		!strings.Contains(cause, "journal.go:35:12: fileMu keeps its real sync type") {
		t.Errorf("cause %q does not say that the real fileMu was not controlled", cause)
	}
	const pkg = "example.com/realsync/journal"
	found := false
	for _, n := range rep.Notes {
		if n.Package == pkg && n.Uncontrolled && strings.Contains(n.Message, "fileMu keeps its real sync type") {
			found = true
		}
	}
	if !found {
		t.Errorf("Report.Notes lack the uncontrolled fileMu of %s: %+v", pkg, rep.Notes)
	}
	js := Renderer{WD: dir}.JSON(rep)
	if len(js) != 1 || len(js[0].Notes) == 0 || !strings.HasPrefix(js[0].Notes[0], "journal/journal.go:35:12: fileMu keeps") {
		t.Errorf("the JSON finding's notes are not the package's, relative to the working directory: %+v", js)
	}
}
