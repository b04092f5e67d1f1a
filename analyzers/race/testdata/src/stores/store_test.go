package stores

import "testing"

// TestStore is never used: no test puts it into a Client.
type TestStore struct{ puts int }

func (s *TestStore) Put(string) { s.puts++ }

// countingStore is used, and is not safe for concurrent use.
type countingStore struct{ n int }

func (s *countingStore) Put(string) {
	s.n++ // want `possible data race: \(stores.countingStore\).n is written by goroutine \(\*stores.Client\).PutAll\$1 and written by another instance`
}

func TestPutAll(t *testing.T) {
	NewClient(NewStore()).PutAll([]string{"a", "b"})
	NewClient(&countingStore{}).PutAll([]string{"a", "b"})
}
