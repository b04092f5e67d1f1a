// Package feeds starts goroutines in constructors that return the object
// the goroutine uses; the caller goes on using it.
package feeds

import "sync"

// A Feed counts the events its goroutine delivers.
type Feed struct {
	mu     sync.Mutex
	filter func(int) bool
	n      int
}

func (f *Feed) setFilter(fn func(int) bool) {
	f.filter = fn // want `possible data race: \(feeds.Feed\).filter is written by feeds.Even and read by goroutine feeds.Start\$1`
}

func (f *Feed) onEvent(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.filter != nil && !f.filter(v) {
		return
	}
	f.n++
}

// Start returns a feed its goroutine delivers events to, and a channel
// closed when the goroutine is done.
func Start(events <-chan int) (*Feed, <-chan struct{}) {
	f := &Feed{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := range events {
			f.onEvent(v)
		}
	}()
	return f, done
}

// Even filters while the goroutine runs, without the lock.
func Even(events chan int) {
	f, done := Start(events)
	f.setFilter(func(v int) bool { return v%2 == 0 })
	close(events)
	<-done
}

// After filters once the goroutine is done.
func After(events chan int) {
	f, done := Start(events)
	close(events)
	<-done
	f.setFilter(nil)
}

// A Cron adds entries itself while stopped, and hands them to its
// running loop over a channel once Start set running.
type Cron struct {
	mu      sync.Mutex
	running bool
	entries []int
	add     chan int
}

func (c *Cron) Start() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.running {
		return
	}
	c.running = true
	go c.run()
}

func (c *Cron) run() {
	for e := range c.add {
		c.entries = append(c.entries, e) // want `possible data race: \(feeds.Cron\).entries is written by goroutine \(\*feeds.Cron\).run and read by \(\*feeds.Cron\).Len`
	}
}

func (c *Cron) Add(e int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.running {
		c.entries = append(c.entries, e)
		return
	}
	c.add <- e
}

// Len reads the entries whatever the state.
func (c *Cron) Len() int {
	return len(c.entries) // want `possible data race: \(feeds.Cron\).entries is read by feeds.Schedule and written by goroutine \(\*feeds.Cron\).run`
}

// Running adds while the loop runs.
func Running(c *Cron) {
	c.Start()
	c.Add(1)
}

// Schedule reads while the loop runs: a race.
func Schedule(c *Cron) int {
	c.Start()
	return c.Len()
}

// A Daemon's start waits for its goroutine to report, but the goroutine
// goes on after the report and sets waitCh (moby 47287).
type Daemon struct {
	waitCh chan struct{}
	pid    int
}

func (d *Daemon) start() error {
	started := make(chan error)
	go func() {
		d.pid = 1 // before the report: ordered
		started <- nil
		w := make(chan struct{})
		d.waitCh = w
		close(w)
	}()
	return <-started
}

// Monitor waits for the daemon it started to exit.
func (d *Daemon) Monitor() int {
	if err := d.start(); err != nil {
		return 0
	}
	pid := d.pid
	<-d.waitCh // want `possible data race: \(feeds.Daemon\).waitCh is read by \(\*feeds.Daemon\).Monitor and written by goroutine \(\*feeds.Daemon\).start\$1`
	return pid
}

// A Queue's flush loop reads its entries' stamps under the lock; Age
// edits one, found through get, without it (kubernetes 81148 and 88331).
type Entry struct{ Stamp int }

type entries struct{ m map[string]*Entry }

func (e *entries) get(k string) *Entry { return e.m[k] } // want `possible data race: \(\*feeds.entries\).get reads map contents of \(feeds.entries\).m without holding \(feeds.Queue\).mu`

type Queue struct {
	mu   sync.Mutex
	q    *entries
	stop chan struct{}
}

func NewQueue() *Queue {
	q := &Queue{q: &entries{m: map[string]*Entry{}}, stop: make(chan struct{})}
	go q.flush()
	return q
}

func (q *Queue) flush() {
	for {
		select {
		case <-q.stop:
			return
		default:
		}
		q.mu.Lock()
		for _, e := range q.q.m {
			_ = e.Stamp
		}
		q.mu.Unlock()
	}
}

func (q *Queue) Add(k string) {
	q.mu.Lock()
	q.q.m[k] = &Entry{}
	q.mu.Unlock()
}

// Age edits an entry while the loop runs.
func Age(k string) {
	q := NewQueue()
	q.Add(k)
	q.q.get(k).Stamp-- // want `possible data race: \(feeds.Entry\).Stamp is written by feeds.Age and read by goroutine \(\*feeds.Queue\).flush`
	close(q.stop)
}
