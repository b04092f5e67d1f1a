// Package app starts goroutines that call into package stats; what those
// calls access is known only through the facts exported by stats.
package app

import (
	"fmt"
	"stats"
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
