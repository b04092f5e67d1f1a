package wronglock

import (
	"sync"
	"testing"
)

// run starts writers goroutines that initialize the data under lock B
// and one goroutine updating it under lock A.
func run(t *testing.T, writers int) {
	var s Shared
	var wg sync.WaitGroup
	wg.Add(writers + 1)
	for range writers {
		go func() {
			defer wg.Done()
			s.Init()
		}()
	}
	go func() { // prefer: wronglock
		defer wg.Done()
		if err := s.UpdateA(); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
}

func TestWronglock1_2(t *testing.T)  { run(t, 2) }
func TestWronglock1_10(t *testing.T) { run(t, 10) }
func TestWronglock1_20(t *testing.T) { run(t, 20) }
