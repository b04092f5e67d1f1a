package goroutines

// A frameSender's loop closes stop as it returns: close, which waits on
// stop before it flushes, runs after everything the loop did.
type frameSender struct {
	stop  chan struct{}
	queue chan []byte
	last  []byte
}

func newFrameSender() *frameSender {
	s := &frameSender{stop: make(chan struct{}), queue: make(chan []byte, 8)}
	go s.sendLoop()
	return s
}

func (s *frameSender) sendLoop() {
	defer close(s.stop)
	for {
		select {
		case b := <-s.queue:
			s.last = b
		case <-s.stop:
			return
		}
	}
}

func (s *frameSender) close() {
	s.stop <- struct{}{}
	<-s.stop
	s.flush()
}

func (s *frameSender) abort() {
	s.flush()
}

func (s *frameSender) flush() {
	s.last = nil // want `possible data race: \(goroutines.frameSender\).last is written by goroutines.AbortSender and written by goroutine \(\*goroutines.frameSender\).sendLoop`
}

// CloseSender closes the sender: the flush waits for the loop. Silent.
func CloseSender() {
	s := newFrameSender()
	s.queue <- []byte("a")
	s.close()
}

// AbortSender flushes while the loop runs.
func AbortSender() {
	s := newFrameSender()
	s.queue <- []byte("a")
	s.abort()
}
