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
