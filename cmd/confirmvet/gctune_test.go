package main

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		live, slack uint64
		want        int
	}{
		{0, 64 * mib, maxGCPercent},         // before the first collection: as if 4 MiB were live (1600, capped)
		{16 * mib, 64 * mib, 400},           // goal 80 MiB
		{40 * mib, 64 * mib, 160},           // goal 104 MiB
		{64 * mib, 64 * mib, 100},           // the default from here on
		{400 * mib, 64 * mib, 100},          // a large unit
		{1 * mib, 1024 * mib, maxGCPercent}, // capped
	}
	for _, tt := range tests {
		if got := gcPercent(tt.live, tt.slack); got != tt.want {
			t.Errorf("gcPercent(%d MiB, %d MiB) = %d, want %d", tt.live/mib, tt.slack/mib, got, tt.want)
		}
	}
}

// TestTuneGC checks that the target is set again after collections: a
// GOGC changed behind tuneGC's back is put back by the next one.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	old := debug.SetGCPercent(100)
	stop := tuneGC(gcSlack)
	t.Cleanup(func() {
		stop()
		debug.SetGCPercent(old)
	})
	debug.SetGCPercent(100)
	for i := 0; i < 3; i++ {
		runtime.GC() // the sentinel is found unreachable, its finalizer queued
		runtime.Gosched()
	}
	for i := 0; i < 100; i++ {
		if got := debug.SetGCPercent(100); got != 100 {
			return // reset by the finalizer to the tuned target
		}
		runtime.GC()
		runtime.Gosched()
	}
	t.Error("GOGC is still 100 after 100 collections: tuneGC's finalizer never ran")
}
