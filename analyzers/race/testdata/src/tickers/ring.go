// Package tickers holds helpers that callbacks call under a lock: the
// callback is handed to a ticker loop, so its own context is not known,
// but the lock it takes around the helper is.
package tickers

import "sync"

type entry struct {
	dead bool
	seen int
}

// A Ring reaps its dead entries from a ticker callback, which locks
// around sweep.
type Ring struct {
	mu      sync.Mutex
	entries []*entry
}

// Run reaps until stop is closed.
func (r *Ring) Run(stop chan struct{}) { go every(stop, r.reap) }

func every(stop chan struct{}, f func()) {
	for {
		select {
		case <-stop:
			return
		default:
			f()
		}
	}
}

func (r *Ring) reap() {
	r.mu.Lock()
	defer r.mu.Unlock()
	sweep(r.entries)
}

func sweep(es []*entry) {
	for _, e := range es {
		if e.dead {
			e.seen++
		}
	}
}

// Mark clears an entry's count.
func (r *Ring) Mark(i int) {
	r.mu.Lock()
	r.entries[i].seen = 0
	r.mu.Unlock()
}

// Seen reads it.
func (r *Ring) Seen(i int) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.entries[i].seen
}

// A Pile's callback does not lock around its helper, nor does Flush.
type Pile struct {
	mu      sync.Mutex
	entries []*entry
}

// Run reaps until stop is closed.
func (p *Pile) Run(stop chan struct{}) { go every(stop, p.reap) }

func (p *Pile) reap() { tally(p.entries) }

// Flush tallies without the lock too.
func (p *Pile) Flush() { tally(p.entries) }

func tally(es []*entry) {
	for _, e := range es {
		e.seen++ // want `possible data race: tickers.tally writes \(tickers.entry\).seen without holding \(tickers.Ring\).mu`
	}
}

// A Line's connect runs only on the Line that Open builds, and locks mu
// around dial, which binds; dial's other caller is a test.
type Line struct {
	mu   sync.Mutex
	conn int
}

// Open builds a connected Line.
func Open() *Line {
	l := &Line{}
	l.connect()
	return l
}

func (l *Line) connect() {
	l.mu.Lock()
	l.dial()
	l.bind()
	l.mu.Unlock()
}

func (l *Line) dial() { l.bind() }

func (l *Line) bind() { l.conn++ }

// Conn reads the connection.
func (l *Line) Conn() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.conn
}

// Reset clears it.
func (l *Line) Reset() {
	l.mu.Lock()
	l.conn = 0
	l.mu.Unlock()
}
