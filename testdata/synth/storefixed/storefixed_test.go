package storefixed

import "testing"

func TestPut(t *testing.T) {
	s, err := New[string, int](4)
	if err != nil {
		t.Fatal(err)
	}
	s.Put("a", 1)
	if v, ok := s.Get("a"); !ok || v != 1 {
		t.Fatalf("Get = %v, %v", v, ok)
	}
	if n := s.Puts(); n != 1 {
		t.Fatalf("Puts = %d", n)
	}
}
