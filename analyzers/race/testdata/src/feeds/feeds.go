// Package feeds starts goroutines in constructors that return the object
// the goroutine uses; the caller goes on using it.
package feeds

import "sync"

// A Feed counts the events its goroutine delivers.
type Feed struct {
	mu     sync.Mutex
	filter func(int) bool
	n      int
}

func (f *Feed) setFilter(fn func(int) bool) {
	f.filter = fn // want `possible data race: \(feeds.Feed\).filter is written by feeds.Even and read by goroutine feeds.Start\$1`
}

func (f *Feed) onEvent(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.filter != nil && !f.filter(v) {
		return
	}
	f.n++
}

// Start returns a feed its goroutine delivers events to, and a channel
// closed when the goroutine is done.
func Start(events <-chan int) (*Feed, <-chan struct{}) {
	f := &Feed{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for v := range events {
			f.onEvent(v)
		}
	}()
	return f, done
}

// Even filters while the goroutine runs, without the lock.
func Even(events chan int) {
	f, done := Start(events)
	f.setFilter(func(v int) bool { return v%2 == 0 })
	close(events)
	<-done
}

// After filters once the goroutine is done.
func After(events chan int) {
	f, done := Start(events)
	close(events)
	<-done
	f.setFilter(nil)
}
