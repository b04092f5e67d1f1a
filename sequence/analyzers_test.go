package sequence_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/sequence"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// analyze runs the real analyzers on the fixture module in testdata/dir
// and returns their warnings, each once.
func analyze(t testing.TB, dir string) []*warning.Warning {
	t.Helper()
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: filepath.Join("testdata", dir), Tests: true}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		t.Fatal(err)
	}
	analyzers := []*analysis.Analyzer{lockorder.Analyzer, race.Analyzer}
	graph, err := checker.Analyze(analyzers, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []*warning.Warning
	seen := map[string]bool{}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Fatalf("%s: %v", act, act.Err)
		}
		res, ok := act.Result.(*warning.Result)
		if !ok {
			continue
		}
		for _, w := range res.Warnings {
			if !seen[w.ID] {
				seen[w.ID] = true
				out = append(out, w)
			}
		}
	}
	return out
}

// TestGenerateFromAnalyzers feeds the warnings of the real analyzers on
// the fixtures to Select and Generate. A warning is identified by its
// kind and the file:line of its primary site.
func TestGenerateFromAnalyzers(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the standard library from source")
	}
	want := map[string][]string{
		"lock-order-cycle abba.go:14":         {"abba.go:14:2", "abba.go:23:2", "abba.go:15:2", "abba.go:24:2"},
		"lock-order-cycle nest.go:12":         {"nest.go:12:2", "nest.go:12:2", "nest.go:14:2", "nest.go:14:2"},
		"double-lock double.go:12":            {"double.go:12:2", "double.go:14:5"},
		"rwr-deadlock rwr.go:13":              {"rwr.go:13:2", "rwr.go:25:2", "rwr.go:15:17"},
		"rwr-deadlock local.go:15":            {"local.go:15:2", "local.go:11:3", "local.go:16:2"},
		"double-lock double.go:29":            {"double.go:29:2", "double.go:31:2"},
		"lock-channel-deadlock mailbox.go:21": {"mailbox.go:21:2", "mailbox.go:22:8", "mailbox.go:15:2"},
		"lock-order-cycle cycle3.go:9": {
			"cycle3.go:9:2", "cycle3.go:16:2", "cycle3.go:23:2", "cycle3.go:10:2", "cycle3.go:17:2", "cycle3.go:24:2",
		},
		"race captured.go:10": {
			"races_test.go:78:2", "captured.go:8:2", "captured.go:14:2", "captured.go:10:4(write)", "captured.go:15:9(read)",
		},
		"race tally.go:11": {
			"races_test.go:65:2", "races_test.go:67:3", "tally.go:11:2(write)",
			"races_test.go:69:2", "races_test.go:71:3", "tally.go:7:2(write)",
		},
		"race loop.go:17": {"races_test.go:37:2", "loop.go:10:2", "loop.go:17:4(write)", "races_test.go:40:6", "loop.go:23:9(read)"},
		"race guard.go:20": {
			"guard.go:11:2", "races_test.go:12:2", "races_test.go:13:3", "guard.go:20:3(write)",
			"races_test.go:16:6", "guard.go:25:9(read)",
		},
		"race chain.go:12": {
			"races_test.go:25:2", "chain.go:32:2", "races_test.go:28:3", "chain.go:27:3",
			"chain.go:17:3", "chain.go:12:2(write)", "races_test.go:30:6", "chain.go:36:9(read)",
		},
	}
	found := map[string]bool{}
	for _, dir := range []string{"locks", "races"} {
		f := load(t, dir)
		for _, w := range analyze(t, dir) {
			key := fmt.Sprintf("%s %s:%d", w.Kind, filepath.Base(w.Sites[0].Position.Filename), w.Sites[0].Position.Line)
			tests, unreached := f.prog.Select(w)
			if len(tests) == 0 {
				t.Errorf("%s: no test selected; unreached %q", key, unreached)
				continue
			}
			seqs, err := sequence.Generate(w, f.prog, tests[0])
			if err != nil {
				t.Errorf("%s: Generate: %v", key, err)
				continue
			}
			got := f.steps(t, seqs[0])
			t.Logf("%s (%s) with %s: %q", key, w.Message, tests[0], got)
			if steps, ok := want[key]; ok {
				found[key] = true
				if !reflect.DeepEqual(got, steps) {
					t.Errorf("%s: steps\n got %q\nwant %q", key, got, steps)
				}
			}
		}
	}
	for key := range want {
		if !found[key] {
			t.Errorf("the analyzers reported no warning %s", key)
		}
	}
}
