// Package goroutines holds the fixtures for memory shared between a
// goroutine and the code that starts it.
package goroutines

import (
	"fmt"
	"sync"
	"sync/atomic"
)

var hits int

// Global: the goroutine writes hits while the spawner reads it.
func Global() {
	go func() {
		hits++ // want `possible data race: goroutines.hits is written by goroutine goroutines.Global\$1 and read by goroutines.Global`
	}()
	fmt.Println(hits)
}

// Captured: sum is shared by reference with the closure.
func Captured(xs []int) int {
	sum := 0
	go func() {
		for _, x := range xs {
			sum += x // want `possible data race: captured variable sum in goroutines.Captured is written by goroutine goroutines.Captured\$1 and read by goroutines.Captured`
		}
	}()
	return sum
}

// Loop: every goroutine started in the loop writes the same variable.
func Loop(xs []int) int {
	var wg sync.WaitGroup
	total := 0
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			total += x // want `possible data race: captured variable total in goroutines.Loop is written by goroutine goroutines.Loop\$1 and written by another instance of goroutines.Loop\$1`
		}()
	}
	wg.Wait()
	return total
}

// Server's loop goroutine and Start share state through the receiver.
type Server struct {
	state int
	ch    chan int
}

func (s *Server) loop() {
	for v := range s.ch {
		s.state = v // want `possible data race: \(goroutines.Server\).state is written by goroutine \(\*goroutines.Server\).loop and read by \(\*goroutines.Server\).Start`
	}
}

func (s *Server) Start() int {
	go s.loop()
	return s.state
}

// Job is run through an interface by the goroutine.
type Job interface{ Run() }

type countJob struct{ done int }

func (j *countJob) Run() { j.bump() }

func (j *countJob) bump() {
	j.done++ // want `possible data race: \(goroutines.countJob\).done is written by goroutine \(\*goroutines.countJob\).Run and read by goroutines.Dispatch`
}

func Dispatch() int {
	j := &countJob{}
	var job Job = j
	go job.Run()
	return j.done
}

// Waited: the WaitGroup orders the goroutine's write before the read.
func Waited() int {
	var wg sync.WaitGroup
	n := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		n = 42
	}()
	wg.Wait()
	return n
}

// HandOff: the result is read after the goroutine signals the channel.
func HandOff() int {
	done := make(chan struct{})
	result := 0
	go func() {
		result = 7
		close(done)
	}()
	<-done
	return result
}

// HandOffValue passes ownership of a value through a channel.
type msg struct{ body string }

func HandOffValue() string {
	ch := make(chan *msg)
	go func() {
		m := <-ch
		m.body += "!"
		ch <- m
	}()
	m := &msg{}
	m.body = "hi"
	ch <- m
	m = <-ch
	return m.body
}

// Before: the spawner writes before the go statement only.
func Before() {
	cfg := 0
	cfg = 3
	go func() { fmt.Println(cfg) }()
}

// PerGoroutine: every goroutine works on its own data.
func PerGoroutine(n int) []int {
	var wg sync.WaitGroup
	out := make([]int, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			local := &msg{}
			local.body = fmt.Sprint(i)
			count := len(local.body)
			count++
			out[i] = count
		}()
	}
	wg.Wait()
	return out
}

// Locked: both sides hold the same mutex.
func Locked() int {
	var mu sync.Mutex
	n := 0
	go func() {
		mu.Lock()
		n++
		mu.Unlock()
	}()
	mu.Lock()
	defer mu.Unlock()
	return n
}

// Once: the configuration is initialised exactly once.
var (
	once sync.Once
	conf map[string]string
)

func config() map[string]string {
	once.Do(func() {
		conf = map[string]string{"a": "b"}
	})
	return conf
}

func UseConfig() string {
	go func() { fmt.Println(config()["a"]) }()
	return config()["a"]
}

// Collect appends under a mutex in the goroutines and reads the result
// after they are done: not a race.
func Collect(xs []int) []int {
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		out []int
	)
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			out = append(out, x*x)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

