package rt

import (
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// here returns "file:line" of the line it is called on, plus delta lines.
func here(delta int) string {
	_, file, line, _ := runtime.Caller(1)
	return file + ":" + itoa(line+delta)
}

// TestWantMatches checks each rule of Want.Matches on failures as the
// runtime reports them.
func TestWantMatches(t *testing.T) {
	site, other, site2 := "/m/a.go:10", "/m/a.go:20", "/m/a.go:30"
	race := func(p, q string) *Failure {
		return &Failure{Kind: FailRace, Accesses: []Access{{G: 1, Pos: p, Write: true}, {G: 2, Pos: q}}}
	}
	cycle := func(frames ...string) *Failure {
		f := &Failure{Kind: FailDeadlock}
		for i, fr := range frames {
			f.Waits = append(f.Waits, Wait{G: i + 1, Op: "lock", Frames: []string{"/m/lock.go:3", fr}})
			f.Cycle = append(f.Cycle, i+1)
		}
		return f
	}
	tests := []struct {
		name string
		want Want
		f    *Failure
		seq  bool
		ok   bool
	}{
		{"race on the sites", Want{Kind: WantRace, Sites: []string{site, other}}, race(site, other), false, true},
		{"race on one site only", Want{Kind: WantRace, Sites: []string{site}}, race(site, other), false, false},
		{"race on the warned field", Want{Kind: WantRace, Sites: []string{site}, Objects: []string{"(p.T).f"}},
			&Failure{Kind: FailRace, Accesses: []Access{{Pos: site, Label: "writes (*p.T).f"}, {Pos: site, Label: "(p.T).f"}}}, false, true},
		{"race on another field", Want{Kind: WantRace, Sites: []string{site}, Objects: []string{"(p.T).f"}},
			&Failure{Kind: FailRace, Accesses: []Access{{Pos: site, Label: "writes (*p.T).g"}, {Pos: site, Label: "(p.T).f"}}}, false, false},
		{"deadlock for a race", Want{Kind: WantRace, Sites: []string{site}}, cycle(site, site), false, false},
		{"cycle through the sites", Want{Kind: WantLockCycle, Sites: []string{site}}, cycle(site, site), false, true},
		{"cycle with a member elsewhere", Want{Kind: WantLockCycle, Sites: []string{site}}, cycle(site, other), false, false},
		{"all blocked, no cycle", Want{Kind: WantLockCycle, Sites: []string{site}}, &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "lock", Frames: []string{site}}}}, false, false},
		{"race for a cycle", Want{Kind: WantLockCycle, Sites: []string{site}}, race(site, site), false, false},
		{"double lock", Want{Kind: WantDoubleLock, Sites: []string{site}}, &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "lock", Holders: []int{1}, Frames: []string{site}}}}, false, true},
		{"lock held by another", Want{Kind: WantDoubleLock, Sites: []string{site}}, &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "lock", Holders: []int{2}, Frames: []string{site}}}}, false, false},
		{"rwr", Want{Kind: WantRWR, Sites: []string{site}}, &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "rlock", HoldsRead: true, Frames: []string{site}}}}, false, true},
		{"rlock without holding", Want{Kind: WantRWR, Sites: []string{site}}, &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "rlock", Frames: []string{site}}}}, false, false},
		{"lock held across a receive", Want{Kind: WantLockChannel, Sites: []string{site, site2}}, &Failure{Kind: FailDeadlock, Waits: []Wait{
			{G: 1, Op: "recv", Frames: []string{site}},
			{G: 2, Op: "lock", Holders: []int{1}, Frames: []string{site2}},
		}}, false, true},
		{"lock holder blocked elsewhere", Want{Kind: WantLockChannel, Sites: []string{site, site2}}, &Failure{Kind: FailDeadlock, Waits: []Wait{
			{G: 1, Op: "recv", Frames: []string{other}},
			{G: 2, Op: "lock", Holders: []int{1}, Frames: []string{site2}},
		}}, false, false},
		{"lock holder in a lock wait", Want{Kind: WantLockChannel, Sites: []string{site, site2}}, &Failure{Kind: FailDeadlock, Waits: []Wait{
			{G: 1, Op: "lock", Holders: []int{2}, Frames: []string{site}},
			{G: 2, Op: "lock", Holders: []int{1}, Frames: []string{site2}},
		}}, false, false},
		{"leaked lock", Want{Kind: WantLockLeak, Sites: []string{site}}, &Failure{Kind: FailLeak, Waits: []Wait{{G: 1, Op: "lock", LockedAt: site, Frames: []string{other}}}}, false, true},
		{"lock taken elsewhere", Want{Kind: WantLockLeak, Sites: []string{site}}, &Failure{Kind: FailLeak, Waits: []Wait{{G: 1, Op: "lock", LockedAt: other, Frames: []string{site}}}}, false, false},
		{"sequence passed", Want{Kind: WantSequence}, &Failure{Kind: FailTest}, true, true},
		{"sequence not passed", Want{Kind: WantSequence}, &Failure{Kind: FailTest}, false, false},
		{"sequence, stuck", Want{Kind: WantSequence}, &Failure{Kind: FailStuck}, true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.want.Matches(tt.f, tt.seq); got != tt.ok {
				t.Errorf("Matches = %v, want %v", got, tt.ok)
			}
		})
	}
}

