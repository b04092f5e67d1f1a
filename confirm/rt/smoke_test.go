package rt

import (
	"testing"
)

func TestSmoke(t *testing.T) {
	cfg := &Config{Strategy: "random", Seed: 1, MaxExecs: 20}
	res := runSearch(t, cfg, func(t *testing.T) {
		var mu Mutex
		n := 0
		ch := MakeChan[int](0)
		for i := 0; i < 3; i++ {
			Go(func() {
				mu.Lock()
				n++
				mu.Unlock()
				Send(ch, 1)
			})
		}
		for i := 0; i < 3; i++ {
			Recv(ch)
		}
		mu.Lock()
		if n != 3 {
			t.Errorf("n = %d", n)
		}
		mu.Unlock()
	})
	t.Logf("%+v", res.Stats)
	if res.Verdict != VerdictNone {
		t.Fatalf("verdict %s: %+v %s", res.Verdict, res.Failure, res.Divergence)
	}
}
