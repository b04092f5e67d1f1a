package rt

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"
)

// search runs a controlled search of body in the test process, without
// the serial executions that start a search (TestSerialFirst tests them).
func search(t *testing.T, cfg Config, body func(*testing.T)) *Result {
	t.Helper()
	cfg.NoSerial = true
	return runSearch(t, &cfg, body)
}

// expectPanic calls f and returns the message of its panic ("" if none).
func expectPanic(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = asError(r).Error()
		}
	}()
	f()
	return ""
}

func asError(r any) error {
	if err, ok := r.(error); ok {
		return err
	}
	return errors.New("non-error panic")
}

// TestPrimitives runs bodies that check the semantics of each modelled
// primitive under many schedules; a broken model makes the subtests fail.
func TestPrimitives(t *testing.T) {
	tests := []struct {
		name string
		body func(t *testing.T)
	}{
		{"unbuffered rendezvous in order", func(t *testing.T) {
			ch := MakeChan[int](0)
			Go(func() {
				for i := 1; i <= 5; i++ {
					Send(ch, i)
				}
				Close(ch)
			})
			want := 1
			for v, ok := Recv2(ch); ok; v, ok = Recv2(ch) {
				if v != want {
					t.Errorf("received %d, want %d", v, want)
				}
				want++
			}
			if want != 6 {
				t.Errorf("received %d values, want 5", want-1)
			}
		}},
		{"unbuffered send blocks until received", func(t *testing.T) {
			ch := MakeChan[int](0)
			var received atomic.Bool
			Go(func() {
				Gosched()
				received.Store(true)
				Recv(ch)
			})
			Send(ch, 1)
			if !received.Load() {
				t.Errorf("send completed before the receiver arrived")
			}
		}},
		{"buffered capacity", func(t *testing.T) {
			ch := MakeChan[int](2)
			Send(ch, 1)
			Send(ch, 2)
			if i := Select(true, SendCase(ch, 3)); i != -1 {
				t.Errorf("send to a full buffer chose case %d", i)
			}
			if v := Recv(ch); v != 1 {
				t.Errorf("got %d, want 1 (FIFO)", v)
			}
		}},
		{"close semantics", func(t *testing.T) {
			ch := MakeChan[int](1)
			Send(ch, 7)
			Close(ch)
			if v, ok := Recv2(ch); v != 7 || !ok {
				t.Errorf("buffered value after close: %d %v", v, ok)
			}
			if v, ok := Recv2(ch); v != 0 || ok {
				t.Errorf("recv from closed: %d %v, want 0 false", v, ok)
			}
			if msg := expectPanic(func() { Send(ch, 1) }); msg != "send on closed channel" {
				t.Errorf("send on closed: %q", msg)
			}
			if msg := expectPanic(func() { Close(ch) }); msg != "close of closed channel" {
				t.Errorf("close of closed: %q", msg)
			}
			var nilch chan int
			if msg := expectPanic(func() { Close(nilch) }); msg != "close of nil channel" {
				t.Errorf("close of nil: %q", msg)
			}
		}},
		{"close wakes blocked receivers", func(t *testing.T) {
			ch := MakeChan[int](0)
			done := MakeChan[bool](0)
			for range 2 {
				Go(func() {
					_, ok := Recv2(ch)
					Send(done, ok)
				})
			}
			Close(ch)
			for range 2 {
				if Recv(done) {
					t.Errorf("receiver got ok=true from a closed channel")
				}
			}
		}},
		{"nil channel and default", func(t *testing.T) {
			var nilch chan int
			var v int
			if i := Select(true, RecvCase(nilch, &v, nil), SendCase(nilch, 1)); i != -1 {
				t.Errorf("nil channel case chosen: %d", i)
			}
		}},
		{"select receives the value", func(t *testing.T) {
			a, b := MakeChan[string](0), MakeChan[string](0)
			Go(func() { Send(a, "a") })
			Go(func() { Send(b, "b") })
			got := map[string]bool{}
			for range 2 {
				var va, vb string
				var ok bool
				switch Select(false, RecvCase(a, &va, &ok), RecvCase(b, &vb, nil)) {
				case 0:
					if va != "a" || !ok {
						t.Errorf("case 0 got %q %v", va, ok)
					}
					got[va] = true
				case 1:
					if vb != "b" {
						t.Errorf("case 1 got %q", vb)
					}
					got[vb] = true
				default:
					t.Errorf("select without default returned default")
				}
			}
			if len(got) != 2 {
				t.Errorf("got %v", got)
			}
		}},
		{"select send to select receive", func(t *testing.T) {
			a := MakeChan[int](0)
			Go(func() {
				var v int
				Select(false, RecvCase(a, &v, nil))
				if v != 9 {
					t.Errorf("got %d", v)
				}
			})
			Select(false, SendCase(a, 9))
		}},
		{"mutex mutual exclusion", func(t *testing.T) {
			var mu Mutex
			var wg WaitGroup
			n := 0
			for range 3 {
				wg.Go(func() {
					for range 2 {
						mu.Lock()
						v := n
						Gosched()
						n = v + 1
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			if n != 6 {
				t.Errorf("n = %d, want 6", n)
			}
		}},
		{"trylock", func(t *testing.T) {
			var mu Mutex
			if !mu.TryLock() {
				t.Errorf("TryLock of a free mutex failed")
			}
			if mu.TryLock() {
				t.Errorf("TryLock of a held mutex succeeded")
			}
			mu.Unlock()
			if msg := expectPanic(mu.Unlock); !strings.Contains(msg, "unlock of unlocked mutex") {
				t.Errorf("double unlock: %q", msg)
			}
		}},
		{"rwmutex readers share, writer excludes", func(t *testing.T) {
			var rw RWMutex
			readers, release := MakeChan[int](0), MakeChan[int](0)
			var active atomic.Int32
			for range 2 {
				Go(func() {
					rw.RLock()
					active.Add(1)
					Send(readers, 1)
					Recv(release)
					active.Add(-1)
					rw.RUnlock()
				})
			}
			Recv(readers)
			Recv(readers) // both readers hold the read lock now
			if rw.TryLock() {
				t.Errorf("TryLock succeeded with readers inside")
			}
			Send(release, 1)
			Send(release, 1)
			rw.Lock()
			if n := active.Load(); n != 0 {
				t.Errorf("writer entered with %d readers", n)
			}
			rw.Unlock()
			l := rw.RLocker()
			l.Lock()
			if !rw.TryRLock() {
				t.Errorf("TryRLock failed with only readers")
			}
			rw.RUnlock()
			l.Unlock()
		}},
		{"waitgroup", func(t *testing.T) {
			var wg WaitGroup
			var n atomic.Int32
			for range 3 {
				wg.Add(1)
				Go(func() {
					defer wg.Done()
					n.Add(1)
				})
			}
			wg.Wait()
			if n.Load() != 3 {
				t.Errorf("Wait returned with %d of 3 done", n.Load())
			}
			if msg := expectPanic(wg.Done); msg != "sync: negative WaitGroup counter" {
				t.Errorf("negative counter: %q", msg)
			}
		}},
		{"once", func(t *testing.T) {
			var once Once
			var wg WaitGroup
			calls := 0
			for range 3 {
				wg.Go(func() { once.Do(func() { Gosched(); calls++ }) })
			}
			wg.Wait()
			if calls != 1 {
				t.Errorf("f ran %d times", calls)
			}
			v := OnceValue(func() int { calls++; return calls })
			if first, second := v(), v(); first != 2 || second != 2 {
				t.Errorf("OnceValue not cached")
			}
		}},
		{"cond", func(t *testing.T) {
			var mu Mutex
			c := NewCond(&mu)
			ready := 0
			var wg WaitGroup
			for range 2 {
				wg.Go(func() {
					mu.Lock()
					for ready == 0 {
						c.Wait()
					}
					ready++
					mu.Unlock()
				})
			}
			mu.Lock()
			ready = 1
			c.Broadcast()
			mu.Unlock()
			wg.Wait()
			if ready != 3 {
				t.Errorf("ready = %d", ready)
			}
		}},
		{"atomics", func(t *testing.T) {
			var n32 int32
			var i64 Int64
			var b Bool
			var v Value
			var p Pointer[int]
			var wg WaitGroup
			for range 3 {
				wg.Go(func() {
					AddInt32(&n32, 1)
					i64.Add(2)
					b.CompareAndSwap(false, true)
				})
			}
			wg.Wait()
			if LoadInt32(&n32) != 3 || i64.Load() != 6 || !b.Load() {
				t.Errorf("atomics: %d %d %v", n32, i64.Load(), b.Load())
			}
			x := 5
			p.Store(&x)
			v.Store("s")
			if *p.Load() != 5 || v.Load() != "s" || !CompareAndSwapInt32(&n32, 3, 4) || OrUint32(new(uint32), 1) != 0 {
				t.Errorf("atomic types")
			}
			var up unsafe.Pointer
			StorePointer(&up, unsafe.Pointer(&x))
			if LoadPointer(&up) != unsafe.Pointer(&x) {
				t.Errorf("pointer")
			}
		}},
		{"fair spin loop terminates", func(t *testing.T) {
			var flag Bool
			Go(func() { flag.Store(true) })
			for !flag.Load() {
				Gosched()
			}
		}},
		{"fair sleep polling terminates", func(t *testing.T) {
			var flag Bool
			Go(func() {
				for i := 0; i < 3; i++ {
					Sleep(1)
				}
				flag.Store(true)
			})
			for !flag.Load() {
				Sleep(1000)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, strategy := range []string{"random", "pct"} {
				res := search(t, Config{Strategy: strategy, Seed: 3, MaxExecs: 30, MaxSteps: 5000}, tt.body)
				if res.Verdict != VerdictNone {
					t.Fatalf("%s: verdict %q failure %+v", strategy, res.Verdict, res.Failure)
				}
				if res.Stats.Executions != 30 {
					t.Errorf("%s: %d executions, want 30", strategy, res.Stats.Executions)
				}
			}
		})
	}
}

// TestSelectChoiceVaries checks that a select with two ready cases takes
// each of them in some execution (the choice is a scheduling decision).
func TestSelectChoiceVaries(t *testing.T) {
	seen := map[int]int{}
	search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 40}, func(t *testing.T) {
		a, b := MakeChan[int](1), MakeChan[int](1)
		Send(a, 1)
		Send(b, 2)
		var v int
		seen[Select(false, RecvCase(a, &v, nil), RecvCase(b, &v, nil))]++
	})
	if seen[0] == 0 || seen[1] == 0 {
		t.Errorf("choices %v, want both cases", seen)
	}
}

// TestOutsideControl checks that the types behave like the real ones
// outside an execution.
func TestOutsideControl(t *testing.T) {
	var mu Mutex
	var wg WaitGroup
	n := 0
	for range 4 {
		wg.Add(1)
		Go(func() {
			defer wg.Done()
			for range 100 {
				mu.Lock()
				n++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if n != 400 {
		t.Errorf("n = %d", n)
	}
	ch := MakeChan[int](0)
	Go(func() { Send(ch, 3) })
	var v int
	if i := Select(false, RecvCase(ch, &v, nil)); i != 0 || v != 3 {
		t.Errorf("select %d %d", i, v)
	}
	var once Once
	once.Do(func() { n++ })
	once.Do(func() { n++ })
	if n != 401 {
		t.Errorf("once ran twice")
	}
}

// TestSyncValuesStayZero: under control, sync values keep their model
// state in the execution, so one back at rest equals a zero value, as a
// real one does (tests compare reset structs with reflect.DeepEqual).
func TestSyncValuesStayZero(t *testing.T) {
	type guarded struct {
		mu  Mutex
		rw  RWMutex
		wg  WaitGroup
		n   int
		r   int
		cnd Cond
	}
	res := search(t, Config{Strategy: "random", Seed: 1, MaxExecs: 20}, func(t *testing.T) {
		x := &guarded{}
		x.cnd.L = &x.mu
		x.wg.Add(2)
		for range 2 {
			Go(func() {
				defer x.wg.Done()
				x.mu.Lock()
				x.n++
				x.cnd.Broadcast()
				x.mu.Unlock()
				x.rw.RLock()
				_ = x.r
				x.rw.RUnlock()
			})
		}
		x.rw.Lock()
		x.r++
		x.rw.Unlock()
		x.wg.Wait()
		x.n, x.r, x.cnd.L = 0, 0, nil
		if !reflect.DeepEqual(x, &guarded{}) {
			panic(fmt.Sprintf("sync values at rest differ from zero ones: %+v", x))
		}
		if x.mu != (Mutex{}) {
			panic("an unlocked Mutex is not == Mutex{}")
		}
	})
	if res.Verdict != VerdictNone {
		t.Errorf("verdict %q: %+v", res.Verdict, res.Failure)
	}
}
