package goroutines

// A Line's write loop reads its name only after it receives something
// to write: a send on out orders what was done before the send with
// the loop's read.
type Line struct {
	name string
	out  chan int
	done chan struct{}
	sink func(string, int)
}

func NewLine(sink func(string, int)) *Line {
	l := &Line{out: make(chan int), done: make(chan struct{}), sink: sink}
	go l.writeLoop()
	return l
}

func (l *Line) writeLoop() {
	for {
		select {
		case v := <-l.out:
			l.sink(l.name, v)
		case <-l.done:
			return
		}
	}
}

// Write hands v to the write loop.
func (l *Line) Write(v int) { l.out <- v }
