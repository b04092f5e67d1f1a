// Package app starts goroutines that call into package stats; what those
// calls access is known only through the facts exported by stats.
package app

import (
	"fmt"
	"stats"
)

func Report() { // want Report:`accesses\(r stats.Total, w stats.Total.*\)`
	go stats.Record(1)
	fmt.Println(stats.Total) // want `possible data race: stats.Total is read by app.Report and written by goroutine stats.Record through stats.Record`
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
