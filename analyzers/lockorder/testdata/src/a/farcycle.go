package a

import "sync"

// An Exchange's Close runs its close hooks under the exchange's lock; one hook, six
// calls down a chain of hooks and wrappers, closes a Feed, which locks.
// Far paths like that are mostly ones no run takes with the first lock
// held: the cycle with Feed.Publish is not reported. The same cycle
// through two calls is.
type Exchange struct {
	mu    sync.Mutex
	feeds []*Feed2
}

// Feed2 is a feed of an exchange.
type Feed2 struct {
	mu   sync.Mutex
	exch *Exchange
}

// Publish locks the feed, then the exchange.
func (f *Feed2) Publish() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.exch.mu.Lock()
	f.exch.mu.Unlock()
}

// Flush locks the exch, then each feed two calls down.
func (h *Exchange) Flush() {
	h.mu.Lock() // want `lock-order cycle: \(\*a.Exchange\).Flush acquires \(a.Feed2\).mu while holding \(a.Exchange\).mu, but \(\*a.Feed2\).Publish acquires \(a.Exchange\).mu while holding \(a.Feed2\).mu`
	defer h.mu.Unlock()
	for _, f := range h.feeds {
		h.flushOne(f)
	}
}

func (h *Exchange) flushOne(f *Feed2) { f.drain() }

func (f *Feed2) drain() {
	f.mu.Lock()
	f.mu.Unlock()
}

// A Catalog2's Close reaches a Source's lock seven calls down.
type Catalog2 struct {
	mu      sync.Mutex
	sources []*Source2
}

// Source2 is a source of a registry.
type Source2 struct {
	mu  sync.Mutex
	reg *Catalog2
}

// Emit locks the source, then the registry.
func (s *Source2) Emit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reg.mu.Lock()
	s.reg.mu.Unlock()
}

// Close closes every source under the registry's lock.
func (r *Catalog2) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.sources {
		close1(s)
	}
}

func close1(s *Source2) { close2(s) }
func close2(s *Source2) { close3(s) }
func close3(s *Source2) { close4(s) }
func close4(s *Source2) { close5(s) }
func close5(s *Source2) { close6(s) }
func close6(s *Source2) { close7(s) }
func close7(s *Source2) {
	s.mu.Lock()
	s.mu.Unlock()
}
