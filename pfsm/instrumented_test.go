package pfsm_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/confirm-go/confirm/confirm/instrument"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/pfsm"
)

// TestInstrumentedStacks runs the testdata/instrumented module under the
// instrumenter's rewrite (go test -overlay) and looks up the stacks it
// captured in the tables of its original source: the instrumented code's
// frames carry the original positions, the runtime's injected frames are
// skipped, and the wrapper literal of a go statement with arguments ends
// the spawned goroutine's walk.
func TestInstrumentedStacks(t *testing.T) {
	if testing.Short() {
		t.Skip("builds an instrumented test binary")
	}
	dir, err := filepath.Abs("testdata/instrumented")
	if err != nil {
		t.Fatal(err)
	}
	stacks := runInstrumented(t, dir)
	pkgs, err := pfsm.Load(dir, true, ".")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "e2e.go")
	lines := markers(t, file)
	d, err := pfsm.Build(pkgs, []pfsm.Target{{File: file, Line: lines["target"]}})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Compile(); err != nil {
		t.Fatal(err)
	}
	if len(stacks) != 3 {
		t.Fatalf("got %d stacks, want 3", len(stacks))
	}
	tests := []struct {
		name   string
		caller string // marker of the frame below Probe
		want   int32
	}{
		// Probe (End 10, +1), then Spawn after its Probe call: the go
		// statement 1, the receive 1, the second go statement 1, the
		// receive 1, and the call of target descends at 0.
		{"test goroutine", "s0", 15},
		// work cannot reach the target, and its goroutine does not return
		// into Spawn through the go statement's wrapper.
		{"go statement with arguments", "w", rt.Infinity},
		{"go statement of a literal", "lit", rt.Infinity},
	}
	for i, tt := range tests {
		s := stacks[i]
		if len(s) < 2 || s[1].Line != lines[tt.caller] {
			t.Fatalf("%s: stack %v, want Probe called at @%s", tt.name, s, tt.caller)
		}
		if got := d.Lookup(0, s); got != tt.want {
			t.Errorf("%s: Lookup = %d, want %d; stack %v", tt.name, got, tt.want, s)
		}
	}
	// The wrapper frame is there, at the go statement.
	if w := stacks[1][2]; w.Line != lines["go"] {
		t.Errorf("frame below work = %v, want the wrapper at @go (line %d)", w, lines["go"])
	}
}

// runInstrumented instruments the package in dir, runs its TestSpawn and
// returns the stacks it wrote.
func runInstrumented(t *testing.T, dir string) [][]rt.Frame {
	t.Helper()
	res, err := instrument.Instrument(context.Background(), instrument.Request{Dir: dir, Package: "."})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := res.Remove(); err != nil {
			t.Error(err)
		}
	}()
	out := filepath.Join(t.TempDir(), "stacks.json")
	args := append([]string{"test", "-count=1", "-run=^TestSpawn$"}, res.GoTestFlags()...)
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "STACKS_OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %v: %v\n%s", args, err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var stacks [][]rt.Frame
	if err := json.Unmarshal(data, &stacks); err != nil {
		t.Fatal(err)
	}
	return stacks
}
