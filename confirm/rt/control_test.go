package rt

import (
	"encoding/json"
	"os"
	execpkg "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestReplayReproduces finds a failure in a body full of select choices
// and replays its token ten times: the trace must be identical each time.
func TestReplayReproduces(t *testing.T) {
	body := func(t *testing.T) {
		a, b := MakeChan[int](0), MakeChan[int](1)
		var mu Mutex
		sum := 0
		var wg WaitGroup
		for i := range 3 {
			wg.Go(func() {
				for range 2 {
					switch Select(false, SendCase(a, i), SendCase(b, i)) {
					case 0, 1:
						mu.Lock()
						sum++
						mu.Unlock()
					}
				}
			})
		}
		got := 0
		for got < 6 {
			var v int
			Select(false, RecvCase(a, &v, nil), RecvCase(b, &v, nil))
			got++
			if got == 5 && v == 2 {
				panic("unlucky")
			}
		}
		wg.Wait()
	}
	res := search(t, Config{Strategy: "random", Seed: 99, MaxExecs: 500}, body)
	if res.Verdict != VerdictError || res.Failure.Kind != FailPanic {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if !strings.Contains(res.Failure.Stack, "TestReplayReproduces") {
		t.Errorf("panic stack does not show the user's code:\n%s", res.Failure.Stack)
	}
	for i := range 10 {
		rep := search(t, Config{Strategy: "replay", Replay: res.Token}, body)
		if rep.Verdict != VerdictError || rep.Failure.Kind != FailPanic || !sameTrace(rep.Trace, res.Trace) {
			t.Fatalf("replay %d: verdict %q divergence %q, same trace %v", i, rep.Verdict, rep.Divergence, sameTrace(rep.Trace, res.Trace))
		}
		if rep.Token != res.Token {
			t.Fatalf("replay %d: token %s, want %s", i, rep.Token, res.Token)
		}
	}
	var selects int
	for _, ev := range res.Trace {
		if ev.Op == "select" {
			selects++
		}
		if ev.Op != "start" && ev.Op != "exit" && !strings.HasSuffix(ev.File, "control_test.go") {
			t.Errorf("event %+v is not positioned in the user's file", ev)
			break
		}
	}
	if selects == 0 {
		t.Errorf("no select in the trace")
	}
}

// TestReplayDivergesUncontrolled: a replay that diverges after a
// goroutine blocked in code the runtime does not control says so.
func TestReplayDivergesUncontrolled(t *testing.T) {
	divergeCalls.Store(0)
	body := func(t *testing.T) {
		ch := MakeChan[int](0)
		Go(func() {
			// The real time.Sleep: uncontrolled, long enough for the
			// monitor to detach the goroutine on a loaded machine.
			time.Sleep(50 * time.Millisecond)
			Send(ch, 1)
		})
		// The replay diverges only after the send, so only after the
		// goroutine has run detached (before, on a loaded machine, it
		// could diverge before the monitor had looked).
		Recv(ch)
		if divergeCalls.Add(1) > 1 {
			Go(func() { Send(ch, 2) })
			Recv(ch)
		}
		panic("end")
	}
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 1}, body)
	if res.Verdict != VerdictError {
		t.Fatalf("verdict %q", res.Verdict)
	}
	rep := search(t, Config{Strategy: "replay", Replay: res.Token}, body)
	if rep.Verdict != VerdictDiverged || !strings.Contains(rep.Divergence, UncontrolledCause) || !strings.Contains(rep.Divergence, "ran detached") {
		t.Fatalf("replay verdict %q divergence %q, want diverged with its uncontrolled cause", rep.Verdict, rep.Divergence)
	}
}

// divergeCalls makes the next body behave differently on each call.
var divergeCalls atomic.Int32

