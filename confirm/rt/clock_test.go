package rt

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// about reports whether the virtual duration d is want, give or take the
// nanosecond each clock reading adds.
func about(d, want time.Duration) bool { return d >= want && d <= want+time.Microsecond }

// TestVirtualClock checks time under control: one consistent clock that
// moves when everyone waits, and timers, tickers, AfterFunc and context
// deadlines on it. Each body panics when time misbehaves.
func TestVirtualClock(t *testing.T) {
	bodies := map[string]func(*testing.T){
		"sleep and check the elapsed time": func(t *testing.T) {
			start := Now()
			Sleep(50 * time.Millisecond)
			if d := Since(start); d < 50*time.Millisecond || d > 51*time.Millisecond {
				panic(fmt.Sprint("slept ", d))
			}
		},
		"sleepers wake in deadline order": func(t *testing.T) {
			var order []int
			var wg WaitGroup
			for _, d := range []int{3, 1, 2} {
				wg.Go(func() { Sleep(time.Duration(d) * time.Second); order = append(order, d) })
			}
			wg.Wait()
			if fmt.Sprint(order) != "[1 2 3]" {
				panic(fmt.Sprint("order ", order))
			}
		},
		"a timer fires after its duration": func(t *testing.T) {
			start := Now()
			tm := NewTimer(time.Second)
			at := Recv(tm.C)
			if !about(at.Sub(start), time.Second) || !about(Since(start), time.Second) {
				panic(fmt.Sprint("fired at ", at.Sub(start)))
			}
		},
		"a stopped timer does not fire; reset rearms": func(t *testing.T) {
			tm := NewTimer(time.Second)
			if !TimerStop(tm) || TimerStop(tm) {
				panic("Stop of a pending timer")
			}
			start := Now()
			TimerReset(tm, 2*time.Second)
			Recv(tm.C)
			if !about(Since(start), 2*time.Second) {
				panic(fmt.Sprint("reset timer fired after ", Since(start)))
			}
			late := After(time.Hour)
			select {
			case <-late:
				panic("After fired early")
			default:
			}
		},
		"a ticker ticks until stopped": func(t *testing.T) {
			start := Now()
			tk := NewTicker(time.Second)
			for i := 1; i <= 3; i++ {
				if at := Recv(tk.C); !about(at.Sub(start), time.Duration(i)*time.Second) {
					panic(fmt.Sprint("tick ", i, " at ", at.Sub(start)))
				}
			}
			TickerStop(tk)
		},
		"AfterFunc runs in a controlled goroutine": func(t *testing.T) {
			done := MakeChan[time.Duration](0)
			start := Now()
			AfterFunc(time.Minute, func() { Send(done, Since(start)) })
			if d := Recv(done); !about(d, time.Minute) {
				panic(fmt.Sprint("AfterFunc ran after ", d))
			}
		},
		"the clock is later at every reading": func(t *testing.T) {
			t1 := Now()
			t2 := Now()
			if !t2.After(t1) || Since(t1) <= 0 {
				panic(fmt.Sprint("readings ", t1, t2))
			}
		},
		"a context deadline passes on the clock": func(t *testing.T) {
			start := Now()
			ctx, cancel := WithTimeout(context.Background(), time.Second)
			defer cancel()
			child, cancelChild := context.WithCancel(ctx)
			defer cancelChild()
			if d, ok := ctx.Deadline(); !ok || !about(d.Sub(start), time.Second) {
				panic(fmt.Sprint("deadline ", d.Sub(start)))
			}
			Recv(ctx.Done())
			if !about(Since(start), time.Second) || !errors.Is(ctx.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				panic(fmt.Sprint("after the deadline: ", Since(start), ctx.Err(), context.Cause(ctx)))
			}
			if child.Err() == nil || !errors.Is(context.Cause(child), context.DeadlineExceeded) {
				panic(fmt.Sprint("child: ", child.Err(), context.Cause(child)))
			}
		},
		"a cancelled context is cancelled, not expired": func(t *testing.T) {
			ctx, cancel := WithTimeoutCause(context.Background(), time.Second, errors.New("too slow"))
			cancel()
			if ctx.Err() != context.Canceled {
				panic(fmt.Sprint("cancelled: ", ctx.Err()))
			}
			ctx2, cancel2 := WithTimeoutCause(context.Background(), time.Second, errors.New("too slow"))
			defer cancel2()
			Recv(ctx2.Done())
			if ctx2.Err() != context.DeadlineExceeded || context.Cause(ctx2).Error() != "too slow" {
				panic(fmt.Sprint("expired: ", ctx2.Err(), context.Cause(ctx2)))
			}
		},
		"time does not pass while the holder of a spin lock works": func(t *testing.T) {
			// A ticker nobody reads fires without waking anyone. The
			// holder's atomic load puts it behind the spinner for
			// fairness, but it does not spin: the clock must not race to
			// the horizon while only the spinner is a candidate.
			tk := NewTicker(time.Second)
			var sl, n uint32
			done := MakeChan[int](0)
			CompareAndSwapUint32(&sl, 0, 1)
			var wg WaitGroup
			wg.Go(func() {
				for !CompareAndSwapUint32(&sl, 0, 1) {
					Gosched()
				}
				StoreUint32(&sl, 0)
			})
			wg.Go(func() { Recv(done) })
			Gosched() // let the spinner spin
			start := Now()
			LoadUint32(&n)
			AddUint32(&n, 1)
			LoadUint32(&n)
			StoreUint32(&sl, 0)
			Close(done)
			TickerStop(tk)
			if d := Since(start); d > time.Second {
				panic(fmt.Sprint("the clock moved ", d, " while the holder worked"))
			}
			wg.Wait()
		},
		"spinners in back-off are not starved by a ticker": func(t *testing.T) {
			// A spin lock with exponential back-off, taken by three
			// goroutines and, on every tick, by a background one.
			// Time passes only after every spinner looked again, so
			// the spinners get the lock long before the horizon.
			var sl, n uint32
			lock := func() {
				backoff := 1
				for !CompareAndSwapUint32(&sl, 0, 1) {
					for range backoff {
						Gosched()
					}
					backoff = min(2*backoff, 16)
				}
			}
			unlock := func() { StoreUint32(&sl, 0) }
			start := Now()
			tk := NewTicker(time.Second)
			stop := MakeChan[int](0)
			Go(func() {
				for Select(false, RecvCase(stop, nil, nil), RecvCase(tk.C, nil, nil)) == 1 {
					lock()
					LoadUint32(&n)
					unlock()
				}
			})
			var wg WaitGroup
			for range 3 {
				wg.Go(func() { lock(); AddUint32(&n, 1); unlock() })
			}
			wg.Wait()
			Close(stop)
			TickerStop(tk)
			if d := Since(start); d > time.Minute {
				panic(fmt.Sprint("the spinners waited ", d))
			}
		},
		"a deadline wins the select against a slower sleeper": func(t *testing.T) {
			ctx, cancel := WithTimeout(context.Background(), 25*time.Millisecond)
			defer cancel()
			res := MakeChan[int](0)
			Go(func() {
				Sleep(100 * time.Millisecond)
				Select(false, SendCase(res, 1), RecvCase(ctx.Done(), nil, nil))
			})
			if Select(false, RecvCase(ctx.Done(), nil, nil), RecvCase(res, nil, nil)) != 0 {
				panic("the 100ms sleeper beat the 25ms deadline")
			}
		},
	}
	for name, body := range bodies {
		for _, strategy := range []string{"random", "pct"} {
			t.Run(name+"/"+strategy, func(t *testing.T) {
				res := search(t, Config{Strategy: strategy, Seed: 3, MaxExecs: 30}, body)
				if res.Verdict != VerdictNone {
					t.Fatalf("verdict %q failure %+v", res.Verdict, res.Failure)
				}
			})
		}
	}
}

