// Package contracts holds types whose documentation tells callers how
// they may be used concurrently: a finding that only a caller breaking
// that contract can cause is the caller's bug, not the package's.
package contracts

import (
	"sync"
	"time"
)

// A Pinger sends probes from the goroutine Run starts.
type Pinger struct {
	mu      sync.Mutex
	sent    int
	debug   bool
	size    int
	stopped bool
}

// SetDebug turns debugging output on. It is not thread-safe and must be
// called before Run. Silent: a caller who calls it while Run's goroutine
// runs breaks the contract.
func (p *Pinger) SetDebug(on bool) {
	p.debug = on
}

// SetSize sets the probe size. Nothing tells the caller it may not be
// called while the pinger runs: the goroutine's read is reported.
func (p *Pinger) SetSize(n int) {
	p.size = n
}

// Run starts sending probes.
func (p *Pinger) Run() {
	go p.loop()
}

// Stop stops sending probes. It must be called before the program exits,
// which is no moment of the pinger's own: the write races with the
// goroutine's read.
func (p *Pinger) Stop() {
	p.stopped = true
}

func (p *Pinger) loop() {
	for {
		if p.debug {
			println("probe")
		}
		if p.stopped { // want `possible data race`
			return
		}
		buf := make([]byte, p.size) // want `possible data race`
		p.mu.Lock()
		p.sent += len(buf)
		p.mu.Unlock()
		time.Sleep(time.Second)
	}
}

// A Batch collects entries. A Batch is not safe for concurrent use by
// multiple goroutines; its lock only orders Flush with the flusher it
// hands the entries to.
type Batch struct {
	mu      sync.Mutex
	entries []string
	flushed int
}

// Add appends an entry.
func (b *Batch) Add(e string) {
	b.entries = append(b.entries, e)
}

// Flush hands the entries over.
func (b *Batch) Flush() {
	b.mu.Lock()
	b.flushed += len(b.entries)
	b.entries = nil
	b.mu.Unlock()
}

// Reset forgets the entries.
func (b *Batch) Reset() {
	b.mu.Lock()
	b.entries = nil
	b.mu.Unlock()
}

// A Log is the same as a Batch without the documented contract: callers
// may share it, and Add races with Flush and Reset.
type Log struct {
	mu      sync.Mutex
	entries []string
	flushed int
}

// Add appends an entry.
func (l *Log) Add(e string) {
	l.entries = append(l.entries, e) // want `possible data race` `possible data race`
}

// Flush hands the entries over.
func (l *Log) Flush() {
	l.mu.Lock()
	l.flushed += len(l.entries)
	l.entries = nil
	l.mu.Unlock()
}

// Reset forgets the entries.
func (l *Log) Reset() {
	l.mu.Lock()
	l.entries = nil
	l.mu.Unlock()
}

// A Recorder records entries. This interface is not threadsafe.
type Recorder interface {
	Record(e string)
	Drain()
	Clear()
}

// A Journal implements Recorder through helpers: its unlocked append is
// reached only from methods of the interface documented as not safe for
// concurrent use. Silent.
type Journal struct {
	mu      sync.Mutex
	entries []string
	drained int
}

func (j *Journal) Record(e string) { j.push(e) }

func (j *Journal) push(e string) {
	j.entries = append(j.entries, e)
}

func (j *Journal) Drain() {
	j.mu.Lock()
	j.drained += len(j.entries)
	j.entries = nil
	j.mu.Unlock()
}

func (j *Journal) Clear() {
	j.mu.Lock()
	j.entries = nil
	j.mu.Unlock()
}

// A Player says nothing of concurrent use.
type Player interface {
	Play(e string)
	Rewind()
	Eject()
}

// A Tape is a Journal implementing a Player.
type Tape struct {
	mu      sync.Mutex
	entries []string
	played  int
}

func (t *Tape) Play(e string) { t.push(e) }

func (t *Tape) push(e string) {
	t.entries = append(t.entries, e) // want `possible data race: \(\*contracts.Tape\).push writes \(contracts.Tape\).entries without holding \(contracts.Tape\).mu` `possible data race: \(\*contracts.Tape\).push reads \(contracts.Tape\).entries without holding \(contracts.Tape\).mu`
}

func (t *Tape) Rewind() {
	t.mu.Lock()
	t.played += len(t.entries)
	t.entries = nil
	t.mu.Unlock()
}

func (t *Tape) Eject() {
	t.mu.Lock()
	t.entries = nil
	t.mu.Unlock()
}
