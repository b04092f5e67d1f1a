package instrument

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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
		{controlled, "TestSubtestRace", "error", rt.FailRace, 300},
		{basic, "TestAccount", "none", "", 30},
		{basic, "TestChannels", "none", "", 30},
		{basic, "TestSpawn", "none", "", 30},
		{basic, "TestTricky", "none", "", 30},
		{basic, "TestSubtests", "none", "", 30},
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
			checkTraceLines(t, r.Trace)
		})
	}
}

// opText is text the source line of a traced operation must contain.
var opText = map[string][]string{
	"lock": {"Lock()"}, "unlock": {"Unlock()"}, "rlock": {"RLock()"}, "runlock": {"RUnlock()"},
	"send": {"<-"}, "recv": {"<-", "range"}, "close": {"close("}, "select": {"select"},
	"go": {"go ", ".Run("}, "wg.add": {"Add("}, "wg.wait": {"Wait()"},
}

// checkTraceLines checks that the file:line of every traced operation is
// the user's line of that operation.
func checkTraceLines(t *testing.T, trace []rt.Event) {
	t.Helper()
	files := make(map[string][]string)
	checked := 0
	for _, ev := range trace {
		want, ok := opText[ev.Op]
		if !ok || ev.File == "" {
			continue
		}
		lines, ok := files[ev.File]
		if !ok {
			src, err := os.ReadFile(ev.File)
			if err != nil {
				t.Fatalf("trace names %s: %v", ev.File, err)
			}
			lines = strings.Split(string(src), "\n")
			files[ev.File] = lines
		}
		if ev.Line < 1 || ev.Line > len(lines) {
			t.Errorf("%s at %s:%d: no such line", ev.Op, ev.File, ev.Line)
			continue
		}
		found := false
		for _, w := range want {
			found = found || strings.Contains(lines[ev.Line-1], w)
		}
		if !found {
			t.Errorf("%s at %s:%d, but the line is %q", ev.Op, filepath.Base(ev.File), ev.Line, lines[ev.Line-1])
		}
		checked++
	}
	if len(trace) > 0 && checked == 0 {
		t.Errorf("no traced operation with a position among %d events", len(trace))
	}
}
