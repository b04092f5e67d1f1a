package races

import "sync/atomic"

// Stats is updated deep below Process and read by Total.
type Stats struct {
	total int
	open  int32
}

func (s *Stats) add(n int) {
	s.total += n
}

func record(s *Stats, n int) {
	if s.isOpen() {
		s.add(n)
	}
}

func (s *Stats) isOpen() bool {
	return atomic.LoadInt32(&s.open) == 1
}

func Process(s *Stats, items []int) {
	for _, it := range items {
		record(s, it)
	}
}

func (s *Stats) Open() {
	atomic.StoreInt32(&s.open, 1)
}

func (s *Stats) Total() int {
	return s.total
}
