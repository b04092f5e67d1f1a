package stores

import "testing"

// TestStore is never used: no test makes one.
type TestStore struct{ puts int }

func (s *TestStore) Put(string) { s.puts++ }

func TestPut(t *testing.T) {
	NewStore().Put("a")
	counting.Put("b")
}

// tally counts for one test, which decides how many goroutines use it.
type tally struct{ n int }

func (t *tally) Put(string) { t.n++ }

func TestTally(t *testing.T) {
	var st Store = &tally{}
	st.Put("a")
}
