// Package serial has tests that fail whatever the schedule: a failure the
// serial execution (no preemption) also has is no concurrency bug.
package serial

import "sync"

// registry holds names registered once per process.
var registry sync.Map

// Register adds name and reports whether it was new.
func Register(name string) bool {
	_, loaded := registry.LoadOrStore(name, true)
	return !loaded
}

// Sum adds xs in two goroutines.
func Sum(xs []int) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, half := range [][]int{xs[:len(xs)/2], xs[len(xs)/2:]} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := 0
			for _, x := range half {
				s += x
			}
			mu.Lock()
			total += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	return total
}
