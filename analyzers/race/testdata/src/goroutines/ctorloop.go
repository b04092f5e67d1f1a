package goroutines

import (
	"sync"
	"time"
)

// An Assoc's constructor starts its timer loop, then sets the
// association up. Until it returns the association, the loop is the only
// other code that has it: the name, which the loop never touches, is
// set before anyone else can lock around it. Silent. The window, which
// the loop changes at every tick of its ticker, races with the loop.
type Assoc struct {
	mu   sync.Mutex
	name string
	cwnd int
	tick *time.Ticker
}

// NewAssoc returns an association named name.
func NewAssoc(name string) *Assoc {
	a := &Assoc{tick: time.NewTicker(time.Second)}
	go a.timers()
	a.name = name
	a.cwnd = 4
	return a
}

func (a *Assoc) timers() {
	for range a.tick.C {
		a.mu.Lock()
		a.cwnd-- // want `\(goroutines.Assoc\).cwnd is written by goroutine \(\*goroutines.Assoc\).timers and written by goroutines.NewAssoc`
		a.mu.Unlock()
	}
}

// Name returns the association's name.
func (a *Assoc) Name() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.name
}

// Rename renames the association.
func (a *Assoc) Rename(name string) {
	a.mu.Lock()
	a.name = name
	a.mu.Unlock()
}

// Grow widens the window.
func (a *Assoc) Grow() {
	a.mu.Lock()
	a.cwnd++
	a.mu.Unlock()
}
