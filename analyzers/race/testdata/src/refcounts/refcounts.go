// Package refcounts resets objects once the last of their references is
// released, and pools them.
package refcounts

import (
	"sync"
	"sync/atomic"
)

type Tracer struct {
	mu    sync.Mutex
	spans int
	pool  sync.Pool
}

type Span struct {
	sync.Mutex
	refs   int32
	name   string
	tags   []string
	tracer *Tracer
}

func (s *Span) SetName(name string) {
	s.Lock()
	s.name = name
	s.Unlock()
}

func (s *Span) Tag(t string) {
	s.Lock()
	s.tags = append(s.tags, t)
	s.Unlock()
}

func (s *Span) Retain() { atomic.AddInt32(&s.refs, 1) }

// Release resets the span when it drops the last reference: its holders
// released theirs first, each after its own accesses.
func (s *Span) Release() {
	if atomic.AddInt32(&s.refs, -1) == -1 {
		s.reset()
		s.tracer.pool.Put(s)
	}
}

func (s *Span) reset() {
	s.name = ""
	s.tags = s.tags[:0]
}

// Drop is Release written with an early return.
func (s *Span) Drop() {
	if atomic.AddInt32(&s.refs, -1) != -1 {
		return
	}
	s.name = ""
	s.tags = nil
}

// Finish releases the span while still counting it in its tracer: the
// tracer has other spans, which its lock does not keep from counting.
func (s *Span) Finish() {
	if atomic.AddInt32(&s.refs, -1) == -1 {
		s.tracer.spans-- // want `possible data race: \(refcounts.Tracer\).spans is written by goroutine refcounts.Use\$2 and written by another instance of refcounts.Use\$2`
	}
}

// Forget clears the name on every release but the last: the other
// holders still use the span.
func (s *Span) Forget() {
	if atomic.AddInt32(&s.refs, -1) != -1 {
		s.name = "" // want `possible data race: \(refcounts.Span\).name is written by goroutine refcounts.Use\$1 and written by goroutine refcounts.Use\$2`
	}
}

type Query struct {
	refs  uint32
	stmt  string
	trace bool
}

func (q *Query) SetTrace() {
	q.trace = true
}

// decRef resets the query on the last release of an unsigned count.
func (q *Query) decRef() {
	if n := atomic.AddUint32(&q.refs, ^uint32(0)); n == 0 {
		*q = Query{refs: 1}
	}
}

func Use(s *Span, q *Query) {
	s.Retain()
	go func() {
		s.SetName("a")
		s.Forget()
	}()
	for i := 0; i < 2; i++ {
		go func() {
			s.Tag("b")
			s.Release()
			s.Drop()
			s.Finish()
			s.SetName("c")
		}()
	}
	for i := 0; i < 2; i++ {
		go func() {
			q.decRef()
		}()
	}
}

type Context struct {
	id, parent int
}

type Entry struct {
	mu   sync.Mutex
	refs atomic.Int64
	ctx  Context
	job  *Job
}

type Job struct {
	done int
}

func (e *Entry) SetContext(id int) {
	e.mu.Lock()
	e.ctx = Context{id: id}
	e.mu.Unlock()
}

// Close clears the entry's context, a struct it holds by value, when the
// last reference goes; its job is another object, which other entries
// share.
func (e *Entry) Close() {
	if e.refs.Add(-1) > 0 {
		return
	}
	e.ctx = Context{}
	e.job.done++ // want `possible data race: \(refcounts.Job\).done is written by goroutine refcounts.Run\$1 and written by another instance of refcounts.Run\$1`
}

func Run(e *Entry) {
	for i := 0; i < 2; i++ {
		go func() {
			e.SetContext(i)
			e.Close()
		}()
	}
}
