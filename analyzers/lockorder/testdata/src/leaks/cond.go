package leaks // want package:`orders\{\(leaks.keyLocks\).mu->\(leaks.keyLocks\).m\[\] \(leaks.keyLocks\).m\[\]->\(leaks.keyLocks\).mu\}`

import "sync"

// A Sink's cond is made on the mutex its constructor allocates, which the
// sink then reaches as s.mu: Wait releases and takes back that one lock,
// so every path below is balanced. Silent.
type Sink struct {
	mu      *sync.Mutex
	cond    *sync.Cond
	pending []int
}

func NewSink() *Sink {
	mu := &sync.Mutex{}
	return &Sink{mu: mu, cond: sync.NewCond(mu)}
}

func (s *Sink) Take(stop <-chan struct{}) []int {
	s.mu.Lock()
	for len(s.pending) == 0 {
		select {
		case <-stop:
			s.mu.Unlock()
			return nil
		default:
			s.cond.Wait()
		}
	}
	out := s.pending
	s.pending = nil
	s.mu.Unlock()
	return out
}

// TakeOrLeak returns on one path with the lock still held.
func (s *Sink) TakeOrLeak(stop <-chan struct{}) []int {
	s.mu.Lock() // want `lock leak: \(\*leaks.Sink\).TakeOrLeak returns with \(leaks.Sink\).mu still held on this path but not on others`
	for len(s.pending) == 0 {
		select {
		case <-stop:
			return nil
		default:
			s.cond.Wait()
		}
	}
	out := s.pending
	s.pending = nil
	s.mu.Unlock()
	return out
}
