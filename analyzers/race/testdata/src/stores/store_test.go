package stores

import "testing"

// TestStore is never used: no test makes one.
type TestStore struct{ puts int }

func (s *TestStore) Put(string) { s.puts++ }

// countingStore is made into a Store, and is not safe for concurrent
// use.
type countingStore struct{ n int }

func (s *countingStore) Put(string) {
	s.n++ // want `possible data race: \(stores.countingStore\).n is written by goroutine stores.PutAll\$1 and written by another instance of stores.PutAll\$1`
}

var counting Store = &countingStore{}

func TestPut(t *testing.T) {
	NewStore().Put("a")
	counting.Put("b")
}