// TestSignature: executions that fail at the same places have the same
// signature whatever the goroutine and object numbers.
func TestSignature(t *testing.T) {
	a := &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "lock", Object: 3, Frames: []string{"/m/a.go:1"}}, {G: 2, Op: "lock", Object: 4, Frames: []string{"/m/a.go:2"}}}}
	b := &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 5, Op: "lock", Object: 7, Frames: []string{"/m/a.go:2"}}, {G: 4, Op: "lock", Object: 8, Frames: []string{"/m/a.go:1"}}}}
	c := &Failure{Kind: FailDeadlock, Waits: []Wait{{G: 1, Op: "lock", Frames: []string{"/m/a.go:3"}}}}
	if a.Signature() != b.Signature() {
		t.Errorf("same deadlock, signatures %q and %q", a.Signature(), b.Signature())
	}
	if a.Signature() == c.Signature() {
		t.Errorf("other deadlock, same signature %q", a.Signature())
	}
	p1 := &Failure{Kind: FailPanic, Message: "panic in goroutine 1: boom", Frames: []string{"/m/a.go:9"}}
	p2 := &Failure{Kind: FailPanic, Message: "panic in goroutine 3: boom", Frames: []string{"/m/a.go:9"}}
	if p1.Signature() != p2.Signature() {
		t.Errorf("same panic, signatures %q and %q", p1.Signature(), p2.Signature())
	}
	// Waits in test files count only when nothing waits elsewhere: the
	// same lost wake-up with the test's workers blocked at other lines.
	w1 := &Failure{Kind: FailDeadlock, Waits: []Wait{{Op: "wg.wait", Frames: []string{"/m/a_test.go:30"}}, {Op: "cond.wait", Frames: []string{"/m/a.go:539"}}, {Op: "recv", Frames: []string{"/m/a_test.go:11"}}}}
	w2 := &Failure{Kind: FailDeadlock, Waits: []Wait{{Op: "wg.wait", Frames: []string{"/m/a_test.go:61"}}, {Op: "cond.wait", Frames: []string{"/m/a.go:539"}}, {Op: "recv", Frames: []string{"/m/a_test.go:19"}}}}
	w3 := &Failure{Kind: FailDeadlock, Waits: []Wait{{Op: "recv", Frames: []string{"/m/a_test.go:11"}}}}
	w4 := &Failure{Kind: FailDeadlock, Waits: []Wait{{Op: "recv", Frames: []string{"/m/a_test.go:12"}}}}
	if w1.Signature() != w2.Signature() || w3.Signature() == w4.Signature() {
		t.Errorf("signatures %q, %q (want equal) and %q, %q (want different)", w1.Signature(), w2.Signature(), w3.Signature(), w4.Signature())
	}
	// Test failures differ by where the test failed.
	f1 := &Failure{Kind: FailTest, Message: "a_test.go:610: \n\tError: not equal"}
	f2 := &Failure{Kind: FailTest, Message: "a_test.go:612: boom"}
	f3 := &Failure{Kind: FailTest, Message: "a_test.go:610: other words"}
	if f1.Signature() == f2.Signature() || f1.Signature() != f3.Signature() || f1.Signature() != "test-failure: a_test.go:610" {
		t.Errorf("test failure signatures %q, %q, %q", f1.Signature(), f2.Signature(), f3.Signature())
	}
}

