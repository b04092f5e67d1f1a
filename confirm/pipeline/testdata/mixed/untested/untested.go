// Package untested has an AB-BA deadlock and no tests: confirm reports it
// as no-test and names the functions no test calls.
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
