package instrument

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
)

// TestUnderControl runs instrumented tests under the runtime's scheduler:
// the AB-BA deadlock, reached through a range over a channel, a select and
// a WaitGroup, must be found, and so must a data race on a field; its fixed twin and the correct tests of the
// basic fixture (every rewrite, with all accesses instrumented) must not
// report an error.
func TestUnderControl(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test under the controlled scheduler")
	}
	controlled := instrumentFixture(t, "testdata/controlled", ".", Request{Accesses: true})
	basic := instrumentFixture(t, "testdata/basic", ".", Request{Accesses: true})
	tests := []struct {
		res                 *Result
		test, verdict, kind string
		execs               int
	}{
		{controlled, "TestDeadlock", "error", rt.FailDeadlock, 300},
		{controlled, "TestOrdered", "none", "", 300},
		{controlled, "TestRace", "error", rt.FailRace, 300},
		{basic, "TestAccount", "none", "", 30},
		{basic, "TestChannels", "none", "", 30},
		{basic, "TestSpawn", "none", "", 30},
		{basic, "TestTricky", "none", "", 30},
		{basic, "TestExternal", "none", "", 30},
	}
	for _, tt := range tests {
		res, dir := tt.res, tt.res.PkgDir
		t.Run(tt.test, func(t *testing.T) {
			tmp := t.TempDir()
			cfg := rt.Config{
				Test: tt.test, Strategy: "random", Seed: 1, MaxExecs: tt.execs, BudgetMillis: 60000,
				ResultFile: filepath.Join(tmp, "result.json"), Locations: res.Locations,
			}
			data, err := json.Marshal(cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfgFile := filepath.Join(tmp, "config.json")
			if err := os.WriteFile(cfgFile, data, 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"test", "-count=1", "-run", "^" + tt.test + "$"}, res.GoTestFlags()...)
			cmd := exec.Command("go", append(args, res.ImportPath)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), rt.EnvConfig+"="+cfgFile)
			out, _ := cmd.CombinedOutput() // a confirmed error may fail the test
			data, err = os.ReadFile(cfg.ResultFile)
			if err != nil {
				t.Fatalf("no result (%v):\n%s", err, out)
			}
			var r rt.Result
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatalf("result: %v\n%s", err, data)
			}
			if r.Verdict != tt.verdict || tt.kind != "" && (r.Failure == nil || r.Failure.Kind != tt.kind) {
				t.Fatalf("verdict %q (%+v) after %d executions, want %q %s\n%s", r.Verdict, r.Failure, r.Stats.Executions, tt.verdict, tt.kind, out)
			}
			t.Logf("%s: verdict %s after %d executions, %d steps", tt.test, r.Verdict, r.Stats.Executions, r.Stats.Steps)
		})
	}
}
