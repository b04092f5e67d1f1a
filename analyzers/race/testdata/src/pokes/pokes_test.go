package pokes

import (
	"sync"
	"testing"
	"time"
)

// A test setting the clock of the cache it built, while the janitor New
// left running sleeps out its hour: the test knows the janitor is idle,
// which the analysis does not follow. Left alone.
func TestExpire(t *testing.T) {
	c := New(time.Hour)
	c.now = func() time.Time { return time.Unix(0, 0) }
	c.interval = time.Minute
	if c.hits != 0 {
		t.Fatal("hits")
	}
}

// The same through an internal helper the test calls itself, without
// the lock its package callers take: left alone.
func TestTouch(t *testing.T) {
	c := New(time.Hour)
	c.touch("a")
}

// A goroutine the test starts itself stays checked: the test's helper
// runs the janitor. (The package's own code that a test calls stays
// checked too, as any caller's; see the feeds fixture.)
func startJanitor(c *Cache) {
	go c.janitor()
}

func TestOwnJanitor(t *testing.T) {
	c := &Cache{items: map[string]time.Time{}, now: time.Now, interval: time.Millisecond}
	startJanitor(c)
	c.now = func() time.Time { return time.Unix(0, 0) } // want `possible data race: \(pokes.Cache\).now is written by pokes.TestOwnJanitor and read by goroutine \(\*pokes.Cache\).janitor`
}

// Copies of one goroutine of the test calling the package's API side by
// side: the test drives them to show the calls are safe for concurrent
// use, and whether a read of one meets a write of another turns on the
// package's own protocol. Left alone. (Two copies writing one field
// without a lock are still paired: testdata/counter.)
func TestTallies(t *testing.T) {
	var tl Tally
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl.Add()
			_ = tl.Peek()
		}()
	}
	wg.Wait()
}

// The test's own variables, and the types a test file declares, stay
// checked.
type testTally struct{ n int }

func (t *testTally) add() {
	t.n++ // want `possible data race: \(pokes.testTally\).n is written by goroutine pokes.TestOwnTallies\$1 and written by another instance`
}

func TestOwnTallies(t *testing.T) {
	var tl testTally
	sum := 0
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tl.add()
			sum++ // want `possible data race: captured variable sum in pokes.TestOwnTallies is written by goroutine pokes.TestOwnTallies\$1 and written by another instance`
		}()
	}
	wg.Wait()
}
