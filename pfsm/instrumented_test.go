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
	if len(stacks) != 4 {
		t.Fatalf("got %d stacks, want 4", len(stacks))
	}
	tests := []struct {
		name      string
		caller    string // marker of the frame below Probe
		want      int32
		wantStart int32 // LookupStart of the goroutine's start function
	}{
		// Probe (End 10, +1), then Spawn after its Probe call: the go
		// statement 1, the receive 1, the second go statement 1, the
		// receive 1, the third go statement 1, the receive 1, and the
		// call of target descends at 0.
		{"test goroutine", "s0", 17, -1 /* not started by a go statement */},
		// work cannot reach the target, and its goroutine does not return
		// into Spawn through the go statement's wrapper.
		{"go statement with arguments", "w", rt.Infinity, rt.Infinity},
		{"go statement of a literal", "lit", rt.Infinity, rt.Infinity},
		// reach calls target after Probe; its goroutine starts in the
		// wrapper, whose go statement starts reach: 1 + Probe 10.
		{"go statement reaching the target", "r", 11, 11},
	}
	for i, tt := range tests {
		s := stacks[i]
		if len(s.Frames) < 2 || s.Frames[1].Line != lines[tt.caller] {
			t.Fatalf("%s: stack %v, want Probe called at @%s", tt.name, s.Frames, tt.caller)
		}
		if got := d.Lookup(0, s.Frames); got != tt.want {
			t.Errorf("%s: Lookup = %d, want %d; stack %v", tt.name, got, tt.want, s.Frames)
		}
		if i > 0 { // the test goroutine was not started by a go statement
			if got := d.LookupStart(0, s.Start); got != tt.wantStart {
				t.Errorf("%s: LookupStart(%v) = %d, want %d", tt.name, s.Start, got, tt.wantStart)
			}
		}
	}
	// The wrapper frame is there, at the go statement.
	if w := stacks[1].Frames[2]; w.Line != lines["go"] {
		t.Errorf("frame below work = %v, want the wrapper at @go (line %d)", w, lines["go"])
	}
}

// An instrumentedStack is a stack the fixture captured.
type instrumentedStack struct {
	Frames []rt.Frame
	// Start is the entry of the goroutine's outermost fixture function.
	Start rt.Frame
}

// runInstrumented instruments the package in dir, runs its TestSpawn and
// returns the stacks it wrote.
func runInstrumented(t *testing.T, dir string) []instrumentedStack {
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
	var stacks []instrumentedStack
	if err := json.Unmarshal(data, &stacks); err != nil {
		t.Fatal(err)
	}
	return stacks
}
