package abslist

import (
	"sync"
	"testing"
)

// run compares two equal lists in one goroutine while adders goroutines
// each add the same element to the second list if it is absent.
func run(t *testing.T, adders int) {
	l1, l2 := NewList(1, 2, 3), NewList(1, 2, 3)
	var wg sync.WaitGroup
	wg.Add(adders + 1)
	for range adders {
		go func() {
			defer wg.Done()
			l2.AddIfAbsent(4)
		}()
	}
	go func() { // prefer: abslist
		defer wg.Done()
		l1.Equal(l2)
	}()
	wg.Wait()
	if !l2.Equal(NewList(1, 2, 3, 4)) {
		t.Errorf("l2 does not hold 1, 2, 3, 4 after the adds")
	}
}

func TestAbsList1_2(t *testing.T)  { run(t, 2) }
func TestAbsList1_7(t *testing.T)  { run(t, 7) }
func TestAbsList1_8(t *testing.T)  { run(t, 8) }
func TestAbsList1_10(t *testing.T) { run(t, 10) }
func TestAbsList1_20(t *testing.T) { run(t, 20) }
