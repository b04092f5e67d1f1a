package tally_test

import (
	"sync"
	"testing"

	"example.com/explore/tally"
)

// TestAddFromOutside races like TestAddConcurrently, from the external
// test package: its warnings are reported for package tally too.
func TestAddFromOutside(t *testing.T) {
	sum := 0
	var wg sync.WaitGroup
	for i := 1; i <= 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sum = tally.Add(sum, i)
		}()
	}
	wg.Wait()
}
