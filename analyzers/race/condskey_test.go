package race

import (
	"fmt"
	"testing"
)

func TestCondsKeyEmpty(t *testing.T) {
	for _, a := range []*access{{}, {conds: []paramCond{}, waited: []string{}}} {
		if got, want := condsKey(a), fmt.Sprint(a.conds, a.waited); got != want {
			t.Errorf("condsKey = %q, want %q", got, want)
		}
	}
}
