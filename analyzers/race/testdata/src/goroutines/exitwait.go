package goroutines

import "context"

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

// A batcher's two loops each send on done as the last thing they do:
// Close, which stops them and receives from done once per loop, runs its
// writes after everything the loops did. Silent.
type batcher struct {
	in      chan int
	out     chan []int
	stopIn  chan struct{}
	stopOut chan struct{}
	done    chan struct{}
	buf     []int
	sent    int
}

func newBatcher() *batcher {
	b := &batcher{in: make(chan int), out: make(chan []int, 1), stopIn: make(chan struct{}), stopOut: make(chan struct{}), done: make(chan struct{})}
	go b.collect()
	go b.send()
	return b
}

func (b *batcher) collect() {
loop:
	for {
		select {
		case v := <-b.in:
			b.buf = append(b.buf, v)
		case <-b.stopIn:
			break loop
		}
	}
	b.out <- b.buf
	b.done <- struct{}{}
}

func (b *batcher) send() {
	for {
		select {
		case batch := <-b.out:
			b.sent += len(batch)
		case <-b.stopOut:
			b.done <- struct{}{}
			return
		}
	}
}

func (b *batcher) Close() int {
	close(b.stopIn)
	<-b.done
	close(b.stopOut)
	<-b.done
	b.buf = nil
	return b.sent
}

// Peek reads the count while the loops run.
func (b *batcher) Peek() int {
	return b.sent // want `possible data race: \(goroutines.batcher\).sent is read by goroutines.PeekBatcher and written by goroutine \(\*goroutines.batcher\).send`
}

// CloseBatcher closes a batcher: silent.
func CloseBatcher() int {
	b := newBatcher()
	b.in <- 1
	return b.Close()
}

// PeekBatcher peeks at a running batcher.
func PeekBatcher() int {
	b := newBatcher()
	b.in <- 1
	return b.Peek()
}

// A result is filled by one goroutine, which closes done as its last act;
// Wait returns it after receiving from done on every path that reaches
// the read: a plain receive without a context to cancel, else the
// receive case of a select whose other case returns. Silent.
type result struct {
	done chan struct{}
	val  int
	err  error
}

func (r *result) Wait(ctx context.Context) (int, error) {
	if ch := ctx.Done(); ch == nil {
		<-r.done
	} else {
		select {
		case <-ch:
			return 0, ctx.Err()
		case <-r.done:
		}
	}
	return r.val, r.err
}

// Peek reads the value with no wait on one path: reported.
func (r *result) Peek(ctx context.Context) int {
	select {
	case <-ctx.Done():
	case <-r.done:
	}
	return r.val
}

func fill(r *result) {
	r.val = 1 // want `possible data race: \(goroutines.result\).val is written by goroutine goroutines.fill and read by goroutines.PeekResult`
	r.err = nil
	close(r.done)
}

// WaitResult waits for a result: silent.
func WaitResult(ctx context.Context) (int, error) {
	r := &result{done: make(chan struct{})}
	go fill(r)
	return r.Wait(ctx)
}

// PeekResult peeks at a result whose filler may still run.
func PeekResult(ctx context.Context) int {
	r := &result{done: make(chan struct{})}
	go fill(r)
	return r.Peek(ctx)
}

// CountUntilCancel's goroutine cancels the context after its last
// increment, and the count is read after <-ctx.Done(). Silent.
func CountUntilCancel() int {
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	go func() {
		for i := 0; i < 10; i++ {
			n++
		}
		cancel()
	}()
	<-ctx.Done()
	return n
}

// CountBeforeCancel reads the count without waiting.
func CountBeforeCancel() int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	n := 0
	go func() {
		n++ // want `possible data race: captured variable n in goroutines.CountBeforeCancel is written by goroutine goroutines.CountBeforeCancel\$1 and read by goroutines.CountBeforeCancel`
		cancel()
	}()
	v := n
	<-ctx.Done()
	return v
}

func work() error { return nil }

// FirstOfTwo waits for whichever of two goroutines cancels its context
// first: the other may still be writing err when it is read.
func FirstOfTwo() error {
	var err error
	c0, cancel0 := context.WithCancel(context.Background())
	go func() {
		defer cancel0()
		err = work() // want `captured variable err in goroutines.FirstOfTwo is written by goroutine goroutines.FirstOfTwo\$1 and read by goroutines.FirstOfTwo`
	}()
	c1, cancel1 := context.WithCancel(context.Background())
	go func() {
		defer cancel1()
		err = work() // want `captured variable err in goroutines.FirstOfTwo is written by goroutine goroutines.FirstOfTwo\$2 and read by goroutines.FirstOfTwo`
	}()
	select {
	case <-c0.Done():
	case <-c1.Done():
	}
	return err
}
