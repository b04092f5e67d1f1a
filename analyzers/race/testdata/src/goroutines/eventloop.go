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

// A Raft's loop owns its role: the loop changes it through setRole,
// under the lock for Role's readers, and reads it without the lock.
// Start sets it too, before it starts the loop, and Stop after it has
// waited for the loop to exit: neither meets the loop. Silent.
type Raft struct {
	mu      sync.Mutex
	role    int
	stopped chan struct{}
	votes   chan int
	wg      sync.WaitGroup
}

func (r *Raft) setRole(role int) {
	r.mu.Lock()
	r.role = role
	r.mu.Unlock()
}

// Role returns the current role.
func (r *Raft) Role() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.role
}

// Leading reports whether the node leads.
func (r *Raft) Leading() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.role == 2
}

// Start starts the loop as a follower.
func (r *Raft) Start() {
	r.stopped = make(chan struct{})
	r.votes = make(chan int)
	r.setRole(1)
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		r.run()
	}()
}

// Stop stops the loop.
func (r *Raft) Stop() {
	close(r.stopped)
	r.wg.Wait()
	r.setRole(0)
}

func (r *Raft) run() {
	for {
		select {
		case <-r.stopped:
			return
		case v := <-r.votes:
			r.vote(v)
		}
	}
}

func (r *Raft) vote(v int) {
	if r.role == 1 && v > 0 {
		r.setRole(2)
	}
}

// A Ballot's loop owns its role the same way, but Demote sets it while
// the loop runs: the loop's unlocked read races with it.
type Ballot struct {
	mu      sync.Mutex
	role    int
	stopped chan struct{}
	votes   chan int
}

func (b *Ballot) setRole(role int) {
	b.mu.Lock()
	b.role = role
	b.mu.Unlock()
}

// Role returns the current role.
func (b *Ballot) Role() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.role
}

// Leading reports whether the ballot leads.
func (b *Ballot) Leading() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.role == 2
}

// Start starts the loop.
func (b *Ballot) Start() {
	b.stopped = make(chan struct{})
	b.votes = make(chan int)
	b.setRole(1)
	go b.run()
}

// Demote makes the ballot a follower again.
func (b *Ballot) Demote() { b.setRole(1) }

func (b *Ballot) run() {
	for {
		select {
		case <-b.stopped:
			return
		case v := <-b.votes:
			b.vote(v)
		}
	}
}

func (b *Ballot) vote(v int) {
	if b.role == 1 && v > 0 { // want `possible data race: \(\*goroutines.Ballot\).vote reads \(goroutines.Ballot\).role without holding \(goroutines.Ballot\).mu`
		b.setRole(2)
	}
}
