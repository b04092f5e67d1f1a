package goroutines

import "sync"

// A Link belongs to one Fanout; each of its links is handed to the
// goroutine the loop starts for it.
type Link struct {
	stubs []int
}

func (l *Link) add(v int) {
	l.stubs = append(l.stubs, v) // want `possible data race: \(goroutines.Link\).stubs is (read|written) by goroutine \(\*goroutines.Fanout\).AddShared\$1 and written by another instance of \(\*goroutines.Fanout\).AddShared\$1` `possible data race: \(goroutines.Link\).stubs is (read|written) by goroutine \(\*goroutines.Fanout\).AddShared\$1 and written by another instance of \(\*goroutines.Fanout\).AddShared\$1`
}

type Fanout struct {
	mu    sync.Mutex
	links map[string]*Link
	all   *Link
}

// AddAll starts one goroutine per link, each adding to its own link:
// silent.
func (f *Fanout) AddAll(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var wg sync.WaitGroup
	for _, l := range f.links {
		wg.Add(1)
		go func(l *Link) {
			defer wg.Done()
			l.add(v)
		}(l)
	}
	wg.Wait()
}

// AddShared starts one goroutine per link, each adding to the one link
// they share.
func (f *Fanout) AddShared(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var wg sync.WaitGroup
	for range f.links {
		wg.Add(1)
		go func(l *Link) {
			defer wg.Done()
			l.add(v)
		}(f.all)
	}
	wg.Wait()
}
