// Package stats is imported by package app; its functions' accesses reach
// app through analysis facts.
package stats

import "sync"

// Total counts events; Record writes it without synchronization.
var Total int

func Record(n int) { Total += n }

// Counter is not safe for concurrent use.
type Counter struct{ n int }

func (c *Counter) Inc() { c.bump() }

func (c *Counter) bump() { c.n++ }

// Safe is safe for concurrent use.
type Safe struct {
	mu sync.Mutex
	n  int
}

func (s *Safe) Inc() {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}

func (s *Safe) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// Shared exposes its lock through methods; callers in other packages
// guard Hits with them.
type Shared struct {
	mu   sync.Mutex
	Hits int
}

func (s *Shared) Lock()   { s.mu.Lock() }
func (s *Shared) Unlock() { s.mu.Unlock() }

// A Packet is made by NewPacket.
type Packet interface{ Kind() int }

// A Publish packet carries a topic, under its lock.
type Publish struct {
	Mu    sync.Mutex
	Topic string
}

func (*Publish) Kind() int { return 1 }

// NewPacket returns a new packet.
func NewPacket() Packet { return &Publish{} }

// A Group runs functions in goroutines and waits for them, like
// errgroup's: its fact says Go starts its parameter.
type Group struct{ wg sync.WaitGroup }

// Go runs f in a goroutine of its own.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

// Wait waits for the functions Go started.
func (g *Group) Wait() { g.wg.Wait() }
