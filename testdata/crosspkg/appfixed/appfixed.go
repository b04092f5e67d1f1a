// Package appfixed serves requests, counting them with a counterfixed.Counter.
package appfixed

import (
	"sync"

	"example.com/crosspkg/counterfixed"
)

// Serve handles n requests in parallel and reports how many were counted
// so far after each, as a progress log does.
func Serve(c *counterfixed.Counter, n int) []int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	var progress []int
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Inc()
			v := c.Value()
			mu.Lock()
			progress = append(progress, v)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return progress
}