// TestReplayDiverges replays a token on a body whose behaviour depends on
// package state that changed since the token was recorded.
func TestReplayDiverges(t *testing.T) {
	divergeCalls.Store(0)
	body := func(t *testing.T) {
		ch := MakeChan[int](0)
		if divergeCalls.Add(1) == 1 {
			Go(func() { Send(ch, 1) })
		} else {
			Go(func() { Send(ch, 2) })
			Go(func() { Send(ch, 2) })
		}
		Recv(ch)
		panic("end")
	}
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 1}, body)
	if res.Verdict != VerdictError {
		t.Fatalf("verdict %q", res.Verdict)
	}
	rep := search(t, Config{Strategy: "replay", Replay: res.Token}, body)
	if rep.Verdict != VerdictDiverged || !strings.Contains(rep.Divergence, "step") {
		t.Fatalf("replay verdict %q divergence %q, want diverged", rep.Verdict, rep.Divergence)
	}
	if strings.Contains(rep.Divergence, UncontrolledCause) {
		t.Errorf("divergence %q names an uncontrolled cause; nothing ran outside control", rep.Divergence)
	}
	if _, err := newStrategy(&Config{Strategy: "replay", Replay: res.Token}, "OtherTest"); err == nil || !strings.Contains(err.Error(), "not \"OtherTest\"") {
		t.Errorf("token of another test: err = %v", err)
	}
	if _, err := newStrategy(&Config{Strategy: "replay", Replay: "v1.%%%"}, "T"); err == nil {
		t.Errorf("malformed token accepted")
	}
}

