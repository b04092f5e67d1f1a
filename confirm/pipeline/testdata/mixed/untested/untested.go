// Package untested has two AB-BA deadlocks and no tests. No test reaches
// either, so Confirm writes one for the cycle between Forward and Backward,
// exported functions a client can call at once, and confirms it with that.
// The cycle between forward and backward, which nothing exported reaches,
// gets no test and stays no-test, with the functions no test calls named.
package untested

import "sync"

var a, b sync.Mutex

// Forward locks a then b.
func Forward() {
	a.Lock()
	defer a.Unlock()
	b.Lock()
	defer b.Unlock()
}

// Backward locks b then a.
func Backward() {
	b.Lock()
	defer b.Unlock()
	a.Lock()
	defer a.Unlock()
}

var c, d sync.Mutex

// forward locks c then d.
func forward() {
	c.Lock()
	defer c.Unlock()
	d.Lock()
	defer d.Unlock()
}

// backward locks d then c.
func backward() {
	d.Lock()
	defer d.Unlock()
	c.Lock()
	defer c.Unlock()
}

func init() { _, _ = forward, backward }
