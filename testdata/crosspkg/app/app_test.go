package app

import (
	"testing"

	"example.com/crosspkg/counter"
)

func TestServe(t *testing.T) {
	var c counter.Counter
	if got := len(Serve(&c, 2)); got != 2 {
		t.Fatalf("%d progress entries, want 2", got)
	}
}
