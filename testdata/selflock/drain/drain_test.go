package drain

import (
	"sync"
	"testing"
)

// TestPushDrain empties the queue under Drain only when Drain overtakes
// the pushes.
func TestPushDrain(t *testing.T) {
	q := &Queue{}
	q.Push(1)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); q.Push(2); q.Push(3) }()
	go func() { defer wg.Done(); q.Drain(3) }()
	wg.Wait()
}
