package sequence_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/confirm-go/confirm/analyzers/lockorder"
	"github.com/confirm-go/confirm/analyzers/race"
	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
	"github.com/confirm-go/confirm/sequence"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

func TestZZE2E(t *testing.T) {
	root := os.Getenv("ZZ_ROOT")
	if root == "" {
		t.Skip()
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "*"))
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: dir, Tests: true}
		pkgs, err := packages.Load(cfg, ".")
		if err != nil {
			t.Logf("%s: %v", dir, err)
			continue
		}
		graph, err := checker.Analyze([]*analysis.Analyzer{lockorder.Analyzer, race.Analyzer}, pkgs, nil)
		if err != nil {
			t.Logf("%s: %v", dir, err)
			continue
		}
		prog, err := testselect.Load(context.Background(), dir, ".", nil)
		if err != nil {
			t.Logf("%s: Load: %v", dir, err)
			continue
		}
		seen := map[string]bool{}
		for _, act := range graph.Roots {
			res, ok := act.Result.(*warning.Result)
			if !ok {
				continue
			}
			for _, w := range res.Warnings {
				if seen[w.ID] {
					continue
				}
				seen[w.ID] = true
				cands, unreached := prog.Rank(w)
				test := ""
				if len(cands) > 0 {
					test = cands[0].Test
				}
				t.Logf("%s: %s %s\n   tests %v unreached %q", filepath.Base(dir), w.Kind, w.Message, cands, unreached)
				for i, s := range w.Sites {
					t.Logf("   site %d %s:%d:%d %s %s held=%q func=%s chain=%q", i, filepath.Base(s.Position.Filename), s.Position.Line, s.Position.Column, s.Access, s.Object, s.Held, s.Func, s.Chain)
				}
				seqs, err := sequence.Generate(w, prog, test)
				if err != nil {
					t.Logf("   ERROR %v", err)
					continue
				}
				for _, s := range seqs {
					for i, st := range s.Steps {
						t.Logf("     %s:%d:%d %s — %s", filepath.Base(st.File), st.Line, st.Col, st.Kind, s.Why[i])
					}
					t.Logf("     --")
				}
			}
		}
	}
}
