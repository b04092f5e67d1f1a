package rt

import (
	"strings"
	"testing"
	"time"
	"unsafe"
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
	// Shrunk: an AB-BA deadlock needs at most two preemptions.
	if p := res.Stats.Preemptions; p > 2 || p > res.Stats.ShrunkFrom {
		t.Errorf("the trace has %d preemptions (shrunk from %d), want at most 2", p, res.Stats.ShrunkFrom)
	}
	if len(res.Goroutines) != 3 || !strings.Contains(res.Goroutines[0].Func, "abba") || res.Goroutines[1].Parent != 0 || res.Goroutines[1].Line == 0 {
		t.Errorf("goroutines %+v", res.Goroutines)
	}
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

// TestOracles runs each oracle on a small buggy body and its correct twin.
func TestOracles(t *testing.T) {
	var x int
	locs := []Location{{File: "x.go", Line: 1, Kind: "write", Label: "x"}, {File: "x.go", Line: 2, Kind: "read", Label: "x"}}
	tests := []struct {
		name     string
		body     func(t *testing.T)
		wantKind string // "" for the correct twin
		wantMsg  string
	}{
		{"deadlock all blocked", func(t *testing.T) {
			ch := MakeChan[int](0)
			Recv(ch)
		}, FailDeadlock, "all goroutines are blocked"},
		{"deadlock select{}", func(t *testing.T) { Select(false) }, FailDeadlock, "select {}"},
		// A Mutex has no owner: a lock handed off to a goroutine that
		// unlocks it is no double lock (prometheus's summary flush).
		{"twin: lock handed off to the goroutine that unlocks it", func(t *testing.T) {
			var mu Mutex
			var wg WaitGroup
			n := 0
			mu.Lock()
			wg.Go(func() { n++; mu.Unlock() })
			mu.Lock()
			n++
			mu.Unlock()
			wg.Wait()
		}, "", ""},
		// Another goroutine that could have unlocked it blocks too:
		// the double lock is the outcome, not "all goroutines blocked".
		{"deadlock double lock while another goroutine lives", func(t *testing.T) {
			var mu Mutex
			ch := MakeChan[int](0)
			Go(func() {
				Gosched()
				Recv(ch)
			})
			mu.Lock()
			mu.Lock()
			Send(ch, 1)
		}, FailDeadlock, "cycle"},
		{"deadlock recursive RLock under waiting writer", func(t *testing.T) {
			var rw RWMutex
			var wg WaitGroup
			wg.Go(func() {
				rw.RLock()
				Gosched()
				rw.RLock() // deadlocks if the writer arrived in between
				_ = x
				rw.RUnlock()
				rw.RUnlock()
			})
			wg.Go(func() {
				rw.Lock()
				x++
				rw.Unlock()
			})
			wg.Wait()
		}, FailDeadlock, "cycle"},
		{"twin: non-recursive RLock", func(t *testing.T) {
			var rw RWMutex
			var wg WaitGroup
			wg.Go(func() {
				rw.RLock()
				Gosched()
				rw.RUnlock()
				rw.RLock()
				_ = x
				rw.RUnlock()
			})
			wg.Go(func() {
				rw.Lock()
				x++
				rw.Unlock()
			})
			wg.Wait()
		}, "", ""},
		{"leak", func(t *testing.T) {
			ch := MakeChan[int](0)
			Go(func() { Send(ch, 1) })
			Select(true, RecvCase(ch, nil, nil))
		}, FailLeak, "blocked forever"},
		{"twin: no leak", func(t *testing.T) {
			ch := MakeChan[int](1)
			Go(func() { Send(ch, 1) })
			Select(true, RecvCase(ch, nil, nil))
		}, "", ""},
		{"race", func(t *testing.T) {
			var wg WaitGroup
			wg.Go(func() { Write(unsafe.Pointer(&x), 0); x++ })
			wg.Go(func() { Read(unsafe.Pointer(&x), 1); _ = x })
			wg.Wait()
		}, FailRace, "data race"},
		{"race by history", func(t *testing.T) {
			var wg WaitGroup
			var flag Bool
			wg.Go(func() { Write(unsafe.Pointer(&x), 0); x++; flag.Store(true) })
			wg.Wait()
			// Ordered by Wait: no race yet. Now a goroutine that does not
			// synchronise with the next write.
			ch := MakeChan[int](0)
			Go(func() { Recv(ch); Write(unsafe.Pointer(&x), 0) })
			Read(unsafe.Pointer(&x), 1)
			Send(ch, 1)
			var mu Mutex
			mu.Lock()
			Gosched()
			mu.Unlock()
			Read(unsafe.Pointer(&x), 1)
		}, FailRace, "data race"},
		{"twin: accesses under a mutex", func(t *testing.T) {
			var wg WaitGroup
			var mu Mutex
			wg.Go(func() { mu.Lock(); Write(unsafe.Pointer(&x), 0); x++; mu.Unlock() })
			wg.Go(func() { mu.Lock(); Read(unsafe.Pointer(&x), 1); _ = x; mu.Unlock() })
			wg.Wait()
		}, "", ""},
		// A struct read whole races with a write of one of its fields
		// (etcd's Summary copying fs.Counts while Succ does
		// fs.Counts.Success++): the copy touches every field.
		{"race: struct copied whole against a write of its second field", func(t *testing.T) {
			var wg WaitGroup
			var st struct{ stats struct{ fail, ok int } }
			wg.Go(func() { W(&st.stats.ok, 0).V(st.stats.ok + 1) })
			wg.Go(func() { _ = Rd(&st.stats, 1) })
			wg.Wait()
		}, FailRace, "data race"},
		{"race: field read against a struct written whole", func(t *testing.T) {
			var wg WaitGroup
			var st struct{ fail, ok int }
			wg.Go(func() { st = W(&st, 0).V(struct{ fail, ok int }{1, 2}) })
			wg.Go(func() { _ = Rd(&st.ok, 1) })
			wg.Wait()
		}, FailRace, "data race"},
		{"twin: struct copied whole under the writer's mutex", func(t *testing.T) {
			var wg WaitGroup
			var mu Mutex
			var st struct{ stats struct{ fail, ok int } }
			wg.Go(func() { mu.Lock(); W(&st.stats.ok, 0).V(st.stats.ok + 1); mu.Unlock() })
			wg.Go(func() { mu.Lock(); _ = Rd(&st.stats, 1); mu.Unlock() })
			wg.Wait()
		}, "", ""},
		{"twin: struct copied whole beside a write of a field outside it", func(t *testing.T) {
			var wg WaitGroup
			var st struct {
				stats struct{ fail, ok int }
				n     int
			}
			wg.Go(func() { W(&st.n, 0).V(1) })
			wg.Go(func() { _ = Rd(&st.stats, 1) })
			wg.Wait()
		}, "", ""},
		{"panic", func(t *testing.T) {
			done := MakeChan[int](0)
			Go(func() {
				var s []int
				_ = s[len(s)]
			})
			Recv(done)
		}, FailPanic, "index out of range"},
		{"exit", func(t *testing.T) {
			Go(func() { Exit(3) })
			Gosched()
			Gosched()
		}, FailExit, "os.Exit(3)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := search(t, Config{Strategy: "random", Seed: 11, MaxExecs: 300, MaxSteps: 2000, Locations: locs}, tt.body)
			if tt.wantKind == "" {
				if res.Verdict != VerdictNone {
					t.Fatalf("correct twin: verdict %q failure %+v", res.Verdict, res.Failure)
				}
				return
			}
			if res.Verdict != VerdictError || res.Failure == nil || res.Failure.Kind != tt.wantKind {
				t.Fatalf("verdict %q failure %+v, want kind %s", res.Verdict, res.Failure, tt.wantKind)
			}
			if !strings.Contains(res.Failure.Message, tt.wantMsg) {
				t.Errorf("message %q does not contain %q", res.Failure.Message, tt.wantMsg)
			}
			if res.Token == "" || len(res.Trace) == 0 {
				t.Errorf("no token or trace")
			}
			// Positions come from the traced re-run of the failing
			// execution: in the trace, or in the pending operations the
			// message lists.
			positioned := strings.Contains(res.Failure.Message, "oracle_test.go:")
			for _, ev := range res.Trace {
				positioned = positioned || strings.HasSuffix(ev.File, "oracle_test.go")
			}
			if strings.Contains(res.Failure.Stack, "(*exec).point") {
				t.Errorf("the stack shows the scheduler's frames:\n%s", res.Failure.Stack)
			}
			if !positioned {
				t.Errorf("the trace has no positions in the user's file: %+v", res.Trace)
			}
			t.Logf("found in execution %d: %s", res.Stats.Executions, res.Failure.Message)
		})
	}
}