// TestWantKeepsSearching: a race on a neighbouring field does not end a
// search for the warned one; it is kept as a bug found.
func TestWantKeepsSearching(t *testing.T) {
	var x, y int
	locs := []Location{
		{File: "/m/x.go", Line: 1, Kind: "write", Label: "x"},
		{File: "/m/x.go", Line: 2, Kind: "read", Label: "x"},
		{File: "/m/y.go", Line: 1, Kind: "write", Label: "y"},
		{File: "/m/y.go", Line: 2, Kind: "read", Label: "y"},
	}
	body := func(t *testing.T) {
		var wg WaitGroup
		wg.Go(func() {
			Write(unsafe.Pointer(&x), 0)
			x++
			Write(unsafe.Pointer(&y), 2)
			y++
		})
		Read(unsafe.Pointer(&x), 1)
		_ = x
		Yield()
		Read(unsafe.Pointer(&y), 3)
		_ = y
		wg.Wait()
	}
	for _, strategy := range []string{"random", "pct"} {
		t.Run(strategy, func(t *testing.T) {
			want := &Want{Kind: WantRace, Sites: []string{"/m/y.go:1", "/m/y.go:2"}}
			res := runSearch(t, &Config{Strategy: strategy, Seed: 3, MaxExecs: 500, Locations: locs, Want: want}, body)
			if res.Verdict != VerdictError || res.Failure.Kind != FailRace || !want.Matches(res.Failure, false) {
				t.Fatalf("verdict %q failure %+v, want the race on y", res.Verdict, res.Failure)
			}
			if len(res.Found) == 0 {
				t.Fatalf("the race on x was not kept as a bug found")
			}
			for _, f := range res.Found {
				if f.Failure.Kind != FailRace || !strings.Contains(f.Failure.Accesses[0].Pos, "x.go") || f.Token == "" || len(f.Trace) == 0 {
					t.Errorf("found %+v", f)
				}
			}
			if len(res.Found) != 1 {
				t.Errorf("found %d bugs, want the race on x once", len(res.Found))
			}
			// Every token replays its own failure, the bug found's too
			// (the execution went on past it).
			for i, tok := range []string{res.Token, res.Found[0].Token} {
				want := res.Failure
				if i == 1 {
					want = res.Found[0].Failure
				}
				for range 3 {
					rep := search(t, Config{Strategy: "replay", Replay: tok, Locations: locs}, body)
					if rep.Verdict != VerdictError || rep.Failure.Signature() != want.Signature() {
						t.Fatalf("replay of %s: verdict %q failure %+v divergence %q", tok, rep.Verdict, rep.Failure, rep.Divergence)
					}
				}
			}
			// A replay that does not end in the recorded failure says so.
			other := func(t *testing.T) {
				var wg WaitGroup
				wg.Go(func() {
					Write(unsafe.Pointer(&x), 0)
					x++
					Write(unsafe.Pointer(&y), 2)
					y++
				})
				Read(unsafe.Pointer(&x), 1)
				_ = x
				Yield()
				wg.Wait() // orders the read of y: no race on y
				Read(unsafe.Pointer(&y), 3)
				_ = y
			}
			rep := search(t, Config{Strategy: "replay", Replay: res.Token, Locations: locs}, other)
			if rep.Verdict != VerdictDiverged || rep.Divergence == "" {
				t.Errorf("replay on changed code: verdict %q divergence %q", rep.Verdict, rep.Divergence)
			}
		})
	}
}

// Yield is a scheduling point for the tests (a Gosched).
func Yield() { Gosched() }

// TestSerialFirst checks the serial executions that start a search.
func TestSerialFirst(t *testing.T) {
	t.Run("fails without interleaving", func(t *testing.T) {
		res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
			var wg WaitGroup
			wg.Go(func() {})
			wg.Wait()
			panic("fails whatever the schedule")
		})
		if res.Verdict != VerdictNone || res.Serial == nil || res.Serial.Kind != FailPanic || res.Stats.Ignored == 0 {
			t.Errorf("verdict %q serial %+v stats %+v", res.Verdict, res.Serial, res.Stats)
		}
	})
	t.Run("cannot run twice", func(t *testing.T) {
		runs := 0
		res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
			runs++
			var wg WaitGroup
			wg.Go(func() {})
			wg.Wait()
			if runs > 1 {
				panic("registered twice")
			}
		})
		if res.Verdict != VerdictUnrepeatable || res.Unrepeatable == "" || res.Stats.Executions != 2 {
			t.Errorf("verdict %q unrepeatable %q after %d executions", res.Verdict, res.Unrepeatable, res.Stats.Executions)
		}
	})
	t.Run("one goroutine", func(t *testing.T) {
		res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
			var n Int32
			n.Add(1)
		})
		if res.Verdict != VerdictNone || !res.Stats.Exhausted || res.Stats.Executions != 2 || res.Stats.Goroutines != 1 {
			t.Errorf("verdict %q stats %+v", res.Verdict, res.Stats)
		}
	})
	t.Run("a deadlock even without preemption is a bug", func(t *testing.T) {
		res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
			var mu Mutex
			var wg WaitGroup
			wg.Go(func() {})
			mu.Lock()
			mu.Lock()
			wg.Wait()
		})
		if res.Verdict != VerdictError || res.Failure.Kind != FailDeadlock || res.Stats.Executions != 1 {
			t.Errorf("verdict %q failure %+v after %d executions", res.Verdict, res.Failure, res.Stats.Executions)
		}
		if !(&Want{Kind: WantDoubleLock, Sites: []string{res.Failure.Waits[0].Frames[0]}}).Matches(res.Failure, false) {
			t.Errorf("the double lock does not match its own site: %+v", res.Failure.Waits)
		}
	})
}

