package a

import (
	"sync"
	"time"
)

// A TxnSession resets its state at the end of End with a deferred call
// registered first, so it runs last. By then the lock End takes later
// has been released: directly, or by a goroutine it was handed to
// (franz-go's GroupTransactSession.End).
type TxnSession struct {
	mu      sync.Mutex
	revoked bool
}

func (s *TxnSession) End(fast bool) {
	defer func() {
		s.mu.Lock()
		s.revoked = false
		s.mu.Unlock()
	}()
	s.mu.Lock()
	if fast {
		defer s.mu.Unlock()
	} else {
		defer func() {
			go func() {
				time.Sleep(time.Millisecond)
				s.mu.Unlock()
			}()
		}()
	}
}

// EndForgetful's deferred calls release the lock on neither path: the
// reset locks it again.
func (s *TxnSession) EndForgetful(fast bool) {
	defer func() {
		s.mu.Lock()
		s.revoked = false
		s.mu.Unlock()
	}()
	s.mu.Lock() // want `double lock: \(\*a.TxnSession\).EndForgetful locks s.mu via \(\*a.TxnSession\).EndForgetful\$1 while already holding it`
	if fast {
		defer s.note()
	} else {
		defer func() {
			go func() {
				time.Sleep(time.Millisecond)
				s.note()
			}()
		}()
	}
}

func (s *TxnSession) note() { s.revoked = true }

// A Conn2's refresh callback waits, on a mutex of its own, until the
// constructor has stored the timer. The constructor may run holding a
// registry's lock that the callback takes too: the mutex is new in each
// call, and nothing else has it when the constructor locks it (rueidis).
type ConnPool struct {
	mu    sync.Mutex
	conns []*Conn2
}

type Conn2 struct {
	timer *time.Timer
	reg   *ConnPool
}

func (r *ConnPool) Add() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.conns = append(r.conns, newConn(r))
}

func newConn(r *ConnPool) *Conn2 {
	p := &Conn2{reg: r}
	var mu sync.Mutex
	mu.Lock()
	p.timer = time.AfterFunc(time.Second, func() {
		mu.Lock()
		p.refresh()
		mu.Unlock()
	})
	mu.Unlock()
	return p
}

func (p *Conn2) refresh() {
	p.reg.mu.Lock()
	p.reg.mu.Unlock()
}

// newSharedConn hands its mutex to the callback before it locks it: the
// callback may hold it while the constructor waits for it, holding the
// registry's lock the callback wants.
func (r *ConnPool) AddShared() {
	r.mu.Lock() // want `lock-order cycle: \(\*a.ConnPool\).AddShared acquires a.newSharedConn.mu while holding \(a.ConnPool\).mu, but a.newSharedConn\$1 acquires \(a.ConnPool\).mu while holding a.newSharedConn.mu`
	defer r.mu.Unlock()
	r.conns = append(r.conns, newSharedConn(r))
}

func newSharedConn(r *ConnPool) *Conn2 {
	p := &Conn2{reg: r}
	var mu sync.Mutex
	p.timer = time.AfterFunc(0, func() {
		mu.Lock()
		p.refresh()
		mu.Unlock()
	})
	mu.Lock()
	mu.Unlock()
	return p
}
