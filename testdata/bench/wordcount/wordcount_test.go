package wordcount

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// corpus returns lines of text where word i occurs i+1 times per block.
func corpus(lines int) string {
	var b strings.Builder
	for i := range lines {
		for j := range 12 {
			fmt.Fprintf(&b, "Word%d ", (i*7+j*13)%50)
		}
		b.WriteString("the end.\n")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func TestAdd(t *testing.T) {
	c := NewCounter()
	c.Add(corpus(300), 4)
	if got := c.Lines(); got != 300 {
		t.Errorf("lines = %d, want 300", got)
	}
	counts := c.Counts()
	if counts["the"] != 300 || counts["end"] != 300 {
		t.Errorf("the = %d, end = %d; want 300 each", counts["the"], counts["end"])
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != 300*14 {
		t.Errorf("total words = %d, want %d", total, 300*14)
	}
}

func TestConcurrentAdds(t *testing.T) {
	c := NewCounter()
	var wg sync.WaitGroup
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add(corpus(100), 2)
		}()
	}
	wg.Wait()
	if got := c.Lines(); got != 300 {
		t.Errorf("lines = %d, want 300", got)
	}
}

func TestTop(t *testing.T) {
	c := NewCounter()
	c.Add(corpus(200), 3)
	top := Top(c.Counts(), 3)
	if len(top) != 3 || top[0].Word != "end" || top[1].Word != "the" {
		t.Errorf("top = %v, want end and the first", top)
	}
	for i := 1; i < len(top); i++ {
		if top[i].Count > top[i-1].Count {
			t.Errorf("top not sorted: %v", top)
		}
	}
}

func TestEmpty(t *testing.T) {
	c := NewCounter()
	c.Add("", 2)
	if got := len(c.Counts()); got != 0 {
		t.Errorf("%d words in empty text", got)
	}
}
