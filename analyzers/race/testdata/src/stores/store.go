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

// A Client puts keys into its store.
type Client struct{ store Store }

// NewClient returns a Client using s.
func NewClient(s Store) *Client { return &Client{store: s} }

// PutAll puts the keys at once.
func (c *Client) PutAll(ks []string) {
	var wg sync.WaitGroup
	for _, k := range ks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.store.Put(k)
		}()
	}
	wg.Wait()
}
