package eventsfixed

import (
	"sync"
	"testing"
)

func TestHandle(t *testing.T) {
	s := NewServer()
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Handle(name)
		}()
	}
	wg.Wait()
	s.Close()
	if handled, counted := s.Counts(); handled != 2 || counted != 2 {
		t.Errorf("handled %d, counted %d; want 2 and 2", handled, counted)
	}
}
