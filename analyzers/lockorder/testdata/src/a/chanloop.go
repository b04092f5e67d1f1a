package a

import "sync"

// A receiver that runs again in its caller's loop, and locks after each
// receive (kubernetes10182): the second send, holding the lock, waits for
// a receive the receiver makes only after it has the lock.

type StatusManager struct {
	mu       sync.Mutex
	statuses map[string]int
	updates  chan bool
}

func NewStatusManager() *StatusManager {
	return &StatusManager{statuses: map[string]int{}, updates: make(chan bool)}
}

func (s *StatusManager) Start() {
	go func() {
		for {
			s.syncBatch()
		}
	}()
}

func (s *StatusManager) syncBatch() {
	<-s.updates
	s.deleteStatus()
}

func (s *StatusManager) deleteStatus() {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.statuses, "x")
}

func (s *StatusManager) SetStatus(k string, v int) {
	s.mu.Lock() // want `lock held across a channel send: \(\*a.StatusManager\).SetStatus sends on s.updates holding s.mu, and every receive on \(a.StatusManager\).updates \(\(\*a.StatusManager\).syncBatch\) locks \(a.StatusManager\).mu before the next one`
	defer s.mu.Unlock()
	s.statuses[k] = v
	s.updates <- true
}

// Silent: the receiver runs once; the send it completes was made holding
// the lock, and nothing else waits for it.

type OneShot struct {
	mu    sync.Mutex
	n     int
	ready chan bool
}

func NewOneShot() *OneShot { return &OneShot{ready: make(chan bool)} }

func (o *OneShot) Start() {
	go o.wait()
}

func (o *OneShot) wait() {
	<-o.ready
	o.bump()
}

func (o *OneShot) bump() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.n++
}

func (o *OneShot) Signal() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.n = 0
	o.ready <- true
}