// TestTruncated: an execution cut off at the step bound is no failure.
func TestTruncated(t *testing.T) {
	res := search(t, Config{Strategy: "pct", Seed: 2, MaxExecs: 5, MaxSteps: 300}, func(t *testing.T) {
		var flag Bool
		for !flag.Load() {
			Gosched()
		}
	})
	if res.Verdict != VerdictNone || res.Stats.Truncated != 5 {
		t.Errorf("verdict %q failure %+v stats %+v", res.Verdict, res.Failure, res.Stats)
	}
}

// globalCh is made outside any execution: package state a later test can
// still use.
var globalCh = MakeChan[int](0)

// TestLeakOracle: a goroutine is leaked only when nothing is left that
// could wake it.
func TestLeakOracle(t *testing.T) {
	var spawned string
	leaky := func(t *testing.T) {
		ch := MakeChan[int](0)
		spawned = here(1)
		Go(func() { Send(ch, 1) }) // nobody receives
	}
	tests := []struct {
		name    string
		cfg     Config
		body    func(*testing.T)
		leak    bool
		message string
	}{
		{"blocked forever", Config{}, leaky, true, "started at "},
		{"oracle off", Config{NoLeaks: true}, leaky, false, ""},
		{"waits on package state", Config{}, func(t *testing.T) {
			Go(func() { Recv(globalCh) })
		}, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.cfg.Strategy, tt.cfg.MaxExecs = "random", 5
			res := search(t, tt.cfg, tt.body)
			if !tt.leak {
				if res.Verdict != VerdictNone {
					t.Errorf("verdict %q failure %+v", res.Verdict, res.Failure)
				}
				return
			}
			if res.Verdict != VerdictError || res.Failure.Kind != FailLeak {
				t.Fatalf("verdict %q failure %+v, want a leak", res.Verdict, res.Failure)
			}
			if !strings.Contains(res.Failure.Message, tt.message+spawned) {
				t.Errorf("message %q does not say %q", res.Failure.Message, tt.message)
			}
		})
	}
}

// TestOneGoroutine: a search for a race stops when the test runs the
// warned accesses in one goroutine only.
func TestOneGoroutine(t *testing.T) {
	var x int
	locs := []Location{{File: "/m/x.go", Line: 1, Kind: "write"}, {File: "/m/x.go", Line: 2, Kind: "read"}}
	body := func(t *testing.T) {
		var wg WaitGroup
		wg.Go(func() {}) // concurrency, but not around x
		Write(unsafe.Pointer(&x), 0)
		x++
		Read(unsafe.Pointer(&x), 1)
		_ = x
		wg.Wait()
	}
	want := &Want{Kind: WantRace, Sites: []string{"/m/x.go:1", "/m/x.go:2"}}
	res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 500, Locations: locs, Want: want}, body)
	if res.Verdict != VerdictNone || !res.Stats.OneGoroutine || res.Stats.SiteGoroutines != 1 || res.Stats.Executions != oneGoroutineAfter {
		t.Errorf("verdict %q stats %+v", res.Verdict, res.Stats)
	}
}

