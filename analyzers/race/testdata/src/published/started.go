package published

import "sync"

// A Resolver polls in a goroutine that its poll method starts.
type Resolver struct {
	target string
	polls  int
}

func (r *Resolver) resolveNow() {
	r.polls += len(r.target)
}

func (r *Resolver) poll() {
	go func() { r.resolveNow() }()
}

// dial is only ever handed a new resolver, which its poll publishes to
// the goroutine: setting the target after that races with it.
func dial(r *Resolver, target string) {
	r.poll()
	r.target = target // want `possible data race: \(published.Resolver\).target is written by published.dial and read by goroutine \(\*published.Resolver\).poll\$1`
}

// dialSet sets the target first. Silent.
func dialSet(r *Resolver, target string) {
	r.target = target
	r.poll()
}

// DialResolver dials target.
func DialResolver(target string) *Resolver {
	r := &Resolver{}
	dial(r, target)
	s := &Resolver{}
	dialSet(s, target)
	return s
}

// A Voter beats in a goroutine that startBeat starts, and waits for the
// goroutine's start-up handshake, not its exit (the goroutine signals a
// WaitGroup as it exits). AddVoter starts it on a new voter, and lead on
// the voters of a Cluster whose receiver a closure captures: either way
// the goroutine shares the voter from then on, and its unlocked write
// races with the locked ones.
type Voter struct {
	mu    sync.RWMutex
	index int
	stop  chan bool
	c     *Cluster
}

type Cluster struct {
	mu     sync.Mutex
	voters map[string]*Voter
	beats  sync.WaitGroup
}

func newVoter(c *Cluster) *Voter { return &Voter{stop: make(chan bool), c: c} }

func (m *Voter) startBeat() {
	c := make(chan bool)
	m.c.beats.Add(1)
	go func() {
		defer m.c.beats.Done()
		m.beat(c)
	}()
	<-c
}

func (m *Voter) beat(c chan bool) {
	c <- true
	for {
		select {
		case <-m.stop:
			return
		default:
			m.recover()
		}
	}
}

func (m *Voter) recover() {
	m.index = 0 // want `possible data race: \(\*published.Voter\).recover writes \(published.Voter\).index without holding \(published.Voter\).mu`
}

func (m *Voter) SetIndex(i int) {
	m.mu.Lock()
	m.index = i
	m.mu.Unlock()
}

func (m *Voter) Index() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.index
}

func (m *Voter) advance() {
	m.mu.Lock()
	m.index++
	m.mu.Unlock()
}

func (c *Cluster) lead() {
	for _, m := range c.voters {
		m.startBeat()
	}
	go func() { c.tick() }()
}

func (c *Cluster) tick() {
	c.mu.Lock()
	c.mu.Unlock()
}

func (c *Cluster) AddVoter(name string, lead bool) {
	m := newVoter(c)
	if lead {
		m.startBeat()
	}
	m.advance()
	c.mu.Lock()
	c.voters[name] = m
	c.mu.Unlock()
}
