package observer

import (
	"sync"
	"testing"
)

func TestSetAndRefresh(t *testing.T) {
	s := &Subject{}
	o := NewObserver(s)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		s.Set(7)
	}()
	go func() {
		defer wg.Done()
		o.Refresh()
	}()
	wg.Wait()
	if got := o.Last(); got != 7 {
		t.Errorf("observer saw %d, want 7", got)
	}
}
