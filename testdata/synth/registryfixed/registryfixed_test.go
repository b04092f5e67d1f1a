package registryfixed

import "testing"

func TestClose(t *testing.T) {
	r := New()
	var closed []string
	r.SetHook(func(name string) { closed = append(closed, name) })
	r.Register("a", func() {})
	r.Close("a")
	r.Close("b")
	if len(closed) != 1 || closed[0] != "a" {
		t.Fatalf("closed %v, want [a]", closed)
	}
}
