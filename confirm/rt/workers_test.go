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

// TestControlLazyStart checks that a goroutine gets a real goroutine only
// when it is first given the turn: one never chosen before its execution
// ended never runs, leaves no worker or stray behind, and one that
// blocks in uncontrolled code at once is still identified (its goroutine
// id is known, so the watchdog can name it).
func TestControlLazyStart(t *testing.T) {
	releaseWorkers()
	base := runtime.NumGoroutine()
	var started atomicBool
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 3}, func(t *testing.T) {
		Go(func() { started.set() })
		panic("boom") // before goroutine 0's next scheduling point
	})
	if res.Verdict != VerdictError || res.Failure.Kind != FailPanic {
		t.Fatalf("verdict %q, failure %+v; want the panic", res.Verdict, res.Failure)
	}
	if started.get() {
		t.Errorf("a goroutine never given the turn ran")
	}
	if n := strayCount.Load(); n != 0 {
		t.Errorf("%d strays after the search", n)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Errorf("%d goroutines after the search, %d before", n, base)
	}

	cfg := &Config{Strategy: "random", Seed: 1}
	s, err := newStrategy(cfg, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	var real sync.Mutex
	real.Lock()
	s.Begin(0)
	e := newExec(cfg, 0, s)
	e.stall = 20 * time.Millisecond
	go func() {
		time.Sleep(200 * time.Millisecond)
		real.Unlock()
	}()
	e.runMain(func() {
		Go(func() {
			real.Lock() // blocks outside control
			started.set()
			real.Unlock()
		})
		Gosched()
	}, 0)
	e.mu.Lock()
	n, g1 := len(e.gs), e.gs[len(e.gs)-1]
	e.mu.Unlock()
	if n != 2 || g1.goid.Load() == 0 {
		t.Errorf("%d goroutines, the last with goroutine id %d; want 2, the last identified", n, g1.goid.Load())
	}
	// It outlived the execution as a stray, and exits once unblocked.
	deadline = time.Now().Add(5 * time.Second)
	for strayCount.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := strayCount.Load(); n != 0 {
		t.Errorf("%d strays left", n)
	}
}

// atomicBool is a flag set by a controlled goroutine and read by the test.
type atomicBool struct {
	mu sync.Mutex
	v  bool
}

func (b *atomicBool) set() { b.mu.Lock(); b.v = true; b.mu.Unlock() }
func (b *atomicBool) get() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.v
}
