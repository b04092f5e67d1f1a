package reorder

import (
	"sync"
	"testing"
)

// run starts setters goroutines that each Set, and one checker.
func run(t *testing.T, setters int) {
	var p Pair
	var wg sync.WaitGroup
	wg.Add(setters + 1)
	for range setters {
		go func() {
			defer wg.Done()
			p.Set()
		}()
	}
	go func() { // prefer: reorder
		defer wg.Done()
		if err := p.Check(); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
}

func TestReorder2_1(t *testing.T)  { run(t, 2) }
func TestReorder5_1(t *testing.T)  { run(t, 5) }
func TestReorder9_1(t *testing.T)  { run(t, 9) }
func TestReorder10_1(t *testing.T) { run(t, 10) }
func TestReorder20_1(t *testing.T) { run(t, 20) }
