package silent

import "sync"

// A Venue, a Room and a Seat each lock their own mutex and call into the
// next while holding it: Venue -> Room -> Seat -> Venue, each edge through a
// method of the other type. A deadlock needs three goroutines at their
// three edges at once, along call paths the analysis cannot check
// against each other: a cycle over three locks with more than one edge
// reached through calls is not reported.
type Venue struct {
	mu    sync.Mutex
	rooms []*Room
}

type Room struct {
	mu    sync.Mutex
	seats []*Seat
}

type Seat struct {
	mu    sync.Mutex
	venue *Venue
}

func (h *Venue) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, r := range h.rooms {
		r.clear()
	}
}

func (h *Venue) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.rooms)
}

func (r *Room) clear() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seats = nil
}

func (r *Room) Free() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, s := range r.seats {
		s.release()
	}
}

func (s *Seat) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.venue = nil
}

func (s *Seat) Report() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.venue.count()
}
