package goroutines

import (
	"sync"
	"testing"
)

type entry struct {
	attrs map[string]int
}

// A test that skips itself first thing starts none of its goroutines,
// nor those they would start. Silent.
func TestSkipped(t *testing.T) {
	t.Skip("an entry must not be used concurrently")
	e := &entry{attrs: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		done := make(chan bool)
		go func() {
			e.attrs["a"] = 1
			done <- true
		}()
		go func() {
			e.attrs["b"] = 2
			done <- true
		}()
		<-done
		<-done
	}()
	wg.Wait()
}

// A test that skips only on some condition runs them otherwise.
func TestSkippedShort(t *testing.T) {
	if testing.Short() {
		t.Skip("long")
	}
	e := &entry{attrs: map[string]int{}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		done := make(chan bool)
		go func() {
			e.attrs["a"] = 1 // want `possible data race`
			done <- true
		}()
		go func() {
			e.attrs["b"] = 2
			done <- true
		}()
		<-done
		<-done
	}()
	wg.Wait()
}
