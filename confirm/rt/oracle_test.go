package rt

import (
	"strings"
	"testing"
)

// abba locks two mutexes in opposite orders in two goroutines; with
// ordered set, both use the same order (the correct twin).
func abba(ordered bool) func(*testing.T) {
	return func(t *testing.T) {
		var a, b Mutex
		shared := 0
		var wg WaitGroup
		wg.Add(2)
		Go(func() {
			defer wg.Done()
			a.Lock()
			b.Lock()
			shared++
			b.Unlock()
			a.Unlock()
		})
		Go(func() {
			defer wg.Done()
			first, second := &b, &a
			if ordered {
				first, second = &a, &b
			}
			first.Lock()
			second.Lock()
			shared++
			second.Unlock()
			first.Unlock()
		})
		wg.Wait()
	}
}

func TestDeadlockABBA(t *testing.T) {
	body := abba(false)
	res := runSearch(t, &Config{Strategy: "random", Seed: 7, MaxExecs: 200}, body)
	if res.Verdict != VerdictError || res.Failure.Kind != FailDeadlock {
		t.Fatalf("got verdict %q failure %+v, want deadlock", res.Verdict, res.Failure)
	}
	if !strings.Contains(res.Failure.Message, "cycle") && !strings.Contains(res.Failure.Message, "blocked") {
		t.Errorf("message %q", res.Failure.Message)
	}
	if len(res.Failure.Goroutines) != 2 {
		t.Errorf("goroutines %v, want the two lockers", res.Failure.Goroutines)
	}
	t.Logf("found after %d executions: %s\ntoken %s", res.Stats.Executions, res.Failure.Message, res.Token)
	for i := range 10 {
		rep := runSearch(t, &Config{Strategy: "replay", Replay: res.Token}, body)
		if rep.Verdict != VerdictError || rep.Failure.Kind != FailDeadlock {
			t.Fatalf("replay %d: verdict %q failure %+v divergence %q", i, rep.Verdict, rep.Failure, rep.Divergence)
		}
		if !sameTrace(rep.Trace, res.Trace) {
			t.Fatalf("replay %d: trace differs:\n%v\n%v", i, rep.Trace, res.Trace)
		}
	}
}

func TestDeadlockABBATwinSilent(t *testing.T) {
	res := runSearch(t, &Config{Strategy: "random", Seed: 7, MaxExecs: 200}, abba(true))
	if res.Verdict != VerdictNone {
		t.Fatalf("got verdict %q failure %+v", res.Verdict, res.Failure)
	}
}

func sameTrace(a, b []Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
