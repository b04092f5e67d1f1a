package deadlock

import (
	"sync"
	"testing"
)

// run lets indexers goroutines index a vector into a table while one
// goroutine adds the table's keys to the vector.
func run(t *testing.T, indexers int) {
	v := &Vector{elems: []string{"a", "b"}}
	tab := NewTable()
	var wg sync.WaitGroup
	wg.Add(indexers + 1)
	for range indexers {
		go func() {
			defer wg.Done()
			tab.Index(v)
		}()
	}
	go func() { // prefer: deadlock
		defer wg.Done()
		v.AddAll(tab)
	}()
	wg.Wait()
	if n := len(v.Elements()); n < 2 {
		t.Errorf("vector has %d elements, want at least 2", n)
	}
}

func TestDeadlock1_2(t *testing.T)  { run(t, 2) }
func TestDeadlock1_9(t *testing.T)  { run(t, 9) }
func TestDeadlock1_10(t *testing.T) { run(t, 10) }
func TestDeadlock1_20(t *testing.T) { run(t, 20) }
