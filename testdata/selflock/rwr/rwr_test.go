package rwr

import (
	"sync"
	"testing"
)

func TestLookupAdd(t *testing.T) {
	r := New()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); r.Lookup("a") }()
	go func() { defer wg.Done(); r.Add("a", 1) }()
	wg.Wait()
}
