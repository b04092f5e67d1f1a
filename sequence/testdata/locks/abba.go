// Package locks holds lock bugs for the sequence tests.
package locks

import "sync"

var (
	muA sync.Mutex
	muB sync.Mutex
	n   int
)

// pathAB takes A then B.
func pathAB() {
	muA.Lock()
	muB.Lock()
	n++
	muB.Unlock()
	muA.Unlock()
}

// pathBA takes B then A.
func pathBA() {
	muB.Lock()
	muA.Lock()
	n--
	muA.Unlock()
	muB.Unlock()
}
