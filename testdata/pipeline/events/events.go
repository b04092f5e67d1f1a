// Package events counts handled requests through an event loop. Handle sends
// on the unbuffered events channel while it holds the server's mutex, and the
// loop takes that mutex after each receive: when a second Handle gets the
// mutex before the loop does, the Handle waits for the loop to receive and
// the loop waits for the mutex.
package events

import "sync"

// A Server handles requests and counts them in its event loop.
type Server struct {
	mu      sync.Mutex
	handled int
	counted int
	events  chan string
	done    chan struct{}
}

// NewServer returns a server with its event loop running.
func NewServer() *Server {
	s := &Server{events: make(chan string), done: make(chan struct{})}
	go s.loop()
	return s
}

func (s *Server) loop() {
	defer close(s.done)
	for range s.events {
		s.mu.Lock()
		s.counted++
		s.mu.Unlock()
	}
}

// Handle handles one request and reports it to the event loop.
func (s *Server) Handle(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handled++
	s.events <- name
}

// Close stops the event loop and waits for it to finish.
func (s *Server) Close() {
	close(s.events)
	<-s.done
}

// Counts returns the number of requests handled and counted.
func (s *Server) Counts() (handled, counted int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handled, s.counted
}