// Two goroutines of the same function write the same variable.
func Two() {
	n := 0
	go func() {
		n = 1 // want `possible data race: captured variable n in goroutines.Two is written by goroutine goroutines.Two\$1 and read by goroutine goroutines.Two\$2`
	}()
	go func() {
		fmt.Println(n)
	}()
}

// The worker reaches the spawner's object through its parameter.
type tally struct{ hits int }

func worker(t *tally) {
	t.hits++ // want `possible data race: \(goroutines.tally\).hits is written by goroutine goroutines.worker and read by goroutines.StartWorker`
}

func StartWorker() int {
	t := &tally{}
	t.hits = 1
	go worker(t)
	return t.hits
}

// Results come back over a channel the goroutine sends on: not a race.
func SendBack() int {
	res := make(chan int)
	count := 0
	go func() {
		count = 10
		res <- count
	}()
	v := <-res
	return v + count
}

// Fill writes a shared map from goroutines started in a loop.
func Fill(keys []string) map[string]int {
	m := map[string]int{}
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m[k] = i // want `possible data race: map contents of captured variable m in goroutines.Fill is written by goroutine goroutines.Fill\$1 and written by another instance of goroutines.Fill\$1`
		}()
	}
	wg.Wait()
	return m
}

// FillLocked does the same under a mutex: not a race.
func FillLocked(keys []string) map[string]int {
	m := map[string]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, k := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			m[k] = i
			mu.Unlock()
		}()
	}
	wg.Wait()
	for k := range m {
		delete(m, k)
	}
	return m
}

// Pump's goroutine keeps counting after Start returns, while callers may
// call Count.
type Pump struct {
	count int
	done  chan struct{}
	quit  chan struct{}
}

func (p *Pump) Start() {
	go p.run()
}

func (p *Pump) run() {
	defer close(p.done)
	for {
		select {
		case <-p.quit:
			return
		default:
			p.count++ // want `possible data race: \(goroutines.Pump\).count is written by goroutine \(\*goroutines.Pump\).run and read by \(\*goroutines.Pump\).Count \(callable while the goroutine runs\)`
		}
	}
}

func (p *Pump) Count() int {
	return p.count
}

// Stop waits for the goroutine before reading: not a race.
func (p *Pump) Stop() int {
	close(p.quit)
	<-p.done
	return p.count
}

// Task holds its work as a function value; the call graph finds it.
type Task struct {
	work func()
}

func RunTask() int {
	n := 0
	t := &Task{work: func() {
		n++ // want `possible data race: captured variable n in goroutines.RunTask is written by goroutine goroutines.RunTask\$1 and read by goroutines.RunTask`
	}}
	go t.work()
	return n
}

// Two samplers behind one interface-typed field: each updates its own
// count under its own lock; the fields are different memory. A third
// sampler updates its count without a lock.

type Sample interface{ Update(int64) }

type uniform struct {
	mu    sync.Mutex
	count int64
}

func (u *uniform) Update(int64) { u.mu.Lock(); u.count++; u.mu.Unlock() }

type decay struct {
	x     float64
	count int64
	mu    sync.Mutex
}

func (d *decay) Update(int64) { d.mu.Lock(); d.count++; d.mu.Unlock() }

type bare struct{ count int64 }

func (b *bare) Update(int64) {
	b.count++ // want `possible data race: \(goroutines.bare\).count is written by goroutine goroutines.Samplers\$1 and written by another instance of goroutines.Samplers\$1`
}

type Hist struct{ s Sample }

func NewHist(s Sample) *Hist   { return &Hist{s: s} }
func (h *Hist) Update(v int64) { h.s.Update(v) }

func Samplers() {
	h1, h2, h3 := NewHist(&uniform{}), NewHist(&decay{}), NewHist(&bare{})
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h1.Update(1)
			h2.Update(1)
			h3.Update(1)
		}()
	}
	wg.Wait()
}

// A function that calls the callback it is passed: what it accesses is
// the passed closure's, call by call.

func run(work func()) { work() }

