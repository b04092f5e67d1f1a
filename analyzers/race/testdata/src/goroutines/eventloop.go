package goroutines

import "sync"

// A Node's event loop owns its term: only the loop writes it, under the
// lock for the readers on other goroutines (Term), and the loop reads
// it without the lock, in program order with its own writes. Silent.
type Node struct {
	mu     sync.Mutex
	term   int
	events chan int
}

// Start starts the node's event loop.
func (n *Node) Start() {
	n.events = make(chan int)
	go n.loop()
}

// Step hands the loop an event.
func (n *Node) Step(term int) { n.events <- term }

// Term returns the node's current term.
func (n *Node) Term() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.term
}

func (n *Node) loop() {
	for t := range n.events {
		n.handle(t)
	}
}

func (n *Node) handle(t int) {
	if t > n.term {
		n.advance(t)
	}
	if t == 0 {
		n.reset()
	}
}

func (n *Node) advance(t int) {
	n.mu.Lock()
	n.term = t
	n.mu.Unlock()
}

func (n *Node) reset() {
	n.mu.Lock()
	n.term = 0
	n.mu.Unlock()
}

// StartNodes starts the loops of nodes, one each.
func StartNodes(nodes []*Node) {
	for _, n := range nodes {
		n.Start()
	}
}

// A Crew's workers are several goroutines of one function: a worker's
// unlocked read races with another worker's locked write.
type Crew struct {
	mu   sync.Mutex
	high int
	jobs chan int
}

// Start starts the crew's workers.
func (c *Crew) Start(workers int) {
	c.jobs = make(chan int)
	for i := 0; i < workers; i++ {
		go c.work()
	}
}

// High returns the highest job seen.
func (c *Crew) High() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.high
}

func (c *Crew) work() {
	for j := range c.jobs {
		if j > c.high { // want `possible data race: \(\*goroutines.Crew\).work reads \(goroutines.Crew\).high without holding \(goroutines.Crew\).mu`
			c.raise(j)
		}
		if j == 0 {
			c.clear()
		}
	}
}

func (c *Crew) raise(j int) {
	c.mu.Lock()
	c.high = j // want `\(goroutines.Crew\).high is written by goroutine \(\*goroutines.Crew\).work and read by another instance`
	c.mu.Unlock()
}

func (c *Crew) clear() {
	c.mu.Lock()
	c.high = 0
	c.mu.Unlock()
}

// A Pool starts its loop from a helper that Run calls once per
// connection: one loop a call, all on the same Pool. Reported.
type Pool struct {
	mu    sync.Mutex
	count int
	conns chan int
}

// Run starts a loop for each connection.
func (p *Pool) Run() {
	for c := range p.conns {
		p.serve(c)
	}
}

// Count returns the number of connections seen.
func (p *Pool) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.count
}

func (p *Pool) serve(c int) { go p.conn(c) }

func (p *Pool) conn(c int) {
	if p.count < c { // want `possible data race: \(\*goroutines.Pool\).conn reads \(goroutines.Pool\).count without holding \(goroutines.Pool\).mu`
		p.add()
	}
	if c == 0 {
		p.drop()
	}
}

func (p *Pool) add() {
	p.mu.Lock()
	p.count++
	p.mu.Unlock()
}

func (p *Pool) drop() {
	p.mu.Lock()
	p.count = 0
	p.mu.Unlock()
}
