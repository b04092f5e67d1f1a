package appfixed

import (
	"testing"

	"example.com/crosspkg/counterfixed"
)

func TestServe(t *testing.T) {
	var c counterfixed.Counter
	if got := len(Serve(&c, 2)); got != 2 {
		t.Fatalf("%d progress entries, want 2", got)
	}
}