var seq, par int

func Sequential() { run(func() { seq++ }) }

func ConcurrentQuiet() {
	for i := 0; i < 2; i++ {
		go func() { run(func() {}) }()
	}
}

func ConcurrentWrites() {
	for i := 0; i < 2; i++ {
		go func() { run(func() { par++ }) }() // want `possible data race: goroutines.par is written by goroutine goroutines.ConcurrentWrites\$1 and written by another instance of goroutines.ConcurrentWrites\$1`
	}
}

// retry hands run a closure that calls what retry was passed.

func retry(work func()) { run(func() { work() }) }

var tries int

func SequentialRetry() { retry(func() { tries++ }) }

func ConcurrentRetryQuiet() {
	for i := 0; i < 2; i++ {
		go func() { retry(func() {}) }()
	}
}

var retried int

func ConcurrentRetries() {
	for i := 0; i < 2; i++ {
		go func() { retry(func() { retried++ }) }() // want `possible data race: goroutines.retried is written by goroutine goroutines.ConcurrentRetries\$1 and written by another instance of goroutines.ConcurrentRetries\$1`
	}
}

// A call that waits (Take receives) orders what follows it after the
// goroutine's signal (Give sends), as a receive in place would.

type tokens struct{ ch chan struct{} }

func (t *tokens) Take() { <-t.ch }
func (t *tokens) Give() { t.ch <- struct{}{} }

func HandOver() int {
	t := &tokens{ch: make(chan struct{}, 1)}
	n := 0
	go func() { n = 1; t.Give() }()
	t.Take()
	return n
}

func ReadBeforeTake() int {
	t := &tokens{ch: make(chan struct{}, 1)}
	n := 0
	go func() { n = 1; t.Give() }() // want `possible data race: captured variable n in goroutines.ReadBeforeTake is written by goroutine goroutines.ReadBeforeTake\$1 and read by goroutines.ReadBeforeTake`
	r := n
	t.Take()
	return r
}

// A resource handed out by a call that waits and given back by a call
// that signals: how many goroutines may hold one at a time is not in the
// code, so what instances do while holding one is not reported; what
// they do after giving it back, or with values they merely received, is.

type resource struct{ pool *pool }

type pool struct{ free chan *resource }

func (p *pool) Acquire() *resource { return <-p.free }
func (r *resource) Release()       { r.pool.free <- r }

var lastHeld, lastFreed, received int

func HoldAndWrite(p *pool) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := p.Acquire()
			lastHeld = i
			r.Release()
		}()
	}
	wg.Wait()
}

func WriteAfterRelease(p *pool) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := p.Acquire()
			r.Release()
			lastFreed = i // want `possible data race: goroutines.lastFreed is written by goroutine goroutines.WriteAfterRelease\$1 and written by another instance of goroutines.WriteAfterRelease\$1`
		}()
	}
	wg.Wait()
}

func Workers(jobs chan int) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			received += <-jobs // want `possible data race: goroutines.received is written by goroutine goroutines.Workers\$1 and written by another instance of goroutines.Workers\$1`
		}()
	}
	wg.Wait()
}

// A method passed to Once.Do and also called directly does not only run
// inside Once.Do.

type conn struct {
	closed bool
	once   sync.Once
}

func (c *conn) shutdown() {
	c.closed = true // want `possible data race: \(goroutines.conn\).closed is written by goroutine \(\*goroutines.conn\).shutdown and written by another instance of \(\*goroutines.conn\).shutdown`
}

func (c *conn) Close() { c.once.Do(c.shutdown) }

func KillTwice(c *conn) {
	for i := 0; i < 2; i++ {
		go c.shutdown()
	}
}

// A reporter interface with two implementations: what a call of Errorf
// on a value a function was handed accesses depends on the value passed.
type reporter interface{ Errorf(msg string) }

// A lockedReporter is safe for goroutines.
type lockedReporter struct {
	mu   sync.Mutex
	msgs []string
}

