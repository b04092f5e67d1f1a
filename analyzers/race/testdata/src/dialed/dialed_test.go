package dialed

import (
	"sync"
	"testing"
)

func TestGet(t *testing.T) {
	p := &Pool{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := p.Get()
			c.Send("PING")
			c.Close()
		}()
	}
	wg.Wait()
	p.Close()
}
