package collectors

import "sync"

// A chunk belongs to one queue at a time. A stream reads the chunks it
// received under its own lock; an association clears the data of the
// chunks it sent under its own. The two hold different chunks: neither
// lock is the chunk's, and nothing shows one chunk under both.
type chunk struct {
	data []byte
}

type stream struct {
	mu sync.Mutex
	in []*chunk
}

type association struct {
	mu       sync.Mutex
	inflight []*chunk
	streams  []*stream
}

func (s *stream) read() (n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.in {
		n += len(c.data)
	}
	return n
}

func (a *association) ack() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, c := range a.inflight {
		c.data = nil
	}
}

// Run acknowledges and reads in goroutines of their own.
func (a *association) Run() {
	go a.ack()
	for _, s := range a.streams {
		go s.read()
	}
}
