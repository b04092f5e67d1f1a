package published

import "sync"

// A Stream's acknowledgements are handled through a type defined from it
// (quic-go's sendStreamAckHandler): the handler locks the stream's mutex
// as its own field, then calls the stream's helpers through a conversion.
// Both names are one mutex, so the helpers run under it. Silent.
type Stream struct {
	mu          sync.Mutex
	outstanding int
	done        bool
}

type StreamAckHandler Stream

func (s *Stream) Write() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.outstanding++
}

func (s *Stream) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done = true
}

func (s *Stream) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.done, s.outstanding = false, 0
}

func (s *Stream) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return 0
	}
	return s.outstanding
}

func (s *Stream) completed() bool {
	return s.done && s.outstanding == 0
}

func (h *StreamAckHandler) OnAcked() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.outstanding--
	return (*Stream)(h).completed()
}

func (h *StreamAckHandler) OnLost() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return (*Stream)(h).completed()
}

// An Inbox's handler calls the same kind of helper after it unlocks: its
// read is reported.
type Inbox struct {
	mu      sync.Mutex
	pending int
	closed  bool
}

type InboxAckHandler Inbox

func (q *Inbox) Push() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.pending++
}

func (q *Inbox) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
}

func (q *Inbox) Reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed, q.pending = false, 0
}

func (q *Inbox) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return 0
	}
	return q.pending
}

func (q *Inbox) empty() bool {
	return q.closed && q.pending == 0 // want `possible data race: \(\*published.Inbox\).empty reads \(published.Inbox\).closed without holding \(published.Inbox\).mu` `possible data race: \(\*published.Inbox\).empty reads \(published.Inbox\).pending without holding \(published.Inbox\).mu`
}

func (h *InboxAckHandler) OnAcked() bool {
	h.mu.Lock()
	h.pending--
	h.mu.Unlock()
	return (*Inbox)(h).empty()
}

func (h *InboxAckHandler) OnLost() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return (*Inbox)(h).empty()
}
