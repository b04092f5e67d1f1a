// Package reorder is a Go analog of the Reorder benchmark: setters set a
// and then b, every access going through synchronized accessors (a mutex
// per access, like Java's synchronized methods), and a checker that reads
// both may see a state in which a was set but b not yet.
package reorder

import (
	"fmt"
	"sync"
)

// A Cell is an int with synchronized accessors.
type Cell struct {
	mu sync.Mutex
	v  int
}

// Get returns the value.
func (c *Cell) Get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.v
}

// Set sets the value.
func (c *Cell) Set(v int) {
	c.mu.Lock()
	c.v = v
	c.mu.Unlock()
}

// A Pair holds a and b, which every setter sets to 1 and -1 together;
// the pair is consistent when both are unset or both are set.
type Pair struct {
	a, b Cell
}

// Set sets a and then b. Each access is synchronized, the pair is not.
func (p *Pair) Set() {
	p.a.Set(1)
	p.b.Set(-1) // key: reorder 1
}

// Check reads a and then b and reports a mixed state.
func (p *Pair) Check() error {
	a := p.a.Get()
	b := p.b.Get() // key: reorder 2
	if (a == 0 && b == 0) || (a == 1 && b == -1) {
		return nil
	}
	return fmt.Errorf("a = %d, b = %d: the checker saw half of a Set", a, b)
}
