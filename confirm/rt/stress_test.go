package rt

import (
	"fmt"
	"strings"
	"testing"
)

// stressBody mixes every modelled primitive in a correct program.
func stressBody(t *testing.T) {
	var mu Mutex
	var rw RWMutex
	var wg WaitGroup
	var once Once
	c := NewCond(&mu)
	jobs := MakeChan[int](2)
	results := MakeChan[int](0)
	quit := MakeChan[struct{}](0)
	var counter Int64
	ready := false
	shared := 0
	for w := range 3 {
		wg.Go(func() {
			once.Do(func() { counter.Add(100) })
			mu.Lock()
			for !ready {
				c.Wait()
			}
			mu.Unlock()
			for j, ok := Recv2(jobs); ok; j, ok = Recv2(jobs) {
				rw.RLock()
				v := shared
				rw.RUnlock()
				switch Select(false, SendCase(results, j+v*0), RecvCase(quit, nil, nil)) {
				case 0:
					counter.Add(1)
				case 1:
					return
				}
				if w == 0 {
					Gosched()
				}
			}
		})
	}
	Go(func() {
		for i := range 6 {
			Send(jobs, i)
		}
		Close(jobs)
	})
	mu.Lock()
	ready = true
	c.Broadcast()
	mu.Unlock()
	sum := 0
	for range 6 {
		rw.Lock()
		shared++
		rw.Unlock()
		sum += Recv(results)
	}
	Close(quit)
	wg.Wait()
	if sum != 15 || counter.Load() != 106 {
		t.Errorf("sum %d counter %d", sum, counter.Load())
	}
}

func TestStress(t *testing.T) {
	for _, strategy := range []string{"random", "pct"} {
		res := search(t, Config{Strategy: strategy, Seed: 42, MaxExecs: 300}, stressBody)
		if res.Verdict != VerdictNone {
			t.Fatalf("%s: verdict %q failure %+v", strategy, res.Verdict, res.Failure)
		}
		t.Logf("%s: %d executions, %d steps in %.2fs", strategy, res.Stats.Executions, res.Stats.Steps, res.Stats.Seconds)
	}
}

// stackStrategy is a random strategy that asks for stacks, as the
// meta-heuristic strategy will; it checks what a Decision offers.
type stackStrategy struct {
	random
	t        *testing.T
	sawStack bool
	sawStart bool
	prints   map[uint64]bool
}

func (s *stackStrategy) NeedsStacks() bool { return true }

func (s *stackStrategy) Pick(d *Decision) int {
	for _, c := range d.Enabled {
		if c.PC == 0 {
			s.t.Errorf("step %d: candidate %+v has no position", d.Step, c)
		}
		if c.Op == "start" {
			s.sawStart = true
		} else if len(d.Stack(c.G)) > 0 {
			s.sawStack = true
		}
	}
	s.prints[d.Fingerprint()] = true
	return s.random.Pick(d)
}

// TestStrategyView checks the information a strategy gets at decisions.
func TestStrategyView(t *testing.T) {
	s := &stackStrategy{random: random{seed: 1}, t: t, prints: map[uint64]bool{}}
	cfg := &Config{Strategy: "custom"}
	for n := range 5 {
		capturePCs.Store(true)
		s.Begin(n)
		e := newExec(cfg, n, s)
		t.Run("exec", func(st *testing.T) { e.runBody(st, stressBody) })
		s.End(&Outcome{Steps: e.step})
	}
	capturePCs.Store(false)
	if !s.sawStack || !s.sawStart {
		t.Errorf("stacks %v, start positions %v", s.sawStack, s.sawStart)
	}
	if len(s.prints) < 10 {
		t.Errorf("only %d distinct happens-before fingerprints", len(s.prints))
	}
}

// TestFingerprintIgnoresIndependentOrder: schedules that differ only in
// the order of independent operations end with the same fingerprint.
func TestFingerprintIgnoresIndependentOrder(t *testing.T) {
	body := func(t *testing.T) {
		var a, b Mutex
		x, y := 0, 0
		c1, c2 := MakeChan[int](0), MakeChan[int](0)
		Go(func() { a.Lock(); x++; a.Unlock(); Send(c1, x) })
		Go(func() { b.Lock(); y++; b.Unlock(); Send(c2, y) })
		Recv(c1)
		Recv(c2)
	}
	prints := map[uint64]int{}
	traces := map[string]bool{}
	s := newRandom(8)
	cfg := &Config{Strategy: "random"}
	for n := range 40 {
		s.Begin(n)
		e := newExec(cfg, n, s)
		t.Run("exec", func(st *testing.T) { e.runBody(st, body) })
		prints[e.dec.Fingerprint()]++
		key := ""
		for _, ev := range e.events {
			key += fmt.Sprint(ev.g, ev.op, " ")
		}
		traces[key] = true
	}
	if len(traces) < 5 {
		t.Fatalf("only %d distinct schedules", len(traces))
	}
	if len(prints) != 1 {
		t.Errorf("%d fingerprints for %d schedules of one happens-before relation", len(prints), len(traces))
	}
}

// panicky is a strategy with a bug.
type panicky struct{ random }

func (s *panicky) Pick(d *Decision) int {
	if d.Step > 3 {
		panic("strategy bug")
	}
	return 0
}

// TestStrategyPanic: a panicking strategy ends the search with verdict
// invalid instead of hanging the scheduler.
func TestStrategyPanic(t *testing.T) {
	old := newMetaStrategy
	defer func() { newMetaStrategy = old }()
	newMetaStrategy = func(*Config, string) (Strategy, error) { return &panicky{}, nil }
	res := search(t, Config{Strategy: "meta", MaxExecs: 5}, abba(false))
	if res.Verdict != VerdictInvalid || !strings.Contains(res.Error, "strategy bug") {
		t.Fatalf("verdict %q error %q", res.Verdict, res.Error)
	}
}