// TestBusyWaitIsFair: a goroutine that busy-waits in select { default: }
// or on a failing TryLock gives the others a turn, under pct too, so the
// executions end instead of running into the step bound.
func TestBusyWaitIsFair(t *testing.T) {
	bodies := map[string]func(*testing.T){
		"select default": func(t *testing.T) {
			done := MakeChan[struct{}](0)
			Go(func() { Close(done) })
			for Select(true, RecvCase(done, nil, nil)) < 0 {
			}
		},
		"trylock": func(t *testing.T) {
			var mu Mutex
			mu.Lock()
			Go(func() { mu.Unlock() })
			for !mu.TryLock() {
			}
			mu.Unlock()
		},
	}
	for name, body := range bodies {
		for _, strategy := range []string{"random", "pct"} {
			t.Run(name+"/"+strategy, func(t *testing.T) {
				res := search(t, Config{Strategy: strategy, Seed: 4, MaxExecs: 200, MaxSteps: 5000}, body)
				if res.Verdict != VerdictNone || res.Stats.Truncated != 0 {
					t.Errorf("verdict %q failure %+v stats %+v", res.Verdict, res.Failure, res.Stats)
				}
			})
		}
	}
}

// TestCleanup: cleanups registered with Cleanup run at the end of their
// test's function, under control, so that a goroutine they wait for is no
// leak; a subtest's run at the end of the subtest.
func TestCleanup(t *testing.T) {
	var order []string
	body := func(t *testing.T) {
		done := MakeChan[int](0)
		Go(func() { Send(done, 1) })
		Cleanup(t, func() { Recv(done); order = append(order, "test") })
		Run(t, "sub", func(st *testing.T) {
			Cleanup(st, func() { order = append(order, "sub") })
		})
		order = append(order, "body")
	}
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 50}, func(t *testing.T) {
		order = order[:0]
		body(t)
		if len(order) != 2 || order[0] != "sub" || order[1] != "body" {
			panic("cleanup order: " + strings.Join(order, ", "))
		}
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if len(order) != 3 || order[2] != "test" {
		t.Errorf("order %v, want sub, body, test", order)
	}
}

// TestDeadlockAfterFailure: a deadlock that comes after the test failed is
// reported as the test failure, its cause; one before it is a deadlock.
func TestDeadlockAfterFailure(t *testing.T) {
	for _, failed := range []bool{true, false} {
		e := newExec(&Config{}, 0, serial{})
		e.t = failer(failed)
		e.endLocked(&Failure{Kind: FailDeadlock, Message: "all goroutines are blocked"})
		o := e.outcome(false, "TestX")
		want := FailDeadlock
		if failed {
			want = FailTest
		}
		if o.Failure.Kind != want || failed && !strings.Contains(o.Failure.Message, "then: all goroutines are blocked") {
			t.Errorf("failed first %v: %+v, want kind %s", failed, o.Failure, want)
		}
	}
}

// failer is a test that has failed or not.
type failer bool

func (f failer) Failed() bool { return bool(f) }

// TestReplaySerialToken: a failure of a serial execution replays, though
// a search would have let fairness move a goroutine that took a select's
// default.
func TestReplaySerialToken(t *testing.T) {
	var x int
	locs := []Location{{File: "/m/x.go", Line: 1, Kind: "write"}}
	body := func(t *testing.T) {
		ch := MakeChan[int](0)
		var wg WaitGroup
		wg.Add(2)
		Go(func() {
			defer wg.Done()
			Select(true, RecvCase(ch, nil, nil))
			Write(unsafe.Pointer(&x), 0)
			x++
		})
		Go(func() {
			defer wg.Done()
			Write(unsafe.Pointer(&x), 0)
			x++
		})
		wg.Wait()
	}
	res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 5, Locations: locs}, body)
	if res.Verdict != VerdictError || res.Failure.Kind != FailRace || res.Stats.Executions != 1 {
		t.Fatalf("verdict %q failure %+v stats %+v, want the race of the serial execution", res.Verdict, res.Failure, res.Stats)
	}
	for range 3 {
		rep := search(t, Config{Strategy: "replay", Replay: res.Token, Locations: locs}, body)
		if rep.Verdict != VerdictError || !sameTrace(rep.Trace, res.Trace) {
			t.Fatalf("replay: verdict %q divergence %q", rep.Verdict, rep.Divergence)
		}
	}
}

// TestTooManyGoroutines: a test that starts more goroutines than the
// runtime explores is cut off once and not explored.
func TestTooManyGoroutines(t *testing.T) {
	res := runSearch(t, &Config{Strategy: "random", Seed: 1, MaxExecs: 10}, func(t *testing.T) {
		var wg WaitGroup
		for range maxGoroutines + 10 {
			wg.Add(1)
			Go(func() { wg.Done() })
		}
		wg.Wait()
	})
	if res.Verdict != VerdictNone || !res.Stats.TooManyGoroutines || res.Stats.Executions != 1 {
		t.Errorf("verdict %q stats %+v", res.Verdict, res.Stats)
	}
}