// TestUncontrolledBlocking: the body blocks on a real mutex held by an
// uncontrolled goroutine for a while; the watchdog detaches it, the other
// goroutines keep running, and it rejoins.
func TestUncontrolledBlocking(t *testing.T) {
	start := time.Now()
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 3, StallMillis: 30}, func(t *testing.T) {
		var real sync.Mutex
		real.Lock()
		go func() {
			time.Sleep(100 * time.Millisecond)
			real.Unlock()
		}()
		ch := MakeChan[int](0)
		var mu Mutex
		Go(func() {
			for range 5 {
				mu.Lock()
				Gosched()
				mu.Unlock()
			}
			Send(ch, 1)
		})
		real.Lock() // blocks outside instrumented code
		waited := true
		real.Unlock()
		mu.Lock()
		_ = waited
		mu.Unlock()
		Recv(ch)
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestStuck: a body blocked forever outside instrumented code ends with
// verdict stuck, naming the goroutine, instead of hanging.
func TestStuck(t *testing.T) {
	old := stuckAfter
	stuckAfter = 300 * time.Millisecond
	defer func() { stuckAfter = old }()
	var real sync.Mutex
	real.Lock()
	res := search(t, Config{Strategy: "random", MaxExecs: 1, StallMillis: 20}, func(t *testing.T) {
		Gosched()
		real.Lock()
		t.Log("unreachable while the lock is held")
		real.Unlock()
	})
	real.Unlock()
	if res.Verdict != VerdictStuck || res.Failure.Kind != FailStuck || !strings.Contains(res.Failure.Message, "blocked outside instrumented code") {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if len(res.Failure.Goroutines) != 1 || res.Failure.Goroutines[0] != 0 || !strings.Contains(res.Failure.Stack, "TestStuck") {
		t.Errorf("failure does not name goroutine 0 and its stack: %+v", res.Failure)
	}
	// The stray rejoins, sees its execution is over and exits.
	deadline := time.Now().Add(2 * time.Second)
	for strayCount.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := strayCount.Load(); n != 0 {
		t.Errorf("%d strays left", n)
	}
}

// TestExternalChannels: waits on channels the execution did not make
// (timers) are polled, never deadlock evidence.
func TestExternalChannels(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 2, MaxExecs: 5}, func(t *testing.T) {
		timer := time.After(5 * time.Millisecond)
		internal := MakeChan[int](0)
		Go(func() { Send(internal, 1) })
		for range 2 {
			var v int
			var tm time.Time
			switch Select(false, RecvCase(timer, &tm, nil), RecvCase(internal, &v, nil)) {
			case 0:
				if tm.IsZero() {
					t.Errorf("zero time from timer")
				}
			case 1:
				if v != 1 {
					t.Errorf("v = %d", v)
				}
			}
		}
		ext := make(chan int)
		go func() { ext <- 4 }()
		if v := Recv(ext); v != 4 {
			t.Errorf("external recv %d", v)
		}
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
}

// TestDyingRunsDefers: goroutines left blocked at the end of an execution
// exit through their defers before the subtest returns (so they may still
// use the T).
func TestDyingRunsDefers(t *testing.T) {
	var defers, started atomic.Int32
	res := search(t, Config{Strategy: "random", Seed: 2, MaxExecs: 4, MaxSteps: 200}, func(t *testing.T) {
		ch := MakeChan[int](0)
		var mu Mutex
		for range 2 {
			Go(func() {
				started.Add(1)
				defer defers.Add(1)
				defer t.Log("leftover goroutine exits")
				mu.Lock()
				defer mu.Unlock()
				Recv(ch)
			})
		}
		Gosched()
		panic("end the execution early")
	})
	if res.Verdict != VerdictError || res.Failure.Kind != FailPanic {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if n, m := defers.Load(), started.Load(); n != m || m == 0 {
		t.Errorf("%d deferred calls ran, %d goroutines started", n, m)
	}
}

// TestRunTestConfig drives RunTest through CONFIRM_CONFIG.
func TestRunTestConfig(t *testing.T) {
	dir := t.TempDir()
	resultFile := filepath.Join(dir, "result.json")
	writeConfig := func(cfg Config) {
		cfg.ResultFile = resultFile
		data, _ := json.Marshal(cfg)
		path := filepath.Join(dir, "config.json")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Setenv(EnvConfig, path)
	}
	runs := 0
	body := func(t *testing.T) {
		runs++
		var wg WaitGroup
		wg.Go(func() {})
		wg.Wait()
	}
	writeConfig(Config{Strategy: "random", MaxExecs: 7})
	RunTest(t, body)
	var res Result
	data, err := os.ReadFile(resultFile)
	if err == nil {
		err = json.Unmarshal(data, &res)
	}
	if err != nil {
		t.Fatal(err)
	}
	// Two serial executions start the search, then the strategy's: 7 in
	// all.
	if res.Verdict != VerdictNone || res.Stats.Executions != 7 || runs != 7 || res.Test != t.Name() {
		t.Errorf("result %+v after %d runs", res, runs)
	}
	runs = 0
	writeConfig(Config{Test: "TestSomethingElse", MaxExecs: 7})
	RunTest(t, body)
	if runs != 1 {
		t.Errorf("a test the config does not name ran %d times, want 1", runs)
	}
}

// TestRunTestFailure checks the test-failure oracle and the result file in
// a child process (a failed subtest fails its parents).
func TestRunTestFailure(t *testing.T) {
	if os.Getenv("CONFIRM_RT_CHILD") == "1" {
		RunTest(t, func(t *testing.T) {
			n := 0
			var wg WaitGroup
			for range 2 {
				wg.Go(func() {
					v := n
					Gosched()
					n = v + 1
				})
			}
			wg.Wait()
			if n != 2 {
				t.Errorf("lost update: n = %d", n)
			}
		})
		return
	}
	dir := t.TempDir()
	resultFile := filepath.Join(dir, "result.json")
	data, _ := json.Marshal(Config{Strategy: "random", Seed: 4, MaxExecs: 200, ResultFile: resultFile})
	cfgPath := filepath.Join(dir, "config.json")
	if err := os.WriteFile(cfgPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := execpkg.Command(os.Args[0], "-test.run=^TestRunTestFailure$")
	cmd.Env = append(os.Environ(), "CONFIRM_RT_CHILD=1", EnvConfig+"="+cfgPath)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("child passed; output:\n%s", out)
	}
	if !strings.Contains(string(out), "lost update") {
		t.Errorf("child output lacks the failure message:\n%s", out)
	}
	var res Result
	data, err = os.ReadFile(resultFile)
	if err == nil {
		err = json.Unmarshal(data, &res)
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != VerdictError || res.Failure == nil || res.Failure.Kind != FailTest || res.Token == "" {
		t.Fatalf("result %+v", res)
	}
}

// TestLeftoverExternalWaiter: a goroutine still waiting on an external
// channel after the body returned does not hold the execution up.
func TestLeftoverExternalWaiter(t *testing.T) {
	stop := make(chan struct{})
	defer close(stop)
	start := time.Now()
	res := search(t, Config{Strategy: "random", MaxExecs: 3, StallMillis: 20}, func(t *testing.T) {
		Go(func() { Recv(stop) })
		Gosched()
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestStraysAcrossExecutions: goroutines stuck in uncontrolled code at the
// end of each execution become strays; later executions identify callers
// by goroutine id and stay correct, and the strays exit once unblocked.
func TestStraysAcrossExecutions(t *testing.T) {
	var real sync.Mutex
	real.Lock()
	res := search(t, Config{Strategy: "random", Seed: 3, MaxExecs: 4, StallMillis: 20}, func(t *testing.T) {
		var mu Mutex
		n := 0
		var wg WaitGroup
		for range 2 {
			wg.Go(func() {
				mu.Lock()
				v := n
				Gosched()
				n = v + 1
				mu.Unlock()
			})
		}
		Go(func() {
			real.Lock() // stuck until the test ends
			v := n
			real.Unlock()
			mu.Lock()
			n = max(n, v)
			mu.Unlock()
		})
		wg.Wait()
		if n != 2 {
			t.Errorf("n = %d", n)
		}
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if n := strayCount.Load(); n == 0 {
		t.Errorf("no strays registered")
	}
	real.Unlock()
	deadline := time.Now().Add(2 * time.Second)
	for strayCount.Load() > 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n := strayCount.Load(); n != 0 {
		t.Errorf("%d strays left", n)
	}
}

// TestSubtests: t.Run under control runs the subtests as controlled
// goroutines (a deadlock inside one is found) and returns their result.
func TestSubtests(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 5, MaxExecs: 200}, func(t *testing.T) {
		for _, name := range []string{"ordered", "abba"} {
			ok := Run(t, name, func(t *testing.T) {
				abba(name == "ordered")(t)
			})
			if !ok {
				t.Errorf("subtest %s failed", name)
			}
		}
	})
	if res.Verdict != VerdictError || res.Failure.Kind != FailDeadlock {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	var subtests int
	for _, ev := range res.Trace {
		if ev.Op == "subtest" {
			subtests++
		}
	}
	if subtests == 0 {
		t.Errorf("no subtest wait in the trace: %+v", res.Trace)
	}
	twin := search(t, Config{Strategy: "random", Seed: 5, MaxExecs: 50}, func(t *testing.T) {
		for _, name := range []string{"a", "b"} {
			if !Run(t, name, abba(true)) {
				t.Errorf("subtest %s failed", name)
			}
		}
	})
	if twin.Verdict != VerdictNone {
		t.Fatalf("twin: verdict %q failure %+v", twin.Verdict, twin.Failure)
	}
}

// TestPackageChannel: a channel made before the search (package state) is
// internal to every execution: an unbuffered rendezvous on it works, and
// its closing persists.
func TestPackageChannel(t *testing.T) {
	t.Setenv(EnvConfig, "set")
	if !searchEnabled() {
		t.Skip("the search flag was read before this test set the variable")
	}
	pkgCh := MakeChan[int](0)
	done := MakeChan[struct{}](1)
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
		Go(func() { Send(pkgCh, 5) })
		if v := Recv(pkgCh); v != 5 {
			t.Errorf("got %d", v)
		}
		Send(done, struct{}{}) // buffered: its real buffer is used
		Recv(done)
	})
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
}

// TestBudgetAndBadConfig: the wall-time budget bounds a search, and a
// config naming an unknown strategy gives verdict invalid with the cause.
func TestBudgetAndBadConfig(t *testing.T) {
	start := time.Now()
	res := search(t, Config{Strategy: "pct", BudgetMillis: 100}, func(t *testing.T) {
		var wg WaitGroup
		wg.Go(func() {})
		wg.Wait()
	})
	if d := time.Since(start); res.Verdict != VerdictNone || res.Stats.Executions == 0 || d > 3*time.Second {
		t.Errorf("budget search: verdict %q, %d executions in %v", res.Verdict, res.Stats.Executions, d)
	}
	res = search(t, Config{Strategy: "dfs"}, func(t *testing.T) {})
	if res.Verdict != VerdictInvalid || !strings.Contains(res.Error, `unknown strategy "dfs"`) {
		t.Errorf("bad strategy: verdict %q error %q", res.Verdict, res.Error)
	}
	res = search(t, Config{Strategy: "replay", Replay: "v2.xyz"}, func(t *testing.T) {})
	if res.Verdict != VerdictInvalid || !strings.Contains(res.Error, "does not start with") {
		t.Errorf("bad token: verdict %q error %q", res.Verdict, res.Error)
	}
}

// TestForeignGoroutine: a goroutine the runtime did not start that calls
// an operation while the execution is idle is recognised; from then on
// callers are identified by goroutine id, so such goroutines are never
// taken for the turn holder and get the real primitives, even while they
// hammer the sync types during executions.
func TestForeignGoroutine(t *testing.T) {
	defer foreignSeen.Store(false)
	var fm Mutex
	pokes := 0
	ext := make(chan int)
	go func() {
		// Wait until the body is parked on the external channel and
		// nobody holds the turn.
		for {
			if e := active.Load(); e != nil {
				e.mu.Lock()
				idle := e.cur == nil && e.nExt > 0
				e.mu.Unlock()
				if idle {
					break
				}
			}
			time.Sleep(100 * time.Microsecond)
		}
		fm.Lock()
		pokes++
		fm.Unlock()
		ext <- pokes
	}()
	res := search(t, Config{Strategy: "random", MaxExecs: 1}, func(t *testing.T) {
		Recv(ext)
	})
	if res.Verdict != VerdictNone || !foreignSeen.Load() {
		t.Fatalf("verdict %q failure %+v, foreign seen %v", res.Verdict, res.Failure, foreignSeen.Load())
	}

	stop := make(chan struct{})
	foreignDone := make(chan int)
	running := make(chan struct{})
	go func() {
		n := 0
		for {
			fm.Lock()
			n++
			fm.Unlock()
			if n == 1 {
				close(running)
			}
			select {
			case <-stop:
				foreignDone <- n
				return
			default:
			}
		}
	}()
	// The foreign goroutine locks before and during the search (on a
	// loaded machine it may not get a CPU before the search is over, so
	// the search starts once it has locked once).
	<-running
	res = search(t, Config{Strategy: "random", Seed: 6, MaxExecs: 60}, func(t *testing.T) {
		var mu Mutex
		var wg WaitGroup
		total := 0
		for range 3 {
			wg.Go(func() {
				for range 3 {
					mu.Lock()
					v := total
					Gosched()
					total = v + 1
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if total != 9 {
			t.Errorf("total = %d", total)
		}
	})
	close(stop)
	n := <-foreignDone
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if n == 0 {
		t.Errorf("the foreign goroutine never ran")
	}
}

// TestForeignCallerWhileTurnHeld: a goroutine the runtime did not start
// (a net/http handler, a time.AfterFunc callback) calls an operation while
// a controlled goroutine holds the turn. Its stack is not the turn
// holder's, so it is identified exactly, gets the real primitive, and is
// not taken for the turn holder.
func TestForeignCallerWhileTurnHeld(t *testing.T) {
	defer foreignSeen.Store(false)
	var fm Mutex
	var done atomic.Bool
	start := make(chan struct{})
	go func() {
		<-start
		fm.Lock()
		done.Store(true)
		fm.Unlock()
	}()
	res := search(t, Config{Strategy: "random", MaxExecs: 1}, func(t *testing.T) {
		close(start)
		deadline := time.Now().Add(100 * time.Millisecond)
		for !done.Load() && time.Now().Before(deadline) {
			// Holds the turn, computing outside instrumented code.
		}
		if !done.Load() {
			t.Errorf("the foreign goroutine did not get the real mutex")
		}
	})
	if res.Verdict != VerdictNone {
		t.Errorf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	if res.Stats.Steps != 1 {
		t.Errorf("%d scheduling points, want 1 (the body's start): the foreign goroutine's operations were taken for the body's", res.Stats.Steps)
	}
	if !foreignSeen.Load() || res.Stats.ForeignOps < 2 {
		t.Errorf("the foreign goroutine was not noticed (foreign operations %d, want 2)", res.Stats.ForeignOps)
	}
}

// TestWaitsInRuntime: a goroutine blocked in the scheduler's own code
// (its lock, a subtest's start) is not blocked in uncontrolled code.
func TestWaitsInRuntime(t *testing.T) {
	tests := []struct {
		name, dump string
		want       bool
	}{
		{"scheduler lock", "sync.Mutex.Lock]:\ninternal/sync.runtime_SemacquireMutex(...)\n\t" + stdSrc + "runtime/sema.go:95 +0x25\nsync.(*Mutex).Lock(...)\n\t" + stdSrc + "sync/mutex.go:46\nrt.enter()\n\t" + rtDir + "sched.go:340 +0x1\nuser.F()\n\t/m/user.go:3", true},
		{"dependency", "select]:\ngolang.org/x/sync/semaphore.(*Weighted).Acquire(...)\n\t/go/pkg/mod/golang.org/x/sync/semaphore/semaphore.go:60 +0x1\nuser.F()\n\t/m/user.go:3", false},
		{"user code on a real mutex", "sync.Mutex.Lock]:\nsync.(*Mutex).Lock(...)\n\t" + stdSrc + "sync/mutex.go:46\nuser.F()\n\t/m/user.go:3", false},
	}
	for _, tt := range tests {
		if got := waitsInRuntime(tt.dump); got != tt.want {
			t.Errorf("%s: waitsInRuntime = %v, want %v", tt.name, got, tt.want)
		}
	}
}
