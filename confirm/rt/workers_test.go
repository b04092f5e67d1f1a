package rt

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// runWorkerExecs runs n executions of a body that starts four goroutines
// and returns, per execution, the runtime goroutine ids its controlled
// goroutines ran on.
func runWorkerExecs(t *testing.T, n int) []map[int64]bool {
	t.Helper()
	var mu sync.Mutex
	seen := make([]map[int64]bool, n)
	cfg := &Config{Strategy: "random", Seed: 1}
	s, err := newStrategy(cfg, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		seen[i] = map[int64]bool{}
		record := func() {
			mu.Lock()
			seen[i][curGoid()] = true
			mu.Unlock()
		}
		body := func() {
			record()
			var wg WaitGroup
			for range 4 {
				wg.Add(1)
				Go(func() {
					defer wg.Done()
					record()
				})
			}
			wg.Wait()
		}
		s.Begin(i)
		e := newExec(cfg, i, s)
		e.runMain(body, 0)
		if e.failure != nil {
			t.Fatalf("execution %d: %+v", i, e.failure)
		}
		s.End(&Outcome{Steps: e.step})
	}
	return seen
}

// TestControlWorkersReused checks that later executions run their
// goroutines on the real goroutines of earlier ones, that the pool stays
// within the largest execution's size, and that releaseWorkers and the
// reaper make the parked workers exit.
func TestControlWorkersReused(t *testing.T) {
	releaseWorkers()
	base := runtime.NumGoroutine()
	seen := runWorkerExecs(t, 4)
	for i := 1; i < len(seen); i++ {
		reused := 0
		for id := range seen[i] {
			for _, earlier := range seen[:i] {
				if earlier[id] {
					reused++
					break
				}
			}
		}
		if reused == 0 {
			t.Errorf("execution %d ran no goroutine on a worker of an earlier execution", i)
		}
	}
	workers.mu.Lock()
	idle, high := len(workers.idle), workers.high
	workers.mu.Unlock()
	if high != 5 || idle > high {
		t.Errorf("pool: %d idle workers, bound %d; want bound 5", idle, high)
	}

	// Two reap rounds without executions: every parked worker exits.
	reapWorkers()
	reapWorkers()
	workers.mu.Lock()
	idle = len(workers.idle)
	workers.mu.Unlock()
	if idle != 0 {
		t.Errorf("%d workers still parked after two reap rounds", idle)
	}

	runWorkerExecs(t, 2)
	releaseWorkers()
	workers.mu.Lock()
	idle = len(workers.idle)
	reaping := workers.reap != nil
	workers.mu.Unlock()
	if idle != 0 || reaping {
		t.Errorf("after releaseWorkers: %d parked workers, reaper scheduled %v", idle, reaping)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines after the searches, %d before", n, base)
	}
}

// TestControlWorkersGoexit checks that a goroutine that ends through
// runtime.Goexit is not reused and does not break later executions.
func TestControlWorkersGoexit(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 2, MaxExecs: 5}, func(t *testing.T) {
		var wg WaitGroup
		for i := range 3 {
			wg.Add(1)
			Go(func() {
				defer wg.Done()
				if i == 1 {
					runtime.Goexit()
				}
			})
		}
		wg.Wait()
	})
	if res.Verdict != VerdictNone || res.Stats.Executions != 5 {
		t.Errorf("verdict %q after %d executions, want none after 5: %+v", res.Verdict, res.Stats.Executions, res.Failure)
	}
}
