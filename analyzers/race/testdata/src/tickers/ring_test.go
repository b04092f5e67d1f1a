package tickers

import "testing"

func TestSweep(t *testing.T) {
	es := []*entry{{dead: true}}
	sweep(es)
	tally(es)
	if es[0].seen != 2 {
		t.Fatal(es[0].seen)
	}
}

func TestDial(t *testing.T) {
	l := &Line{}
	l.dial()
}
