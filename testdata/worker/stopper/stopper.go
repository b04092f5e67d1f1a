// Package stopper runs jobs on a background worker that selects over its
// work and quit channels. Stop checks whether quit is already closed with a
// select and closes it otherwise; two concurrent Stops can both find it open
// and both close it, and the second close panics.
package stopper

import "sync"

// A Worker runs submitted jobs in one background goroutine.
type Worker struct {
	work chan func()
	quit chan struct{}
	done chan struct{}

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
	select {
	case <-w.quit:
	default:
		close(w.quit)
	}
	<-w.done
}

// Ran returns the number of jobs run.
func (w *Worker) Ran() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.ran
}
