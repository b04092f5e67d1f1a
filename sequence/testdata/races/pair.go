package races

import "sync"

// Pair is updated by two goroutines that start together.
type Pair struct {
	n  int
	wg sync.WaitGroup
}

func (p *Pair) left() {
	defer p.wg.Done()
	p.n = 1
}

func (p *Pair) right() {
	defer p.wg.Done()
	p.n = 2
}

func startPair(p *Pair) {
	p.wg.Add(2)
	go p.left()
	go p.right()
	p.wg.Wait()
}

// Inc races with itself.
func (p *Pair) Inc() {
	p.n++
}
