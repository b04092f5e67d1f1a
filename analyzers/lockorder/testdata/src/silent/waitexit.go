package silent

import "sync"

// A receive from a channel that the receive goroutine closes when it
// exits (its loop defers the close first, and nothing sends on it) orders
// what follows after everything that goroutine does: Mux.Close locks
// muxLock then stateLock only after <-recvDone, and Lane.apply (stateLock
// then muxLock) runs only inside recvLoop, reached through a table of
// handlers. The two halves of the cycle never overlap (yamux's
// Session.Close and Stream.processFlags).

type Mux struct {
	muxLock  sync.Mutex
	lanes    map[int]*Lane
	recvDone chan struct{}
	quit     chan struct{}
}

type Lane struct {
	stateLock sync.Mutex
	mux       *Mux
	state     int
}

func NewMux() *Mux {
	m := &Mux{lanes: map[int]*Lane{}, recvDone: make(chan struct{}), quit: make(chan struct{})}
	go m.recv()
	return m
}

func (m *Mux) recv() {
	if err := m.recvLoop(); err != nil {
		m.fail()
	}
}

var muxHandlers = []func(*Mux, int) error{
	(*Mux).handleData,
}

func (m *Mux) recvLoop() error {
	defer close(m.recvDone)
	for id := 0; ; id++ {
		select {
		case <-m.quit:
			return nil
		default:
		}
		if err := muxHandlers[0](m, id); err != nil {
			return err
		}
	}
}

func (m *Mux) handleData(id int) error {
	m.muxLock.Lock()
	l := m.lanes[id]
	m.muxLock.Unlock()
	if l != nil {
		l.apply()
	}
	return nil
}

func (l *Lane) apply() {
	l.stateLock.Lock()
	defer l.stateLock.Unlock()
	l.state++
	l.mux.establish()
}

func (m *Mux) establish() {
	m.muxLock.Lock()
	m.muxLock.Unlock()
}

func (m *Mux) fail() {
	m.muxLock.Lock()
	m.lanes = nil
	m.muxLock.Unlock()
}

// Done waits for the receive goroutine too: a receive-only view of the
// channel cannot close it.
func (m *Mux) Done() <-chan struct{} { return m.recvDone }

func (m *Mux) Close() {
	close(m.quit)
	<-m.recvDone
	m.muxLock.Lock()
	defer m.muxLock.Unlock()
	for _, l := range m.lanes {
		l.stateLock.Lock()
		l.state = 0
		l.stateLock.Unlock()
	}
}
