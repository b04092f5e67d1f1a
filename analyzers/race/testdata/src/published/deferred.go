package published

import (
	"errors"
	"sync"
)

type pools struct {
	main *int
}

// A Client's constructor defers a cleanup that closes what it built if a
// later step panics: the deferred closure runs when the constructor
// returns, so capturing the client does not publish it before the
// writes that follow. Silent.
type Client struct {
	*pools
	mu sync.Mutex
}

// NewClient builds a client.
func NewClient() *Client {
	c := Client{pools: &pools{}}
	defer func() {
		if r := recover(); r != nil {
			c.Close()
			panic(r)
		}
	}()
	n := 1
	c.main = &n
	return &c
}

// Close drops the pools.
func (c *Client) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.main = nil
}

// Main returns the main pool.
func (c *Client) Main() *int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.main
}

// A Pump's loop captures its receiver in a deferred closure: the
// receiver is the caller's object, not one the loop made, and the
// unlocked write races with N and Reset.
type Pump struct {
	mu    sync.Mutex
	n     int
	in    chan int
	doneN int
}

// Start runs the loop.
func (p *Pump) Start() { go p.loop() }

func (p *Pump) loop() {
	defer func() {
		p.mu.Lock()
		p.doneN++
		p.mu.Unlock()
	}()
	for v := range p.in {
		p.n += v // want `possible data race: \(\*published.Pump\).loop writes \(published.Pump\).n without holding \(published.Pump\).mu`
	}
}

// N returns the sum.
func (p *Pump) N() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n
}

// Reset clears the sum.
func (p *Pump) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n = 0
}

// OpenVault builds a Vault through its named result, which a deferred
// cleanup captures; return db, nil stores the result back into itself.
// The store is new until Open returns it: silent.
func OpenVault(path string) (db *Vault, err error) {
	db = &Vault{}
	defer func() {
		if err != nil {
			db.Close()
		}
	}()
	db.path = path
	if path == "" {
		return nil, errEmpty
	}
	return db, nil
}

var errEmpty = errors.New("empty path")

// A Vault is guarded by mu once open.
type Vault struct {
	mu   sync.Mutex
	path string
}

// Close clears the path.
func (s *Vault) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.path = ""
}

// Path returns the path.
func (s *Vault) Path() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}
