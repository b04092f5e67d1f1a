package leaks // want package:`orders\{\(leaks.keyLocks\).mu->\(leaks.keyLocks\).m\[\] \(leaks.keyLocks\).m\[\]->\(leaks.keyLocks\).mu \(leaks.valueLog\).mu->\(leaks.logFile\).lock \(leaks.segmentLog\).mu->\(leaks.segment\).lock\}`

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

// A Ring hands the lock of the slot Next takes to Finish through the
// cond it keeps, which Finish resets: the reset holds no lock, and the
// class Finish releases is the one Next took. Silent.
type Ring struct {
	cur   *sync.Cond
	slots []slot
	read  int
}

type slot struct {
	c   *sync.Cond
	val int
}

func NewRing(n int) *Ring {
	r := &Ring{slots: make([]slot, n)}
	for i := range r.slots {
		r.slots[i].c = sync.NewCond(&sync.Mutex{})
	}
	return r
}

// Next returns the next value holding its slot's lock; Finish releases it.
func (r *Ring) Next() int {
	s := &r.slots[r.read%len(r.slots)]
	r.read++
	r.cur = s.c
	s.c.L.Lock()
	return s.val
}

func (r *Ring) Finish() {
	if r.cur != nil {
		r.cur.L.Unlock()
		r.cur = nil
	}
}

// A Queue's Take keeps its slot's lock and nothing releases it.
type Queue struct {
	slots []qslot
	read  int
}

type qslot struct {
	c   *sync.Cond
	val int
}

func NewQueue(n int) *Queue {
	q := &Queue{slots: make([]qslot, n)}
	for i := range q.slots {
		q.slots[i].c = sync.NewCond(&sync.Mutex{})
	}
	return q
}

func (q *Queue) Take() int {
	s := &q.slots[q.read%len(q.slots)]
	q.read++
	s.c.L.Lock() // want `lock leak: \(\*leaks.Queue\).Take returns with leaks.NewQueue.complit still held on every path`
	return s.val
}
