package goroutines

import "sync"

// An evicter's Range callback counts evictions: what the callback does,
// the Range call does, in the goroutine that calls it.
type evicter struct {
	items     sync.Map
	evictions int
}

func (e *evicter) evict() {
	e.items.Range(func(k, v any) bool {
		e.items.Delete(k)
		e.evictions++ // want `possible data race: \(goroutines.evicter\).evictions is written by goroutine goroutines.EvictInBackground\$1 and read by goroutines.EvictInBackground`
		return true
	})
}

// EvictInBackground evicts in a goroutine and reads the count meanwhile.
func EvictInBackground() int {
	e := &evicter{}
	e.items.Store(1, 1)
	done := make(chan bool)
	go func() {
		e.evict()
		done <- true
	}()
	n := e.evictions
	<-done
	return n
}

// EvictThenCount reads the count after the goroutine is done. Silent.
func EvictThenCount() int {
	e := &evicter{}
	done := make(chan bool)
	go func() {
		e.evict()
		done <- true
	}()
	<-done
	return e.evictions
}
