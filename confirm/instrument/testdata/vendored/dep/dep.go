// Package dep demands real sync types.
package dep

import "sync"

// With runs f holding mu.
func With(mu *sync.Mutex, f func()) {
	mu.Lock()
	defer mu.Unlock()
	f()
}

// Guarded embeds a real mutex.
type Guarded struct{ sync.Mutex }
