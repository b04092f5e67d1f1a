package locks

import "sync"

// localRWR read-locks a local RWMutex twice while a goroutine it started
// write-locks it.
func localRWR() {
	var mu sync.RWMutex
	done := make(chan bool)
	go func() {
		mu.Lock()
		mu.Unlock()
		done <- true
	}()
	mu.RLock()
	mu.RLock()
	mu.RUnlock()
	mu.RUnlock()
	<-done
}
