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

// A recorder is made only by a test that puts one key at a time; the
// test that puts from goroutines hands the client the package's store,
// and tests run one at a time. Silent.
type recorder struct{ keys []string }

func (r *recorder) Put(k string) { r.keys = append(r.keys, k) }

func TestRecorder(t *testing.T) {
	NewClient(&recorder{}).Put("a")
}

func TestConcurrentPuts(t *testing.T) {
	c := NewClient(NewStore())
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			c.Put("k")
			done <- true
		}()
	}
	<-done
	<-done
}

// A sharedCounter is what the test that puts from goroutines makes.
type sharedCounter struct{ n int }

func (s *sharedCounter) Put(string) {
	s.n++ // want `possible data race: \(stores.sharedCounter\).n is written by goroutine stores.TestSharedCounter\$1 and written by another instance of stores.TestSharedCounter\$1`
}

func TestSharedCounter(t *testing.T) {
	c := NewClient(newCounter())
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func() {
			c.Put("k")
			done <- true
		}()
	}
	<-done
	<-done
}

func newCounter() Store { return &sharedCounter{} }
