package pokes

import (
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
