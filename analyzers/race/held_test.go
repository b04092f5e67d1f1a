package race

import "testing"

func TestHeldSetProtects(t *testing.T) {
	w := func(c string) heldLock { return heldLock{Class: c} }
	r := func(c string) heldLock { return heldLock{Class: c, Read: true} }
	tests := []struct {
		name string
		a, b []heldLock
		want bool
	}{
		{"both empty", nil, nil, false},
		{"one empty", []heldLock{w("mu")}, nil, false},
		{"same lock", []heldLock{w("mu")}, []heldLock{w("mu")}, true},
		{"different locks", []heldLock{w("mu1")}, []heldLock{w("mu2")}, false},
		{"one common among several", []heldLock{w("a"), w("m")}, []heldLock{w("m"), w("z")}, true},
		{"both read", []heldLock{r("mu")}, []heldLock{r("mu")}, false},
		{"read and write", []heldLock{r("mu")}, []heldLock{w("mu")}, true},
		{"read lock and another common write lock", []heldLock{r("a"), w("b")}, []heldLock{r("a"), w("b")}, true},
	}
	for _, tt := range tests {
		a, b := makeHeldSet(tt.a), makeHeldSet(tt.b)
		if got := a.protects(b); got != tt.want {
			t.Errorf("%s: %v.protects(%v) = %v, want %v", tt.name, a, b, got, tt.want)
		}
		if got := b.protects(a); got != tt.want {
			t.Errorf("%s: protects is not symmetric", tt.name)
		}
	}
}

func TestMakeHeldSet(t *testing.T) {
	got := makeHeldSet([]heldLock{{Class: "b"}, {Class: "a", Read: true}, {Class: "a"}})
	want := heldSet{{Class: "a"}, {Class: "b"}}
	if !equalHeld(got, want) {
		t.Errorf("makeHeldSet = %v, want %v (sorted, a class held in both modes kept as write)", got, want)
	}
	if s := got.union(heldSet{{Class: "c", Read: true}}).String(); s != "a, b, c (read)" {
		t.Errorf("union.String() = %q", s)
	}
	if !got.has("b") || got.has("c") || got.readOnly("a") {
		t.Errorf("has/readOnly wrong for %v", got)
	}
	if s := heldSet(nil).String(); s != "no lock" {
		t.Errorf("empty String() = %q", s)
	}
}

func TestExportedGlobal(t *testing.T) {
	tests := map[string]bool{
		"example.com/stats.Total": true,
		"example.com/stats.total": false,
		"":                        false,
	}
	for key, want := range tests {
		if got := exportedGlobal(key); got != want {
			t.Errorf("exportedGlobal(%q) = %v, want %v", key, got, want)
		}
	}
}
