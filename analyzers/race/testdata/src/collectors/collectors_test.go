package collectors

import (
	"sync"
	"testing"
)

// A test's own type is the test program's memory: its locking is checked
// like the package's.
type fakeSink struct {
	mu   sync.Mutex
	n    int
	seen []int
}

func (f *fakeSink) add(v int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += v
	f.seen = append(f.seen, v)
}

func (f *fakeSink) reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n = 0
	f.seen = nil
}

func (f *fakeSink) total() int {
	return f.n // want `possible data race: \(\*collectors.fakeSink\).total reads \(collectors.fakeSink\).n without holding \(collectors.fakeSink\).mu`
}

func TestSink(t *testing.T) {
	f := &fakeSink{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.add(1)
		}()
	}
	wg.Wait()
	f.reset()
	_ = f.total()
}

// The package's own types, touched by a test alone, stay the goroutine
// check's business: the unlocked read of last here is silent.
func TestRegistry(t *testing.T) {
	r := &Registry{colls: map[string]*collection{}}
	r.Add("a")
	c := r.colls["a"]
	close(c.stop)
	_ = c.last
}

// A test that starts no goroutines runs alone (tests run one at a time):
// its reads of its own mock's fields, after the calls it made on the
// sink it installed, are silent, though the mock's methods lock.
func TestSinkAlone(t *testing.T) {
	f := &fakeSink{}
	current = f
	addCurrent(2)
	if f.n != 2 || len(f.seen) != 1 {
		t.Fatal("not added")
	}
}

var current *fakeSink

func addCurrent(v int) { current.add(v) }
