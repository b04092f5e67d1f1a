package stats

import (
	"sync"
	"testing"
)

func TestRecord(t *testing.T) {
	var s Stats
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Record()
		}()
	}
	wg.Wait()
}
