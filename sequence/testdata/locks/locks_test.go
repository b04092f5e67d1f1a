package locks

import (
	"sync"
	"testing"
)

func TestABBA(t *testing.T) {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); pathAB() }()
	go func() { defer wg.Done(); pathBA() }()
	wg.Wait()
}

func TestTransfer(t *testing.T) {
	a, b := &Account{balance: 10}, &Account{balance: 10}
	done := make(chan bool)
	go func() { transfer(a, b, 1); done <- true }()
	go func() { transfer(b, a, 1); done <- true }()
	<-done
	<-done
}

func TestCounter(t *testing.T) {
	var c Counter
	c.Add(1)
}

func TestCache(t *testing.T) {
	c := &Cache{m: map[string]int{}}
	go c.Put("a", 1)
	c.Get("a")
}

func TestQueue(t *testing.T) {
	var q Queue
	q.Push(1)
	q.Pop()
	q.Pop()
	q.Push(2)
}

func TestCycle3(t *testing.T) {
	var wg sync.WaitGroup
	for _, f := range []func(){pathCD, pathDE, pathEC} {
		wg.Add(1)
		go func() { defer wg.Done(); f() }()
	}
	wg.Wait()
}

func TestLocalRWR(t *testing.T) {
	localRWR()
}

func TestAddTwice(t *testing.T) {
	var c Counter
	c.AddTwice(1)
}

// TestCacheReset resets the cache before it starts a writer: Reset is
// nearer the test but only Put runs in another goroutine.
func TestCacheReset(t *testing.T) {
	c := &Cache{m: map[string]int{}}
	c.Reset()
	go func() { c.Put("a", 1) }()
	c.Get("a")
}

func TestMailbox(t *testing.T) {
	m := NewMailbox()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); m.Put(1) }()
	go func() { defer wg.Done(); m.Take() }()
	wg.Wait()
}
