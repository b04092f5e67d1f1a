package doublelock

import (
	"sync"
	"testing"
)

// TestPutDelete fills the cache only when both Puts run before the
// Delete: then the second Put evicts, and locks twice.
func TestPutDelete(t *testing.T) {
	c := New()
	c.Put("a", 1)
	var wg sync.WaitGroup
	wg.Add(3)
	go func() { defer wg.Done(); c.Delete("a") }()
	go func() { defer wg.Done(); c.Put("b", 2) }()
	go func() { defer wg.Done(); c.Put("c", 3) }()
	wg.Wait()
}
