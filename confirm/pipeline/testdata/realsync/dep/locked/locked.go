// Package locked runs functions under a mutex of the caller's.
package locked

import "sync"

// Do runs f holding mu.
func Do(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}
