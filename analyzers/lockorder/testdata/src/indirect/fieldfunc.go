package indirect

import "sync"

// A callback stored in a struct field and passed on to a function that
// calls it under its lock: the functions stored in the field are called
// there (kubernetes30872).

type FIFO struct {
	lock  sync.Mutex
	items []int
}

func (q *FIFO) HasSynced() bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	return len(q.items) == 0
}

func (q *FIFO) Pop(process func(int)) {
	q.lock.Lock()
	defer q.lock.Unlock()
	if len(q.items) > 0 {
		process(q.items[0])
		q.items = q.items[1:]
	}
}

type Controller struct {
	queue   *FIFO
	process func(int)
}

func (c *Controller) processLoop() {
	c.queue.Pop(c.process)
}

type Informer struct {
	mu       sync.Mutex
	ctl      *Controller
	clusters map[int]bool
}

func NewInformer() *Informer {
	f := &Informer{clusters: map[int]bool{}}
	f.ctl = &Controller{queue: &FIFO{}, process: func(id int) { f.addCluster(id) }}
	return f
}

func (f *Informer) ClustersSynced() bool {
	f.mu.Lock() // want `lock-order cycle: \(\*indirect.Informer\).ClustersSynced acquires \(indirect.FIFO\).lock while holding \(indirect.Informer\).mu, but \(\*indirect.Controller\).processLoop acquires \(indirect.Informer\).mu while holding \(indirect.FIFO\).lock`
	defer f.mu.Unlock()
	return f.ctl.queue.HasSynced()
}

func (f *Informer) addCluster(id int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clusters[id] = true
}

func (f *Informer) Run() {
	go f.ctl.processLoop()
}

// Its twin pops the item under the queue's lock and processes it after.

type FIFO2 struct {
	lock  sync.Mutex
	items []int
}

func (q *FIFO2) HasSynced() bool {
	q.lock.Lock()
	defer q.lock.Unlock()
	return len(q.items) == 0
}

func (q *FIFO2) Pop(process func(int)) {
	q.lock.Lock()
	if len(q.items) == 0 {
		q.lock.Unlock()
		return
	}
	id := q.items[0]
	q.items = q.items[1:]
	q.lock.Unlock()
	process(id)
}

type Controller2 struct {
	queue   *FIFO2
	process func(int)
}

func (c *Controller2) processLoop() {
	c.queue.Pop(c.process)
}

type Informer2 struct {
	mu       sync.Mutex
	ctl      *Controller2
	clusters map[int]bool
}

func NewInformer2() *Informer2 {
	f := &Informer2{clusters: map[int]bool{}}
	f.ctl = &Controller2{queue: &FIFO2{}, process: func(id int) { f.addCluster(id) }}
	return f
}

func (f *Informer2) ClustersSynced() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.ctl.queue.HasSynced()
}

func (f *Informer2) addCluster(id int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.clusters[id] = true
}

func (f *Informer2) Run() {
	go f.ctl.processLoop()
}
