// Package stores calls a store through an interface from goroutines;
// which implementations the call can reach depends on which types are
// ever put into an interface value.
package stores

import "sync"

// A Store keeps keys.
type Store interface{ Put(k string) }

type memStore struct {
	mu sync.Mutex
	m  map[string]bool
}

func (s *memStore) Put(k string) {
	s.mu.Lock()
	s.m[k] = true
	s.mu.Unlock()
}

// NewStore returns a Store safe for concurrent use.
func NewStore() Store { return &memStore{m: map[string]bool{}} }

// PutAll puts the keys into st at once. The package never calls it: st
// is whatever its callers pass.
func PutAll(st Store, ks []string) {
	var wg sync.WaitGroup
	for _, k := range ks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st.Put(k)
		}()
	}
	wg.Wait()
}

// countingStore is not safe for concurrent use; it is made into a
// Store.
type countingStore struct{ n int }

func (s *countingStore) Put(string) {
	s.n++ // want `possible data race: \(stores.countingStore\).n is written by goroutine stores.PutAll\$1 and written by another instance of stores.PutAll\$1`
}

var counting Store = &countingStore{}

// A Client puts keys into the store it was made with.
type Client struct{ store Store }

// NewClient returns a client of st.
func NewClient(st Store) *Client { return &Client{store: st} }

// Put puts k into the client's store.
func (c *Client) Put(k string) { c.store.Put(k) }
