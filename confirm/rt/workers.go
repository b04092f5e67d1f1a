package rt

import (
	"sync"
	"time"
)

// Controlled goroutines run on pooled real goroutines (workers). A worker
// whose controlled goroutine returns (normally, or after a recovered
// panic) parks and runs the next controlled goroutine instead of exiting,
// so that its stack, grown on the scheduler's deep call path, is not
// grown again from scratch in every execution. A worker whose goroutine
// ended through runtime.Goexit (t.FailNow, dying-mode kills), or that
// outlived its execution (a stray), is not reused. At most as many
// workers stay parked as the largest execution had goroutines, and a
// parked worker exits when it is not needed for workerIdle or when a
// search ends (releaseWorkers).
var workers struct {
	mu   sync.Mutex
	idle []*worker // parked workers, the most recently parked last
	high int       // the most goroutines one execution had: the bound of idle
	tick uint64    // reap rounds so far
	reap *time.Timer
}

// workerIdle is how long a parked worker may wait for a goroutine to run
// (between one and two times this).
const workerIdle = time.Second

// maxIdleWorkers bounds the pool whatever the executions' sizes.
const maxIdleWorkers = 1024

// A worker is a pooled real goroutine; jobs hands it the next controlled
// goroutine to run, or the zero job to make it exit.
type worker struct {
	jobs chan job
	tick uint64 // workers.tick when it parked
	goid int64  // its goroutine id, known once it runs
}

// A job is a controlled goroutine and its function.
type job struct {
	g *G
	f func()
}

// spawn runs the controlled goroutine g, whose function is f and which
// holds the turn (or is to die), on a parked worker or a new one.
func spawn(g *G, f func()) {
	workers.mu.Lock()
	workers.high = max(workers.high, min(g.id+1, maxIdleWorkers))
	var w *worker
	if n := len(workers.idle); n > 0 {
		w = workers.idle[n-1]
		workers.idle[n-1] = nil
		workers.idle = workers.idle[:n-1]
	}
	workers.mu.Unlock()
	if w != nil {
		g.goid.Store(w.goid)
		w.jobs <- job{g, f}
		return
	}
	w = &worker{jobs: make(chan job, 1)}
	go w.loop(job{g, f})
}

// loop runs controlled goroutines until the worker is no longer needed.
// It does not return when a goroutine's function Goexits: the worker
// ends with it.
func (w *worker) loop(j job) {
	// Its goroutine id identifies every goroutine it runs (a stack dump
	// does not reliably show run's arguments), so it is worth parsing
	// once per worker.
	w.goid = curGoid()
	j.g.goid.Store(w.goid)
	for j.g != nil {
		e := j.g.e
		e.run(j.g, j.f)
		e.mu.Lock()
		stray := j.g.stray
		e.mu.Unlock()
		if stray {
			return
		}
		j = w.park()
	}
}

// park waits for the next goroutine to run; the zero job means exit.
func (w *worker) park() job {
	workers.mu.Lock()
	if len(workers.idle) >= workers.high {
		workers.mu.Unlock()
		return job{}
	}
	w.tick = workers.tick
	workers.idle = append(workers.idle, w)
	if workers.reap == nil {
		workers.reap = time.AfterFunc(workerIdle, reapWorkers)
	}
	workers.mu.Unlock()
	return <-w.jobs
}

// reapWorkers makes the workers that stayed parked for a whole reap
// period exit, and schedules itself again while workers are parked.
func reapWorkers() {
	workers.mu.Lock()
	workers.tick++
	var stale []*worker
	keep := workers.idle[:0]
	for _, w := range workers.idle {
		if w.tick+1 < workers.tick {
			stale = append(stale, w)
		} else {
			keep = append(keep, w)
		}
	}
	clear(workers.idle[len(keep):])
	workers.idle = keep
	if workers.reap != nil {
		if len(keep) > 0 {
			workers.reap.Reset(workerIdle)
		} else {
			workers.reap = nil
		}
	}
	workers.mu.Unlock()
	for _, w := range stale {
		w.jobs <- job{}
	}
}

// releaseWorkers makes every parked worker exit, at the end of a search.
func releaseWorkers() {
	workers.mu.Lock()
	idle := workers.idle
	workers.idle = nil
	workers.high = 0
	if workers.reap != nil {
		workers.reap.Stop()
		workers.reap = nil
	}
	workers.mu.Unlock()
	for _, w := range idle {
		w.jobs <- job{}
	}
}
