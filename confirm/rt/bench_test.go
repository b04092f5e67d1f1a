package rt

import (
	"sync"
	"testing"
	"time"
)

// benchBody is a 10-goroutine test body of about 100 scheduling points:
// each worker takes a mutex four times and reports on a channel.
func benchBody() {
	var mu Mutex
	var wg WaitGroup
	done := MakeChan[int](10)
	n := 0
	for range 10 {
		wg.Add(1)
		Go(func() {
			defer wg.Done()
			for range 4 {
				mu.Lock()
				n++
				mu.Unlock()
			}
			Send(done, 1)
		})
	}
	wg.Wait()
	for range 10 {
		Recv(done)
	}
}

// execBench runs b.N executions of body under the strategy cfg names,
// starting the search over when it ends, and reports scheduling points
// and executions per second.
func execBench(b *testing.B, cfg *Config, body func()) {
	s, err := newStrategy(cfg, "Bench")
	if err != nil {
		b.Fatal(err)
	}
	capturePCs.Store(wantsStacks(s))
	defer capturePCs.Store(false)
	steps := 0
	var prev *exec
	b.ResetTimer()
	start := time.Now()
	for n := 0; n < b.N; n++ {
		s.Begin(n)
		e := newExec(cfg, n, s)
		e.reuse(prev)
		prev = e
		e.runMain(body, 0)
		if e.failure != nil {
			b.Fatalf("failure: %+v", e.failure)
		}
		steps += e.step
		if !s.End(&Outcome{Steps: e.step}) {
			s, _ = newStrategy(cfg, "Bench") // exhausted: start over
		}
	}
	d := time.Since(start).Seconds()
	b.ReportMetric(float64(steps)/d, "points/s")
	b.ReportMetric(float64(b.N)/d, "execs/s")
	b.ReportMetric(float64(steps)/float64(b.N), "points/exec")
}

// BenchmarkExecRandom and BenchmarkExecPCT run benchBody (10 goroutines,
// 142 scheduling points) under the random and pct strategies.
func BenchmarkExecRandom(b *testing.B) {
	execBench(b, &Config{Strategy: "random", Seed: 1}, benchBody)
}

func BenchmarkExecPCT(b *testing.B) {
	execBench(b, &Config{Strategy: "pct", Seed: 1}, benchBody)
}

// BenchmarkHandoff measures the bare goroutine handoff the scheduler uses
// (a send on the next goroutine's buffered channel, then a receive on
// one's own), for comparison with the cost of a scheduling point.
func BenchmarkHandoff(b *testing.B) {
	a, c := make(chan struct{}, 1), make(chan struct{}, 1)
	go func() {
		for range a {
			c <- struct{}{}
		}
	}()
	b.ResetTimer()
	for range b.N {
		a <- struct{}{}
		<-c
	}
	close(a)
	b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "handoffs/s")
}

// BenchmarkHandoffMutex measures the alternative handoff through locked
// mutexes (wake = Unlock of the other's mutex, park = Lock of one's own).
func BenchmarkHandoffMutex(b *testing.B) {
	var a, c sync.Mutex
	a.Lock()
	c.Lock()
	stop := false
	go func() {
		for {
			a.Lock()
			if stop {
				return
			}
			c.Unlock()
		}
	}()
	b.ResetTimer()
	for range b.N {
		a.Unlock()
		c.Lock()
	}
	b.StopTimer()
	stop = true
	a.Unlock()
	b.ReportMetric(float64(2*b.N)/b.Elapsed().Seconds(), "handoffs/s")
}

// accessBody is a 4-goroutine test body of instrumented reads and
// writes: whole reads a two-field struct whole at each read (each read
// then checks both fields' histories), or one int field.
func accessBody(whole bool) func() {
	return func() {
		var mu Mutex
		var wg WaitGroup
		var st struct{ fail, ok int }
		for range 4 {
			wg.Add(1)
			Go(func() {
				defer wg.Done()
				for range 8 {
					mu.Lock()
					W(&st.ok, 0).V(st.ok + 1)
					if whole {
						_ = Rd(&st, 1)
					} else {
						_ = Rd(&st.fail, 1)
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}
}

// BenchmarkExecAccess and BenchmarkExecAccessWhole run accessBody under
// the random strategy: the cost of a read of one variable, and of a
// struct read whole.
func BenchmarkExecAccess(b *testing.B) {
	execBench(b, &Config{Strategy: "random", Seed: 1}, accessBody(false))
}

func BenchmarkExecAccessWhole(b *testing.B) {
	execBench(b, &Config{Strategy: "random", Seed: 1}, accessBody(true))
}
