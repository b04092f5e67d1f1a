package workers

import "sync"

// DoPieceFunc does one piece of work.
type DoPieceFunc func(piece int)

// Parallelize runs do for every piece in workers goroutines at once and
// waits for them: the function a caller passes runs in several copies.
func Parallelize(workers, pieces int, do DoPieceFunc) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for p := w; p < pieces; p += workers {
				do(p)
			}
		}(w)
	}
	wg.Wait()
}

// ForEach hands its callback on to Parallelize inside a literal: it runs
// in copies too.
func ForEach(plugins []*Plugin, f func(*Plugin)) {
	Parallelize(2, len(plugins), func(i int) { f(plugins[i]) })
}

// A Plugin counts the calls made to it.
type Plugin struct {
	mu     sync.Mutex
	calls  int
	locked int
}

// Filter counts without a lock.
func (p *Plugin) Filter() {
	p.calls++ // want `\(workers.Plugin\).calls is written by goroutine \(\*workers.Scheduler\).Schedule\$1 and written by another instance of \(\*workers.Scheduler\).Schedule\$1`
}

// SafeFilter counts under the plugin's lock.
func (p *Plugin) SafeFilter() {
	p.mu.Lock()
	p.locked++
	p.mu.Unlock()
}

// A Scheduler runs its plugins for every node, in parallel.
type Scheduler struct {
	plugins []*Plugin
	fits    []bool
	seen    int
}

// Schedule's callback calls every plugin from every copy: the unlocked
// count races; each copy writes its own element of fits.
func (s *Scheduler) Schedule(nodes int) {
	s.fits = make([]bool, nodes)
	check := func(node int) {
		for _, p := range s.plugins {
			p.Filter()
			p.SafeFilter()
		}
		s.fits[node] = true
	}
	Parallelize(2, nodes, check)
}

// Count counts through ForEach's copies.
func (s *Scheduler) Count() {
	ForEach(s.plugins, func(*Plugin) {
		s.seen++ // want `\(workers.Scheduler\).seen is written by goroutine \(\*workers.Scheduler\).Count\$1 and written by another instance of \(\*workers.Scheduler\).Count\$1`
	})
}

// Serial calls its callback in one goroutine at a time: silent.
func Serial(pieces int, do func(int)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for p := 0; p < pieces; p++ {
			do(p)
		}
	}()
	<-done
}

// Total counts through Serial: silent.
func (s *Scheduler) Total() {
	Serial(3, func(int) { s.seen++ })
}

// Retry runs f in a goroutine once per attempt and waits for each
// attempt before the next: one copy at a time.
func Retry(attempts int, f func()) {
	for i := 0; i < attempts; i++ {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			f()
		}()
		wg.Wait()
	}
}

// Attempts counts through Retry's attempts: silent.
func (s *Scheduler) Attempts() {
	Retry(3, func() { s.seen++ })
}

// A Queue hands each of its items to one worker.
type Queue struct {
	mu    sync.Mutex
	items []*Item
	head  int
}

// An Item is worked on by the worker that took it.
type Item struct{ done int }

// Work's workers take items by the queue's head, one each: silent, where
// ranging over every item from every worker (Schedule) is reported.
func (q *Queue) Work(workers int) {
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				q.mu.Lock()
				if q.head == len(q.items) {
					q.mu.Unlock()
					return
				}
				it := q.items[q.head]
				q.head++
				q.mu.Unlock()
				it.done++
			}
		}()
	}
	wg.Wait()
}

// A Sched runs one goroutine per shard, on that shard alone.
type Sched struct{ shards []shard }

type shard struct {
	wake chan struct{}
	n    int
}

// NewSched sets each shard up before it starts the shard's goroutine:
// the next round's write is to the next shard, silent.
func NewSched(n int) *Sched {
	s := &Sched{shards: make([]shard, n)}
	for i := range s.shards {
		s.shards[i].wake = make(chan struct{}, 1)
		go s.run(&s.shards[i])
	}
	return s
}

func (s *Sched) run(sh *shard) {
	for range sh.wake {
		sh.n++ // want `\(workers.shard\).n is written by goroutine \(\*workers.Sched\).run and written by workers.ResetAfter`
	}
}

// NewSchedBy sets each shard up through a helper: silent too.
func NewSchedBy(n int) *Sched {
	s := &Sched{shards: make([]shard, n)}
	for i := range s.shards {
		s.setup(i)
		go s.run(&s.shards[i])
	}
	return s
}

func (s *Sched) setup(i int) {
	for j := range s.shards {
		if j == i {
			s.shards[j].wake = make(chan struct{}, 1)
		}
	}
}

// ResetAfter starts each shard's goroutine, then writes the same shard in
// the same round: reported (at the goroutine's side, in run).
func ResetAfter(s *Sched) {
	for i := range s.shards {
		go s.run(&s.shards[i])
		s.shards[i].n = 0
	}
}

// ParallelizeLocked runs do from several workers, each call under the
// helper's lock.
func ParallelizeLocked(workers, pieces int, do func(piece int)) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for p := w; p < pieces; p += workers {
				mu.Lock()
				do(p)
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
}

// Tally counts through ParallelizeLocked's copies, which its lock
// excludes from one another: silent.
func (s *Scheduler) Tally(n int) {
	ParallelizeLocked(4, n, func(int) { s.seen++ })
}