// TestExtDetachedCaller checks that accesses ordered through uncontrolled
// code by a goroutine detached inside its call are not reported: x/sync's
// semaphore, whose Release stalls on its mutex and hands the semaphore
// over, and whose waiter's Acquire returns first. The detached caller's
// accesses before its call are ordered before whatever returns from
// uncontrolled code after it. Each execution detaches twice (a few
// milliseconds each), so it runs a handful.
func TestExtDetachedCaller(t *testing.T) {
	var x int
	locs := []Location{{File: "x.go", Line: 1, Kind: "write", Label: "x"}}
	body := func(t *testing.T) {
		handed := make(chan struct{}) // a channel the runtime does not control
		var wg WaitGroup
		wg.Go(func() {
			<-handed // blocks outside: detached
			ExtDone()
			Write(unsafe.Pointer(&x), 0)
			x++
		})
		Write(unsafe.Pointer(&x), 0)
		x++
		func() { // an uncontrolled call that stalls around its hand-over
			time.Sleep(10 * time.Millisecond)
			close(handed)
			time.Sleep(10 * time.Millisecond)
		}()
		ExtDone()
		wg.Wait()
	}
	res := search(t, Config{Strategy: "random", Seed: 11, MaxExecs: 8, Locations: locs}, body)
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v, want none", res.Verdict, res.Failure)
	}
}