// TestTestContext: the test's context is cancelled before its cleanups
// run, so a cleanup that waits for a goroutine waiting on it ends; a
// goroutine that waits on it while the body waits for that goroutine is
// a deadlock (nothing else can cancel it during the execution); and what
// a cancel did before orders what a waiter on a derived context does
// after (its twin, a write after the cancel, races).
func TestTestContext(t *testing.T) {
	var v int
	bodies := []struct {
		name string
		body func(*testing.T)
		want string // the failure kind, "" for none
	}{
		{"cleanup waits for a goroutine on the test's context", func(t *testing.T) {
			ctx := TestContext(t)
			done := MakeChan[int](0)
			Go(func() { Recv(ctx.Done()); Close(done) })
			Cleanup(t, func() { Recv(done) })
			if TestContext(t) != ctx {
				panic("a second call made another context")
			}
		}, ""},
		{"body waits for a goroutine on the test's context", func(t *testing.T) {
			ctx := TestContext(t)
			done := MakeChan[int](0)
			Go(func() { Recv(ctx.Done()); Close(done) })
			Recv(done)
		}, FailDeadlock},
		{"cancel orders the canceller's write", func(t *testing.T) {
			ctx, cancel := WithCancel(TestContext(t))
			child, stop := WithCancel(ctx)
			defer stop()
			Go(func() { Write(unsafe.Pointer(&v), 0); v = 1; cancel() })
			Recv(child.Done())
			Read(unsafe.Pointer(&v), 1)
		}, ""},
		{"twin: a write after the cancel races", func(t *testing.T) {
			ctx, cancel := WithCancel(TestContext(t))
			Go(func() { cancel(); Write(unsafe.Pointer(&v), 0); v = 1 })
			Recv(ctx.Done())
			Read(unsafe.Pointer(&v), 1)
		}, FailRace},
	}
	locs := []Location{{File: "v.go", Line: 1, Kind: "write"}, {File: "v.go", Line: 2, Kind: "read"}}
	for _, b := range bodies {
		t.Run(b.name, func(t *testing.T) {
			res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 200, Locations: locs}, b.body)
			switch {
			case b.want == "" && res.Verdict != VerdictNone:
				t.Errorf("verdict %q (%+v), want none", res.Verdict, res.Failure)
			case b.want != "" && (res.Verdict != VerdictError || res.Failure.Kind != b.want):
				t.Errorf("verdict %q (%+v), want a %s", res.Verdict, res.Failure, b.want)
			}
		})
	}
}

// TestWaitGroupAfterExecution: a cleanup that testing runs after the
// execution (registered on t directly, not through Cleanup) calls Done on
// a WaitGroup whose Add was modelled under control: the real counter never
// saw that Add, so the Done must not reach it (it would panic with a
// negative counter and end the test process).
func TestWaitGroupAfterExecution(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 3}, func(t *testing.T) {
		var wg WaitGroup
		wg.Add(1)
		t.Cleanup(func() { wg.Done(); wg.Wait() })
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
}

// TestCutOffSubtest: an execution cut off at the step bound while a
// subtest runs ends without a verdict; and a cut-off execution whose test
// failed only after the cut-off (a goroutine stopped on the way asserting
// over half-done state) is no test failure, while one that failed before
// it is.
func TestCutOffSubtest(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 3, MaxSteps: 50}, func(t *testing.T) {
		for i := range 3 {
			Run(t, itoa(i), func(st *testing.T) {
				for range 40 {
					Gosched()
				}
			})
		}
	})
	if res.Verdict != VerdictNone || res.Stats.Truncated == 0 {
		t.Errorf("verdict %q failure %+v, truncated %d: want a cut-off without a verdict", res.Verdict, res.Failure, res.Stats.Truncated)
	}
	for _, failedBefore := range []bool{false, true} {
		e := newExec(&Config{}, 0, serial{})
		e.truncated, e.failedAtEnd = true, failedBefore
		o := e.outcome(false, "TestX")
		if got := o.Failure != nil && o.Failure.Kind == FailTest; got != failedBefore {
			t.Errorf("cut off, failed before the cut-off %v: failure %+v", failedBefore, o.Failure)
		}
	}
}
