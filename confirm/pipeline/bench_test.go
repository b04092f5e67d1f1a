package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/runner"
)

// syntheticReport is a report of n confirmed races with traces of steps
// events each.
func syntheticReport(n, steps int) (*Report, []int, []rt.Location) {
	locs := []rt.Location{{File: "/w/p/a.go", Line: 10, Kind: "write"}, {File: "/w/p/a.go", Line: 20, Kind: "read"}}
	seq := []int{0, 1}
	rep := &Report{}
	for i := range n {
		w := &warning.Warning{
			ID: fmt.Sprint(i), Analyzer: "race", Kind: warning.Race, Message: "possible data race",
			Sites: []warning.Site{
				{Position: token.Position{Filename: "/w/p/a.go", Line: 10, Column: 2}, Access: warning.AccessWrite},
				{Position: token.Position{Filename: "/w/p/a.go", Line: 20, Column: 2}, Access: warning.AccessRead},
			},
		}
		res := &runner.Result{Verdict: rt.VerdictError, Failure: &rt.Failure{Kind: rt.FailRace,
			Message:  "data race: write at x (/w/p/a.go:10) by goroutine 1 and read at y (/w/p/a.go:20) by goroutine 2",
			Accesses: []rt.Access{{G: 1, Loc: 0, Write: true, Pos: "/w/p/a.go:10"}, {G: 2, Loc: 1, Pos: "/w/p/a.go:20"}}}}
		for s := range steps {
			res.Trace = append(res.Trace, runner.Event{Event: rt.Event{Step: s + 1, G: s % 3, Op: "lock", Object: 1, File: "/w/p/a.go", Line: 10 + s%20}, Name: "(*p.T).mu"})
		}
		rep.Findings = append(rep.Findings, &Finding{Warning: w, Verdict: Confirmed, Result: res, Token: "p1.x", PackageArg: "./p"})
	}
	return rep, seq, locs
}

// BenchmarkJudgeAndRender measures what the pipeline does per finding
// besides searching: judging consistency and rendering JSON and SARIF.
func BenchmarkJudgeAndRender(b *testing.B) {
	rep, seq, locs := syntheticReport(100, 1000)
	r := Renderer{WD: "/w", Command: "confirm"}
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range rep.Findings {
			if !Confirms(f.Warning, seq, locs, f.Result) {
				b.Fatal("not consistent")
			}
		}
		enc := json.NewEncoder(io.Discard)
		if err := enc.Encode(r.JSON(rep)); err != nil {
			b.Fatal(err)
		}
		if err := enc.Encode(r.SARIF(rep)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunDemo measures the whole pipeline (analysis, planning,
// builds, searches) on the README's example module.
func BenchmarkRunDemo(b *testing.B) {
	dir, err := filepath.Abs(filepath.Join("testdata", "demo"))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := Run(context.Background(), Options{Dir: dir, Patterns: []string{"./..."}, Budget: 10 * time.Second, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Counts()[Confirmed] != 2 {
			b.Fatalf("confirmed %d warnings, want 2", rep.Counts()[Confirmed])
		}
	}
}
