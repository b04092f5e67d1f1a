// Package stopperfixed is the correct twin of stopper: Stop closes the quit
// channel exactly once, through a sync.Once.
package stopperfixed

import "sync"

// A Worker runs submitted jobs in one background goroutine.
type Worker struct {
	work     chan func()
	quit     chan struct{}
	done     chan struct{}
	quitOnce sync.Once

	mu  sync.Mutex
	ran int
}

// Start returns a running worker.
func Start() *Worker {
	w := &Worker{
		work: make(chan func()),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	go w.loop()
	return w
}

func (w *Worker) loop() {
	defer close(w.done)
	for {
		select {
		case job := <-w.work:
			job()
			w.mu.Lock()
			w.ran++
			w.mu.Unlock()
		case <-w.quit:
			return
		}
	}
}

// Submit hands job to the worker; it reports false when the worker stopped.
func (w *Worker) Submit(job func()) bool {
	select {
	case w.work <- job:
		return true
	case <-w.quit:
		return false
	}
}

// Stop stops the worker and waits for it to exit. It may be called more
// than once.
func (w *Worker) Stop() {
	w.quitOnce.Do(func() { close(w.quit) })
	<-w.done
}

// Ran returns the number of jobs run.
func (w *Worker) Ran() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ran
}