// TestPCTFindsDeadlock checks the pct strategy on the AB-BA body.
func TestPCTFindsDeadlock(t *testing.T) {
	res := search(t, Config{Strategy: "pct", Seed: 5, MaxExecs: 300}, abba(false))
	if res.Verdict != VerdictError || res.Failure.Kind != FailDeadlock {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
}

// TestSeedToken replays the failing execution of a random search from the
// seed token written before it ran.
func TestSeedToken(t *testing.T) {
	body := abba(false)
	res := search(t, Config{Strategy: "random", Seed: 21, MaxExecs: 300}, body)
	if res.Verdict != VerdictError {
		t.Fatalf("verdict %q", res.Verdict)
	}
	// The search's last execution, before shrinking ran more (the seed
	// token replays it, not the shrunk one the result shows).
	tok := seedToken{test: t.Name(), strategy: 1, seed: 21, n: res.Stats.Executions - res.Stats.ShrinkRuns - 1}.encode()
	rep := search(t, Config{Strategy: "replay", Replay: tok}, body)
	if rep.Verdict != VerdictError || rep.Failure.Kind != res.Failure.Kind {
		t.Fatalf("seed token replay: verdict %q failure %+v", rep.Verdict, rep.Failure)
	}
}

// TestSerial: the serial strategy runs a goroutine until it blocks, so it
// finds a failure that needs no interleaving and not one that needs a
// preemption, which random finds.
func TestSerial(t *testing.T) {
	preempted := func(t *testing.T) {
		var wg WaitGroup
		var x Int32
		wg.Go(func() { x.Store(1) })
		Observe(0) // a scheduling point, not a yield
		if x.Load() != 0 {
			panic("the goroutine ran before its parent blocked")
		}
		wg.Wait()
	}
	always := func(t *testing.T) {
		var wg WaitGroup
		wg.Go(func() {})
		wg.Wait()
		panic("fails whatever the schedule")
	}
	tests := []struct {
		name     string
		strategy string
		body     func(*testing.T)
		want     string
	}{
		{"serial, needs a preemption", "serial", preempted, VerdictNone},
		{"random, needs a preemption", "random", preempted, VerdictError},
		{"serial, fails anyway", "serial", always, VerdictError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := search(t, Config{Strategy: tt.strategy, Seed: 1, MaxExecs: 50}, tt.body)
			if res.Verdict != tt.want {
				t.Errorf("verdict %q after %d executions, want %q", res.Verdict, res.Stats.Executions, tt.want)
			}
		})
	}
}

func TestHasFrames(t *testing.T) {
	tests := []struct {
		dump string
		want bool
	}{
		{"goroutine 8 [chan receive]:\n\n", false},
		{"goroutine 8 [chan receive]:\ncreated by example.com/p.F in goroutine 7\n\t/p/f.go:3 +0x1\n", false},
		{"goroutine 9 [running]:\nexample.com/p.(*C).Record(0x1)\n\t/p/c.go:23 +0x85\n", true},
	}
	for _, tt := range tests {
		if got := hasFrames(tt.dump); got != tt.want {
			t.Errorf("hasFrames(%q) = %v, want %v", tt.dump, got, tt.want)
		}
	}
}
