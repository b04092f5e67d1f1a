package pfsm_test

import (
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"

	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/pfsm"
	"github.com/confirm-go/confirm/pfsm/internal/stackfixture"
)

// stackDistances builds the tables of stackfixture, whose code is also
// compiled into this test binary, for its @target line.
func stackDistances(t testing.TB) *rt.Distances {
	t.Helper()
	file, err := filepath.Abs("internal/stackfixture/stackfixture.go")
	if err != nil {
		t.Fatal(err)
	}
	pkgs, err := pfsm.Load(".", false, "./internal/stackfixture")
	if err != nil {
		t.Fatal(err)
	}
	d, err := pfsm.Build(pkgs, []pfsm.Target{{File: file, Line: markers(t, file)["target"]}})
	if err != nil {
		t.Fatal(err)
	}
	d, err = roundTrip(d)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// captureStack runs stackfixture.Outer and returns the stack captured
// inside its probe: the probe (this package, unknown to the tables),
// inner at @i0, Outer at @o0, then this test and the testing package.
func captureStack() []uintptr {
	var pcs []uintptr
	stackfixture.Outer(func() {
		pcs = make([]uintptr, 64)
		pcs = pcs[:runtime.Callers(1, pcs)]
	})
	return pcs
}

func framesOf(pcs []uintptr) []rt.Frame {
	var frames []rt.Frame
	it := runtime.CallersFrames(pcs)
	for {
		f, more := it.Next()
		frames = append(frames, rt.Frame{File: f.File, Line: f.Line, Func: f.Function})
		if !more {
			return frames
		}
	}
}

// TestFromPCs checks a real stack against the SSA of the same code: the
// probe's frame is skipped, inner cannot reach the target and returns
// (End 6: the probe call with an unknown callee 3, step 2, return 1, plus
// 1 for the return edge), and Outer's return site after inner is 2 from
// the target (step 2, then the call of Target descends at 0): 9.
func TestFromPCs(t *testing.T) {
	d := stackDistances(t)
	pcs := captureStack()
	const want = 9
	if got := d.Lookup(0, framesOf(pcs)); got != want {
		t.Errorf("Lookup(frames) = %d, want %d; frames:\n%v", got, want, framesOf(pcs))
	}
	for i := range 2 { // cold, then warm cache
		if got := d.FromPCs(0, pcs); got != want {
			t.Errorf("FromPCs #%d = %d, want %d", i, got, want)
		}
	}
	if got := d.FromPCs(1, pcs); got != rt.Infinity {
		t.Errorf("FromPCs(bad target) = %d, want Infinity", got)
	}
}

// TestFromFuncPC checks the distance of a goroutine about to run a func
// value: a declared function and a function literal of the fixture.
func TestFromFuncPC(t *testing.T) {
	d := stackDistances(t)
	tests := []struct {
		name string
		fn   any
		want int32
	}{
		{"Target", stackfixture.Target, 0},
		{"closure", stackfixture.Closure(), 2},
		{"Outer", stackfixture.Outer, 9},
		{"method value", stackfixture.T{}.Run, 2},
		{"outside the program", t.Helper, rt.Infinity},
	}
	for _, tt := range tests {
		pc := reflect.ValueOf(tt.fn).Pointer()
		for range 2 {
			if got := d.FromFuncPC(0, pc); got != tt.want {
				t.Errorf("FromFuncPC(%s) = %d, want %d", tt.name, got, tt.want)
			}
		}
	}
}

func TestFromPCsConcurrent(t *testing.T) {
	d := stackDistances(t)
	pcs := captureStack()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				if got := d.FromPCs(0, pcs); got != 9 {
					t.Errorf("FromPCs = %d, want 9", got)
					return
				}
			}
		}()
	}
	wg.Wait()
}
