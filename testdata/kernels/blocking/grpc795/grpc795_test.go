package grpc795

import (
	"errors"
	"sync"
	"testing"
)

var ErrServerStopped = errors.New("grpc: the server has been stopped")

type Conn interface {
	Close() error
}

type Listener interface {
	Accept() (Conn, error)
	Close() error
}

type pipeListener struct {
	once   sync.Once
	closed chan struct{}
	conns  chan Conn
}

func newPipeListener() *pipeListener {
	return &pipeListener{closed: make(chan struct{}), conns: make(chan Conn)}
}

func (l *pipeListener) Accept() (Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.closed:
		return nil, errors.New("listener closed")
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

type ServerTransport interface {
	Drain()
	Close() error
}

type Server struct {
	mu    sync.Mutex
	lis   map[Listener]bool
	conns map[ServerTransport]bool
	drain bool
	cv    *sync.Cond
}

func NewServer() *Server {
	s := &Server{
		lis:   make(map[Listener]bool),
		conns: make(map[ServerTransport]bool),
	}
	s.cv = sync.NewCond(&s.mu)
	return s
}

func (s *Server) Serve(lis Listener) error {
	s.mu.Lock() // deadlock
	if s.lis == nil {
		s.mu.Unlock()
		lis.Close()
		return ErrServerStopped
	}
	s.lis[lis] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock() // deadlock
		if s.lis != nil && s.lis[lis] {
			lis.Close()
			delete(s.lis, lis)
		}
		s.mu.Unlock()
	}()

	for {
		rawConn, err := lis.Accept()
		if err != nil {
			return err
		}
		rawConn.Close()
	}
}

func (s *Server) GracefulStop() {
	s.mu.Lock() // deadlock
	if s.drain || s.conns == nil {
		return
	}
	s.drain = true
	for lis := range s.lis {
		lis.Close()
	}
	s.lis = nil
	for c := range s.conns {
		c.Drain()
	}
	for len(s.conns) != 0 {
		s.cv.Wait()
	}
	s.conns = nil
	s.mu.Unlock()
}

func TestGrpc795(t *testing.T) {
	s := NewServer()
	lis := newPipeListener()
	done := make(chan struct{})
	go func() {
		s.Serve(lis)
		close(done)
	}()

	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.GracefulStop()
		}()
	}
	wg.Wait()
	<-done
}
