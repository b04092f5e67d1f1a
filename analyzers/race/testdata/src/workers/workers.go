// Package workers passes closures to functions that run them in
// goroutines they start and do not wait for.
package workers

import "sync"

// A Recorder records the calls made to it; it has no lock.
type Recorder struct {
	calls []string
}

// Record records s.
func (r *Recorder) Record(s string) {
	r.calls = append(r.calls, s) // want `\(workers.Recorder\).calls is written by goroutine workers.Sync\$1 and written by workers.Sync` `\(workers.Recorder\).calls is read by goroutine workers.Sync\$1 and written by workers.Sync`
}

// A Pool runs one action per key, each in a goroutine of its own.
type Pool struct {
	mu   sync.Mutex
	wg   sync.WaitGroup
	busy map[string]bool
}

// Run runs action in a goroutine, unless one runs for key already.
func (p *Pool) Run(key string, action func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.busy[key] {
		return
	}
	p.busy[key] = true
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		action()
	}()
}

// Sync records through the pool's goroutines, and at the same time
// itself.
func Sync(p *Pool, r *Recorder, keys []string) {
	for _, k := range keys {
		p.Run(k, func() { r.Record(k) })
	}
	r.Record("sync")
}

// SyncWait waits for the pool's goroutines before it records.
func SyncWait(p *Pool, r *Recorder, keys []string) {
	for _, k := range keys {
		p.Run(k, func() { r.Record(k) })
	}
	p.wg.Wait()
	r.Record("sync")
}

// Do runs action and waits for it.
func Do(action func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		action()
	}()
	<-done
}

// Count counts through Do, which waits.
func Count(n *int) {
	Do(func() { *n++ })
	*n++
}

// A Tally counts in goroutines of a WaitGroup.
type Tally struct {
	n int
}

// Count reads the count before it waits.
func (t *Tally) Count(wg *sync.WaitGroup) int {
	wg.Go(func() { t.n++ }) // want `\(workers.Tally\).n is written by goroutine \(\*workers.Tally\).Count\$1 and read by \(\*workers.Tally\).Count`
	v := t.n
	wg.Wait()
	return v
}

// CountWait reads the count after it waits.
func (t *Tally) CountWait(wg *sync.WaitGroup) int {
	wg.Go(func() { t.n++ })
	wg.Wait()
	return t.n
}

// A Cache refreshes its entries in the goroutines of a Pool, under its
// lock: a method handing the pool a closure over its receiver.
type Cache struct {
	mu   sync.Mutex
	pool *Pool
	hits int
}

// Refresh counts a refresh in the pool's goroutine.
func (c *Cache) Refresh(key string) {
	c.pool.Run(key, func() {
		c.mu.Lock()
		c.hits++
		c.mu.Unlock()
	})
}

// Hits returns the count.
func (c *Cache) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// A Loop's Start sets its stop channel up, then starts the goroutine
// that reads it: not a race. Restop writes it while the goroutine runs.
type Loop struct {
	mu   sync.Mutex
	n    int
	stop chan struct{}
}

// Start starts the loop.
func (l *Loop) Start(stop chan struct{}) {
	l.stop = stop
	l.run()
}

// Restop replaces the stop channel.
func (l *Loop) Restop(stop chan struct{}) {
	l.stop = stop
}

func (l *Loop) run() {
	go func() {
		for {
			l.mu.Lock()
			l.n++
			l.mu.Unlock()
			select {
			case <-l.stop: // want `\(workers.Loop\).stop is read by goroutine \(\*workers.Loop\).run\$1 and written by \(\*workers.Loop\).Restop`
				return
			default:
			}
		}
	}()
}
