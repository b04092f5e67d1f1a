package closed

import "sync"

// A Queue records why it closed right before it closes closed (quic-go's
// datagramQueue): a second CloseWithError would close the channel
// again and panic, so closeErr is set once, and readers that received
// from closed read it after the write. Silent.
type Queue struct {
	mu       sync.Mutex
	items    []int
	closeErr error
	closed   chan struct{}
}

func NewQueue() *Queue { return &Queue{closed: make(chan struct{})} }

func (q *Queue) CloseWithError(err error) {
	q.closeErr = err
	close(q.closed)
}

func (q *Queue) Add(v int) error {
	select {
	case <-q.closed:
		return q.closeErr
	default:
	}
	q.mu.Lock()
	q.items = append(q.items, v)
	q.mu.Unlock()
	return nil
}

// A Link also resets its error when it reopens, with no close after the
// write: the read after the receive may meet the reset.
type Link struct {
	err    error
	closed chan struct{}
}

func NewLink() *Link { return &Link{closed: make(chan struct{})} }

func (l *Link) CloseWithError(err error) {
	l.err = err // want `possible data race: \(closed.Link\).err is written by goroutine \(\*closed.Link\).CloseWithError and written by goroutine \(\*closed.Link\).Reopen`
	close(l.closed)
}

func (l *Link) Reopen() {
	l.err = nil // want `possible data race: \(closed.Link\).err is written by goroutine \(\*closed.Link\).Reopen and read by closed.UseLink`
}

func (l *Link) Wait() error {
	<-l.closed
	return l.err
}

func UseQueue(q *Queue) {
	go q.CloseWithError(errClosed)
	_ = q.Add(1)
}

func UseLink(l *Link) {
	go l.CloseWithError(errClosed)
	go l.Reopen()
	_ = l.Wait()
}