func (r *lockedReporter) Errorf(msg string) {
	r.mu.Lock()
	r.msgs = append(r.msgs, msg)
	r.mu.Unlock()
}

// A collector is not.
type collector struct{ msgs []string }

func (c *collector) Errorf(msg string) {
	c.msgs = append(c.msgs, msg) // want `possible data race: \(goroutines.collector\).msgs is written by goroutine goroutines.CollectAll\$1 and written by another instance` `possible data race: \(goroutines.collector\).msgs is read by goroutine goroutines.CollectAll\$1 and written by another instance`
}

func expect(r reporter, ok bool) {
	if !ok {
		r.Errorf("failed")
	}
}

// CheckAll shares a lockedReporter between its goroutines: expect's
// Errorf is lockedReporter's, not collector's.
func CheckAll(xs []bool) {
	r := &lockedReporter{}
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			expect(r, x)
		}()
	}
	wg.Wait()
}

// CollectAll shares a collector: a race.
func CollectAll(xs []bool) {
	c := &collector{}
	var wg sync.WaitGroup
	for _, x := range xs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			expect(c, x)
		}()
	}
	wg.Wait()
}

// A Hub's Subscribe locks and hands the lock to the goroutine it starts,
// which unlocks it when done: what the goroutine does before that is
// under the lock.
type Hub struct {
	mu   sync.Mutex
	subs []int
}

// Subscribe adds a subscriber, in the background when async.
func (h *Hub) Subscribe(async bool) {
	h.mu.Lock()
	if !async {
		defer h.mu.Unlock()
		h.add(1)
		return
	}
	go func() {
		defer h.mu.Unlock()
		h.add(2)
	}()
}

func (h *Hub) add(v int) { h.subs = append(h.subs, v) }

// Count counts under the lock.
func (h *Hub) Count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// A Board's Post unlocks before its goroutine writes: a race.
type Board struct {
	mu    sync.Mutex
	posts []int
}

// Post adds v in the background.
func (b *Board) Post(v int) {
	b.mu.Lock()
	b.posts = append(b.posts, 0)
	b.mu.Unlock()
	go func() {
		b.posts = append(b.posts, v) // want `possible data race: \(goroutines.Board\).posts is written by goroutine \(\*goroutines.Board\).Post\$1`
	}()
}

// Len counts under the lock.
func (b *Board) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.posts)
}

// Rounds: each round's goroutines read the window the loop set before
// starting them, and the next round writes it only after waiting for
// them. RoundsEarly writes it while they may still run.
func Rounds(n int, read func(int)) {
	window := 0
	for r := 0; r < n; r++ {
		window += 10
		var wg sync.WaitGroup
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				read(window)
			}()
		}
		wg.Wait()
	}
}

func RoundsEarly(n int, read func(int)) {
	window := 0
	var wg sync.WaitGroup
	for r := 0; r < n; r++ {
		window += 10
		wg.Add(1)
		go func() {
			defer wg.Done()
			read(window) // want `possible data race: captured variable window in goroutines.RoundsEarly is read by goroutine goroutines.RoundsEarly\$1 and written by goroutines.RoundsEarly`
		}()
	}
	wg.Wait()
}

// A cowTree's load copies a node only when asked to mutate: readers pass
// false and never write. Readers only read; Writers race.
type cowNode struct{ owner int }

type cowTree struct {
	root  *cowNode
	owner int
}

func (t *cowTree) load(cn **cowNode, mut bool) *cowNode {
	if mut && (*cn).owner != t.owner {
		*cn = &cowNode{owner: t.owner} // want `possible data race: \*cn in \(\*goroutines.cowTree\).load is written by goroutine goroutines.Writers\$1`
	}
	return *cn // want `possible data race: \*cn in \(\*goroutines.cowTree\).load is read by goroutine goroutines.Writers\$1`
}

func (t *cowTree) get() int { return t.load(&t.root, false).owner }

func (t *cowTree) set(v int) { t.load(&t.root, true).owner = v }

func Readers(t *cowTree) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.get()
		}()
	}
	wg.Wait()
}

