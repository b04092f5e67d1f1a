// Package races holds data races for the sequence tests.
package races

// Server counts hits once started; Handle races with Report.
type Server struct {
	ready bool
	hits  int
}

func (s *Server) Start() {
	s.ready = true
}

func (s *Server) Stop() {
	s.ready = false
}

func (s *Server) Handle() {
	if s.ready {
		s.hits++
	}
}

func (s *Server) Report() int {
	return s.hits
}
