package warmfixed

import (
	"context"
	"testing"
	"time"
)

func TestRefresh(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	var c Cache
	start := time.Now()
	c.Start(ctx, 10*time.Millisecond)
	time.Sleep(35 * time.Millisecond)
	if d := time.Since(start); d < 35*time.Millisecond {
		t.Fatalf("slept %v, want at least 35ms", d)
	}
	if v := c.Value(); v > 4 {
		t.Errorf("value %d after 35ms of 10ms refreshes", v)
	}
	<-ctx.Done()
}