func Writers(t *cowTree) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.set(i)
		}()
	}
	wg.Wait()
}

// A lazyClock starts once, double-checked with an atomic flag: readers
// use start only after seeing the flag set, which is stored after start
// is written. A sloppyClock reads start before checking the flag.
type lazyClock struct {
	mu    sync.Mutex
	ready atomic.Bool
	start int
}

func (c *lazyClock) init(v int) {
	if !c.ready.Load() {
		c.mu.Lock()
		if !c.ready.Load() {
			c.start = v
			c.ready.Store(true)
		}
		c.mu.Unlock()
	}
}

func (c *lazyClock) now() int {
	if !c.ready.Load() {
		return 0
	}
	return c.start
}

func Clocks(c *lazyClock) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.init(i)
			c.now()
		}()
	}
	wg.Wait()
}

type sloppyClock struct {
	mu    sync.Mutex
	ready atomic.Bool
	start int
}

func (c *sloppyClock) init(v int) {
	c.mu.Lock()
	if !c.ready.Load() {
		c.start = v // want `possible data race: \(goroutines.sloppyClock\).start is written by goroutine goroutines.SloppyClocks\$1 and read by another instance`
		c.ready.Store(true)
	}
	c.mu.Unlock()
}

func (c *sloppyClock) now() int {
	v := c.start // want `possible data race: \(goroutines.sloppyClock\).start is read by goroutine goroutines.SloppyClocks\$1 and written by another instance`
	if !c.ready.Load() {
		return 0
	}
	return v
}

func SloppyClocks(c *sloppyClock) {
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.init(i)
			c.now()
		}()
	}
	wg.Wait()
}

// A Poller's Start leaves a goroutine polling: its caller goes on while
// it runs.
type Poller struct {
	mu    sync.Mutex
	polls int
	stop  chan struct{}
	done  chan struct{}
}

func (p *Poller) Start() {
	go p.loop()
}

func (p *Poller) loop() {
	defer close(p.done)
	for {
		select {
		case <-p.stop:
			return
		default:
			p.mu.Lock()
			p.polls++
			p.mu.Unlock()
		}
	}
}

// Stop ends the goroutine and waits for it.
func (p *Poller) Stop() {
	close(p.stop)
	<-p.done
}

// startAndPeek reads the count while the goroutine writes it.
func startAndPeek(p *Poller) int {
	p.Start()
	return p.polls // want `possible data race: \(goroutines.Poller\).polls is read by goroutines.startAndPeek and written by goroutine \(\*goroutines.Poller\).loop`
}

// startAndCount reads it under the lock.
func startAndCount(p *Poller) int {
	p.Start()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.polls
}

// startAndStop reads it after the goroutine has ended.
func startAndStop(p *Poller) int {
	p.Start()
	p.Stop()
	return p.polls
}

// runPoller starts the goroutine through a helper and resets the count
// while it runs.
func runPoller(p *Poller) {
	startPolling(p)
	p.polls = 0 // want `possible data race: \(goroutines.Poller\).polls is written by goroutines.runPoller and written by goroutine \(\*goroutines.Poller\).loop`
}

func startPolling(p *Poller) { p.Start() }

// A Producer's connect sets the connection up and then starts the
// router; Publish connects first. The write in connect sets the router
// up: making it again would take a second connect, which state prevents.
type Producer struct {
	mu      sync.Mutex
	state   int
	conn    int
	pending []int
	in      chan int
}

func (p *Producer) connect() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.state != 0 {
		return
	}
	p.conn = 1
	p.state = 1
	go p.router()
}

func (p *Producer) router() {
	for v := range p.in {
		p.pending = append(p.pending, v+p.conn) // want `possible data race: \(\*goroutines.Producer\).router reads \(goroutines.Producer\).conn without holding \(goroutines.Producer\).mu; \(\*goroutines.Producer\).Redial writes it`
	}
}

// Publish connects and sends.
func (p *Producer) Publish(v int) {
	p.connect()
	p.in <- v
}