// TestClockHorizon: goroutines blocked while only timers fire are hung
// once the clock passes the horizon; a test that only waits on time for
// ever is cut off.
func TestClockHorizon(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 3}, func(t *testing.T) {
		tk := NewTicker(time.Second)
		Go(func() {
			for {
				Recv(tk.C)
			}
		})
		Recv(MakeChan[int](0)) // nobody sends: hung, while the ticker ticks
	})
	if res.Verdict != VerdictError || res.Failure.Kind != FailDeadlock || !strings.Contains(res.Failure.Message, "of virtual time") {
		t.Errorf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
	res = search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 3}, func(t *testing.T) {
		for {
			Sleep(time.Hour)
		}
	})
	if res.Verdict != VerdictNone || res.Stats.Truncated != 3 {
		t.Errorf("sleeping for ever: verdict %q stats %+v", res.Verdict, res.Stats)
	}
}

// TestTimeWaitersAreNoLeak: goroutines left waiting on a ticker when the
// test returns (a janitor) are no leak.
func TestTimeWaitersAreNoLeak(t *testing.T) {
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
		tk := NewTicker(time.Minute)
		stop := MakeChan[int](0)
		Go(func() {
			for Select(false, RecvCase(tk.C, nil, nil), RecvCase(stop, nil, nil)) == 0 {
			}
		})
	})
	if res.Verdict != VerdictNone {
		t.Errorf("verdict %q failure %+v", res.Verdict, res.Failure)
	}
}

// TestRandReplays: the top-level math/rand functions draw from the
// execution's source, whose seed the token records, so that a replay
// draws the same numbers.
func TestRandReplays(t *testing.T) {
	var draws []int
	body := func(t *testing.T) {
		draws = draws[:0]
		var wg WaitGroup
		for range 2 {
			wg.Go(func() { draws = append(draws, RandIntn(1000), Rand2IntN(1000)) })
		}
		wg.Wait()
		if RandIntn(4) == 0 {
			panic("drew 0")
		}
	}
	res := search(t, Config{Strategy: "random", Seed: 9, MaxExecs: 200}, body)
	if res.Verdict != VerdictError {
		t.Fatalf("verdict %q: no execution drew 0 of 4", res.Verdict)
	}
	want := fmt.Sprint(draws)
	for range 5 {
		rep := search(t, Config{Strategy: "replay", Replay: res.Token}, body)
		if rep.Verdict != VerdictError || fmt.Sprint(draws) != want {
			t.Fatalf("replay: verdict %q, draws %v, want %s", rep.Verdict, draws, want)
		}
	}
}
