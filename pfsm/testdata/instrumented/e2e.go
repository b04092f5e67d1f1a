// Package e2e is run instrumented by the pfsm tests: the stacks it captures
// must map to the nodes of its uninstrumented SSA form.
package e2e

import (
	"runtime"
	"sync"
)

var (
	mu     sync.Mutex
	Stacks [][]uintptr
	sink   int
)

// Probe records the stack of its caller.
func Probe() {
	pcs := make([]uintptr, 64)
	pcs = pcs[:runtime.Callers(1, pcs)]
	mu.Lock()
	Stacks = append(Stacks, pcs)
	mu.Unlock()
}

func work(n int, done chan bool) {
	Probe() // @w
	sink += n
	done <- true
}

func Spawn() {
	done := make(chan bool)
	Probe()          // @s0
	go work(1, done) // @go
	<-done
	go func() {
		Probe() // @lit
		done <- true
	}()
	<-done
	go reach(2, done) // @go2
	<-done
	target()
}

func reach(n int, done chan bool) {
	Probe() // @r
	target()
	sink += n
	done <- true
}

func target() {
	sink++ // @target
}
