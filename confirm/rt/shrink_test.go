package rt

import (
	"testing"
	"unsafe"
)

// TestShrinkSteps: a race found while a goroutine it does not involve
// kept running is reported without that goroutine's steps before it, and
// the shrunk token replays to the same race.
func TestShrinkSteps(t *testing.T) {
	var x int
	locs := []Location{{File: "x.go", Line: 1, Kind: "write", Label: "x"}, {File: "x.go", Line: 2, Kind: "read", Label: "x"}}
	body := func(t *testing.T) {
		var wg WaitGroup
		var other Mutex
		wg.Go(func() { // not involved in the race
			for range 30 {
				other.Lock()
				Gosched()
				other.Unlock()
			}
		})
		wg.Go(func() { Write(unsafe.Pointer(&x), 0); x++ })
		wg.Go(func() { Read(unsafe.Pointer(&x), 1); _ = x })
		wg.Wait()
	}
	for _, seed := range []int64{3, 5, 9} {
		res := search(t, Config{Strategy: "random", Seed: seed, MaxExecs: 300, Locations: locs}, body)
		if res.Verdict != VerdictError || res.Failure.Kind != FailRace {
			t.Fatalf("seed %d: verdict %q failure %+v", seed, res.Verdict, res.Failure)
		}
		noisy := 0
		for _, ev := range res.Trace {
			if ev.G == 1 {
				noisy++
			}
		}
		if noisy > 1 { // at most its start
			t.Errorf("seed %d: the uninvolved goroutine has %d steps in the trace (%d steps, %d preemptions, shrunk from %d)",
				seed, noisy, len(res.Trace), res.Stats.Preemptions, res.Stats.ShrunkFrom)
		}
		rep := search(t, Config{Strategy: "replay", Replay: res.Token, Locations: locs}, body)
		if rep.Verdict != VerdictError || rep.Failure.Kind != FailRace || !sameTrace(rep.Trace, res.Trace) {
			t.Fatalf("seed %d: replay verdict %q failure %+v divergence %q", seed, rep.Verdict, rep.Failure, rep.Divergence)
		}
	}
}
