// Package responses declares the values a client returns, which another
// package caches.
package responses

import "sync"

type Response struct {
	Header int
	Values []string
}

// A Guarded value has a lock of its own, which its users must take.
type Guarded struct {
	Mu    sync.Mutex
	Count int
}
