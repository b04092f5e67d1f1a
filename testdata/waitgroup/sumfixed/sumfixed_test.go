package sumfixed

import "testing"

func TestBatch(t *testing.T) {
	var b Batch
	b.Go([]int{1, 2, 3})
	b.Go([]int{4, 5})
	b.Go([]int{6})
	if got := b.Wait(); got != 21 {
		t.Errorf("total = %d, want 21", got)
	}
}
