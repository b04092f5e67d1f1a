// Package stats counts hits and misses without a lock.
package stats

// Stats counts hits and misses.
type Stats struct {
	Hits, Misses int
}

// Record counts a hit and a miss.
func (s *Stats) Record() {
	s.Hits++
	s.Misses++
}
