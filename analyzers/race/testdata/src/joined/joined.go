// Package joined reads, without the lock, what goroutines wrote under
// it, after waiting for all of them.
package joined

import (
	"io"
	"strconv"
	"sync"
)

// A Server hands out a handle per file its workers open, under its lock,
// and closes what is left open once the workers are done.
type Server struct {
	mu    sync.Mutex
	count int
	open  map[string]io.Closer
}

func (s *Server) nextHandle(f io.Closer) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	h := strconv.Itoa(s.count)
	s.open[h] = f
	return h
}

func (s *Server) closeHandle(h string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, h)
}

func (s *Server) getHandle(h string) io.Closer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[h]
}

func (s *Server) worker(reqs <-chan io.Closer) {
	for f := range reqs {
		h := s.nextHandle(f)
		s.getHandle(h).Close()
		s.closeHandle(h)
	}
}

// Serve has its workers started by startWorkers, waits for them once
// reqs is closed, then closes the files left open: the workers are done
// by then.
func (s *Server) Serve(reqs <-chan io.Closer) {
	var wg sync.WaitGroup
	run := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.worker(reqs)
		}()
	}
	startWorkers(4, run)
	wg.Wait()
	for _, f := range s.open {
		f.Close()
	}
}

func startWorkers(n int, run func()) {
	for i := 0; i < n; i++ {
		run()
	}
}

// A Store is a Server whose Serve closes the files left open before its
// workers are done.
type Store struct {
	mu    sync.Mutex
	count int
	open  map[string]io.Closer
}

func (s *Store) nextHandle(f io.Closer) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.count++
	h := strconv.Itoa(s.count)
	s.open[h] = f
	return h
}

func (s *Store) closeHandle(h string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.open, h)
}

func (s *Store) getHandle(h string) io.Closer {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[h]
}

func (s *Store) worker(reqs <-chan io.Closer) {
	for f := range reqs {
		h := s.nextHandle(f)
		s.getHandle(h).Close()
		s.closeHandle(h)
	}
}

// ServeLeaky closes the files left open before its workers are done.
func (s *Store) ServeLeaky(reqs <-chan io.Closer) {
	var wg sync.WaitGroup
	run := func() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.worker(reqs)
		}()
	}
	startWorkers(4, run)
	for _, f := range s.open { // want `\(\*joined.Store\).ServeLeaky reads map contents of \(joined.Store\).open without holding \(joined.Store\).mu`
		f.Close()
	}
	wg.Wait()
}

// A Tree adds nodes from goroutines it waits for, then commits them.
type Tree struct {
	mu   sync.Mutex
	seen map[int]bool
}

func (t *Tree) add(n int) {
	t.mu.Lock()
	t.seen[n] = true // want `map contents of \(joined.Tree\).seen is written by goroutine \(\*joined.Tree\).AddSome\$1 and read by \(\*joined.Tree\).AddSome`
	t.mu.Unlock()
}

func (t *Tree) has(n int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.seen[n]
}

// AddAll adds the nodes in parallel, then counts them: every add has
// returned.
func (t *Tree) AddAll(nodes []int) int {
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			t.add(n)
		}(n)
	}
	wg.Wait()
	return len(t.seen)
}

// AddSome counts before the adds have returned.
func (t *Tree) AddSome(nodes []int) int {
	var wg sync.WaitGroup
	for _, n := range nodes {
		wg.Add(1)
		go func(n int) {
			defer wg.Done()
			t.add(n)
		}(n)
	}
	c := len(t.seen)
	wg.Wait()
	return c
}