// Redial replaces the connection while the router may run.
func (p *Producer) Redial() {
	p.mu.Lock()
	p.conn = 2
	p.mu.Unlock()
}

// A Feeder's start sets the connection up before it starts the loop;
// Conn reads it under the lock.
type Feeder struct {
	mu    sync.Mutex
	state int
	conn  int
	sum   int
	in    chan int
}

func (f *Feeder) start() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.state != 0 {
		return
	}
	f.conn = 1
	f.state = 1
	go f.loop()
}

func (f *Feeder) loop() {
	for v := range f.in {
		f.sum += v * f.conn
	}
}

// Feed starts the loop and sends.
func (f *Feeder) Feed(v int) {
	f.start()
	f.in <- v
}

// Conn reads the connection.
func (f *Feeder) Conn() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.conn
}

// A Dialer checks an atomic state, not a flag under its lock, before it
// sets the connection up and starts the loop; Send dials first.
type Dialer struct {
	mu    sync.Mutex
	state atomic.Int32
	conn  int
	sum   int
	in    chan int
}

func (d *Dialer) dial() {
	if d.state.Load() != 0 {
		return
	}
	d.mu.Lock()
	d.conn = 1
	d.mu.Unlock()
	d.state.Store(1)
	go d.loop()
}

func (d *Dialer) loop() {
	for v := range d.in {
		d.sum += v * d.conn
	}
}

// Send dials and sends.
func (d *Dialer) Send(v int) {
	d.dial()
	d.in <- v
}

// Conn reads the connection.
func (d *Dialer) Conn() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.conn
}

// A Gauge is polled by a goroutine until a send on stop, which has no
// buffer: once the send completes, the goroutine has returned.
type Gauge struct{ level int }

func pollGauge(g *Gauge) {
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = g.level
			}
		}
	}()
	stop <- struct{}{}
	g.level = 0
}

// pollGaugeBuffered's stop has a buffer: the send does not wait.
func pollGaugeBuffered(g *Gauge) {
	stop := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				_ = g.level // want `possible data race: \(goroutines.Gauge\).level is read by goroutine goroutines.pollGaugeBuffered\$1 and written by goroutines.pollGaugeBuffered`
			}
		}
	}()
	stop <- struct{}{}
	g.level = 0
}

// pollGaugeLate's goroutine reads once more after it receives.
func pollGaugeLate(g *Gauge) {
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				_ = g.level // want `possible data race: \(goroutines.Gauge\).level is read by goroutine goroutines.pollGaugeLate\$1 and written by goroutines.pollGaugeLate`
				return
			default:
			}
		}
	}()
	stop <- struct{}{}
	g.level = 0
}

// A Console's two goroutines write its lines: the second waits for the
// first, which is done once it signals.
type Console struct{ lines []string }

func (c *Console) pipe() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.lines = append(c.lines, "scanned")
	}()
	go func() {
		wg.Wait()
		c.log("exited")
	}()
}

func (c *Console) log(line string) { c.lines = append(c.lines, line) }

// pipeEarly's second goroutine writes before it waits.
func (c *Console) pipeEarly() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c.lines = append(c.lines, "scanned") // want `\(goroutines.Console\).lines is written by goroutine \(\*goroutines.Console\).pipeEarly\$1 and` `\(goroutines.Console\).lines is read by goroutine \(\*goroutines.Console\).pipeEarly\$1 and`
	}()
	go func() {
		c.lines = append(c.lines, "started")
		wg.Wait()
	}()
}

// pipeReady's second goroutine waits, but for the spawner's ready, not
// for the first goroutine.
func (c *Console) pipeReady() {
	ready := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.lines = append(c.lines, "scanned") // want `\(goroutines.Console\).lines is written by goroutine \(\*goroutines.Console\).pipeReady\$1 and` `\(goroutines.Console\).lines is read by goroutine \(\*goroutines.Console\).pipeReady\$1 and`
	}()
	go func() {
		<-ready
		c.log("exited")
	}()
	close(ready)
	<-done
}
