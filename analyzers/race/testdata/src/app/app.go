// Package app starts goroutines that call into package stats; what those
// calls access is known only through the facts exported by stats.
package app

import (
	"fmt"
	"stats"
	"sync"
)

func Report() { // want Report:`accesses\(r stats.Total\)`
	go stats.Record(1)
	fmt.Println(stats.Total) // want `possible data race: stats.Total is read by app.Report and written by goroutine stats.Record, with`
}

func Count() {
	c := &stats.Counter{}
	go c.Inc() // want `possible data race: \(stats.Counter\).n is written by goroutine \(\*stats.Counter\).Inc through \(\*stats.Counter\).bump and written by app.Count through \(\*stats.Counter\).bump`
	c.Inc()
}

func CountSafe() int {
	s := &stats.Safe{}
	go s.Inc()
	s.Inc()
	return s.Get()
}

// The lock helpers of stats.Shared hold (stats.Shared).mu on return, as
// the lockset facts of package stats say.
func Hit(s *stats.Shared) { // want Hit:`accesses\(r \$0.Hits holding \(stats.Shared\).mu, w \$0.Hits holding \(stats.Shared\).mu\)`
	s.Lock()
	s.Hits++
	s.Unlock()
}

func Hits(s *stats.Shared) int { // want Hits:`accesses\(r \$0.Hits holding \(stats.Shared\).mu\)`
	s.Lock()
	defer s.Unlock()
	return s.Hits
}

func PeekHits(s *stats.Shared) int { // want PeekHits:`accesses\(r \$0.Hits\)`
	return s.Hits // want `possible data race: app.PeekHits reads \(stats.Shared\).Hits without holding \(stats.Shared\).mu; app.Hit writes it holding \(stats.Shared\).mu`
}

// A Router reads and renames packets under their locks.
type Router struct{}

func (r *Router) Route(p *stats.Publish) string { // want Route:`accesses\(r \$1.Topic holding \(stats.Publish\).Mu\)`
	p.Mu.Lock()
	defer p.Mu.Unlock()
	return p.Topic
}

func (r *Router) Rename(p *stats.Publish) { // want Rename:`accesses\(w \$1.Topic holding \(stats.Publish\).Mu\)`
	p.Mu.Lock()
	p.Topic = "renamed"
	p.Mu.Unlock()
}

// Send fills a packet that stats.NewPacket made for it alone, and returns
// it: a new packet (the fact says so, its accesses empty).
func Send(topic string) stats.Packet { // want Send:`accesses\(\)`
	p := stats.NewPacket().(*stats.Publish)
	p.Topic = topic
	return p
}

var outbox = make(chan stats.Packet, 1)

// SendLate fills the packet after handing it over.
func SendLate(topic string) { // want SendLate:`accesses\(signals\)`
	p := stats.NewPacket().(*stats.Publish)
	outbox <- p
	p.Topic = topic // want `possible data race: app.SendLate writes \(stats.Publish\).Topic without holding \(stats.Publish\).Mu`
}

// gather appends from the goroutines of a stats.Group.
func gather(xs []int) []int {
	var out []int
	var g stats.Group
	for _, x := range xs {
		g.Go(func() {
			out = append(out, x) // want `captured variable out in app.gather is written by goroutine app.gather\$1 and written by another instance of app.gather\$1` `out in app.gather is read by goroutine app.gather\$1`
		})
	}
	g.Wait()
	return out
}

// gatherLocked appends under a lock.
func gatherLocked(xs []int) []int {
	var mu sync.Mutex
	var out []int
	var g stats.Group
	for _, x := range xs {
		g.Go(func() {
			mu.Lock()
			out = append(out, x)
			mu.Unlock()
		})
	}
	g.Wait()
	return out
}
