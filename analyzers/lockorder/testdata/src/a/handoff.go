package a

import (
	"context"
	"errors"
	"sync"
)

var errPoolClosed = errors.New("closed")

// A Pool's acquire hands its read lock to the caller on success (release
// unlocks it), but returns the context's error still holding it: the
// caller, seeing the error, never releases (etcd 5509).
type Pool struct {
	mu     sync.RWMutex
	closed bool
	conn   int
}

func (p *Pool) acquire(ctx context.Context) error {
	for {
		p.mu.RLock() // want `lock leak: \(\*a.Pool\).acquire returns with \(a.Pool\).mu still held`
		if p.conn != 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		closed := p.closed
		p.mu.RUnlock()
		if closed {
			return errPoolClosed
		}
	}
}

func (p *Pool) release() { p.mu.RUnlock() }

func (p *Pool) Get(ctx context.Context) (int, error) {
	if err := p.acquire(ctx); err != nil {
		return 0, err
	}
	defer p.release()
	return p.conn, nil
}

// A Server calls its NotifyStarted hook once it serves. startServer
// waits for the hook with a lock it locks twice: the server's goroutine
// releases it through the stored method value, and nothing leaks.
type Server struct {
	NotifyStarted func()
}

func (s *Server) serve() {
	if s.NotifyStarted != nil {
		s.NotifyStarted()
	}
}

func startServer(opts ...func(*Server)) (*Server, error) {
	s := &Server{}
	started := sync.Mutex{}
	started.Lock()
	s.NotifyStarted = started.Unlock
	for _, o := range opts {
		o(s)
	}
	go func() {
		s.serve()
	}()
	started.Lock()
	return s, nil
}

func startIfReady(ready bool) (*Server, error) {
	if !ready {
		return nil, errPoolClosed
	}
	return startServer()
}

func startLeaky(fail bool) (*Server, error) {
	var started sync.Mutex
	s := &Server{}
	started.Lock() // want `lock leak: a.startLeaky returns with a.startLeaky.started still held on this path but not on others`
	if fail {
		return nil, errPoolClosed
	}
	go s.serve()
	started.Unlock()
	return s, nil
}
