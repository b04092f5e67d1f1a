package races

// Worker loops forever; its count is read by Count.
type Worker struct {
	enabled bool
	count   int
}

func (w *Worker) Enable() {
	w.enabled = true
}

func (w *Worker) Run(jobs chan int) {
	for {
		j := <-jobs
		if w.enabled {
			w.count += j
		}
	}
}

func (w *Worker) Count() int {
	return w.count
}

// Drain stops at a closed flag checked in the loop condition; the add
// runs only while it is not closed and the job is positive.
func (w *Worker) Drain(jobs []int, closed *bool) {
	for i := 0; !*closed && i < len(jobs); i++ {
		if jobs[i] > 0 {
			w.count += jobs[i]
		}
	}
}
