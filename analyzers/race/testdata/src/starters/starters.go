// Package starters hands function literals and methods to functions of
// the standard library that run them in goroutines of their own:
// time.AfterFunc and context.AfterFunc once they have returned, an HTTP
// server's handlers one goroutine per request, many at once.
package starters

import (
	"context"
	"net/http"
	"sync"
	"time"
)

type Session struct {
	mu      sync.Mutex
	expired bool
	hits    map[string]int
	timer   *time.Timer
}

// Expire marks the session expired when the timer fires, while the
// caller resets the flag.
func Expire(d time.Duration) *Session {
	s := &Session{}
	time.AfterFunc(d, func() {
		s.expired = true // want `possible data race: \(starters.Session\).expired is written by goroutine starters.Expire\$1 and written by starters.Expire`
	})
	s.expired = false
	return s
}

// ExpireLocked takes the lock on both sides. Silent.
func ExpireLocked(d time.Duration) *Session {
	s := &Session{}
	time.AfterFunc(d, func() {
		s.mu.Lock()
		s.expired = true
		s.mu.Unlock()
	})
	s.mu.Lock()
	s.expired = false
	s.mu.Unlock()
	return s
}

// ExpireAfterSetup sets the flag up before the timer exists. Silent.
func ExpireAfterSetup(d time.Duration) *Session {
	s := &Session{}
	s.expired = false
	time.AfterFunc(d, func() {
		s.expired = true
	})
	return s
}

// Rearm keeps the timer in the session and resets it when it fires: the
// callback may read the field before AfterFunc's caller has written it.
func Rearm(d time.Duration) *Session {
	s := &Session{}
	s.timer = time.AfterFunc(d, func() {
		s.timer.Reset(d) // want `possible data race: \(starters.Session\).timer is read by goroutine starters.Rearm\$1 and written by starters.Rearm`
	})
	return s
}

// Cancelled marks the session when ctx is cancelled, while the caller
// reads the flag.
func Cancelled(ctx context.Context) bool {
	s := &Session{}
	context.AfterFunc(ctx, func() {
		s.expired = true // want `possible data race: \(starters.Session\).expired is written by goroutine starters.Cancelled\$1 and read by starters.Cancelled`
	})
	return s.expired
}

// EachRound starts, in each round, a timer for the first session and a
// goroutine for the others, each on the session of its round. Silent.
func EachRound(n int, d time.Duration) {
	for i := 0; i < n; i++ {
		s := &Session{}
		if i == 0 {
			time.AfterFunc(d, func() { s.expired = true })
		} else {
			go func() { s.expired = true }()
		}
	}
}

// count is a handler: the server runs it for each request, at once.
func (s *Session) count(w http.ResponseWriter, r *http.Request) {
	s.hits[r.URL.Path]++ // want `possible data race: map contents of \(starters.Session\).hits is written by goroutine \(\*starters.Session\).count and written by another instance of \(\*starters.Session\).count`
}

// countLocked is a handler that takes the lock. Silent.
func (s *Session) countLocked(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.hits[r.URL.Path]++
	s.mu.Unlock()
}

// Serve registers both handlers.
func Serve(mux *http.ServeMux) {
	s := &Session{hits: map[string]int{}}
	mux.HandleFunc("/count", s.count)
	http.HandleFunc("/locked", s.countLocked)
}
