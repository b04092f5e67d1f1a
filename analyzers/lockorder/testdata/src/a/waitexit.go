package a

import "sync"

// Wrong uses of a channel closed when a receive goroutine exits (see
// silent/waitexit.go for the right one): the locks taken before the
// receive, the goroutine's half also reachable from an exported method, a
// send on the channel, the same order also taken without waiting. Each
// cycle can deadlock.

// Tunnel.Close locks before it waits for the receive goroutine.

type Tunnel struct {
	tunLock  sync.Mutex
	tracks   map[int]*Track
	recvDone chan struct{}
}

type Track struct {
	trackLock sync.Mutex
	tun       *Tunnel
}

func NewTunnel() *Tunnel {
	t := &Tunnel{tracks: map[int]*Track{}, recvDone: make(chan struct{})}
	go t.recvLoop()
	return t
}

func (t *Tunnel) recvLoop() {
	defer close(t.recvDone)
	for id := 0; id < 10; id++ {
		t.tunLock.Lock()
		tr := t.tracks[id]
		t.tunLock.Unlock()
		if tr != nil {
			tr.apply()
		}
	}
}

func (tr *Track) apply() {
	tr.trackLock.Lock() // want `lock-order cycle: \(\*a.Track\).apply acquires \(a.Tunnel\).tunLock while holding \(a.Track\).trackLock, but \(\*a.Tunnel\).Close acquires`
	defer tr.trackLock.Unlock()
	tr.tun.tunLock.Lock()
	tr.tun.tunLock.Unlock()
}

func (t *Tunnel) Close() {
	t.tunLock.Lock()
	for _, tr := range t.tracks {
		tr.trackLock.Lock()
		tr.trackLock.Unlock()
	}
	t.tunLock.Unlock()
	<-t.recvDone
}

// Router.Close waits for its receive goroutine, but Route.Apply runs the
// other half from any goroutine.

type Router struct {
	routerLock sync.Mutex
	routes     map[int]*Route
	recvDone   chan struct{}
}

type Route struct {
	routeLock sync.Mutex
	router    *Router
}

func NewRouter() *Router {
	r := &Router{routes: map[int]*Route{}, recvDone: make(chan struct{})}
	go r.recvLoop()
	return r
}

func (r *Router) recvLoop() {
	defer close(r.recvDone)
	for id := 0; id < 10; id++ {
		r.routerLock.Lock()
		rt := r.routes[id]
		r.routerLock.Unlock()
		if rt != nil {
			rt.apply()
		}
	}
}

func (rt *Route) Apply() { rt.apply() }

func (rt *Route) apply() {
	rt.routeLock.Lock() // want `lock-order cycle: \(\*a.Route\).apply acquires \(a.Router\).routerLock while holding \(a.Route\).routeLock, but \(\*a.Router\).Close acquires`
	defer rt.routeLock.Unlock()
	rt.router.routerLock.Lock()
	rt.router.routerLock.Unlock()
}

func (r *Router) Close() {
	<-r.recvDone
	r.routerLock.Lock()
	defer r.routerLock.Unlock()
	for _, rt := range r.routes {
		rt.routeLock.Lock()
		rt.routeLock.Unlock()
	}
}

// Socket.Close waits on a channel something sends on: the receive
// goroutine may still be running.

type Socket struct {
	sockLock sync.Mutex
	frames   map[int]*Frame
	recvDone chan struct{}
}

type Frame struct {
	frameLock sync.Mutex
	sock      *Socket
}

func NewSocket() *Socket {
	s := &Socket{frames: map[int]*Frame{}, recvDone: make(chan struct{})}
	go s.recvLoop()
	return s
}

func (s *Socket) recvLoop() {
	defer close(s.recvDone)
	for id := 0; id < 10; id++ {
		if id == 5 {
			s.recvDone <- struct{}{}
		}
		s.sockLock.Lock()
		f := s.frames[id]
		s.sockLock.Unlock()
		if f != nil {
			f.apply()
		}
	}
}

func (f *Frame) apply() {
	f.frameLock.Lock() // want `lock-order cycle: \(\*a.Frame\).apply acquires \(a.Socket\).sockLock while holding \(a.Frame\).frameLock, but \(\*a.Socket\).Close acquires`
	defer f.frameLock.Unlock()
	f.sock.sockLock.Lock()
	f.sock.sockLock.Unlock()
}

func (s *Socket) Close() {
	<-s.recvDone
	s.sockLock.Lock()
	defer s.sockLock.Unlock()
	for _, f := range s.frames {
		f.frameLock.Lock()
		f.frameLock.Unlock()
	}
}

// Dock.Close takes its locks after the receive goroutine exits, but
// Dock.Reset takes them in the same order without waiting: the cycle with
// Berth.apply stays.

type Dock struct {
	dockLock sync.Mutex
	berths   map[int]*Berth
	recvDone chan struct{}
}

type Berth struct {
	berthLock sync.Mutex
	dock      *Dock
}

func NewDock() *Dock {
	d := &Dock{berths: map[int]*Berth{}, recvDone: make(chan struct{})}
	go d.recvLoop()
	return d
}

func (d *Dock) recvLoop() {
	defer close(d.recvDone)
	for id := 0; id < 10; id++ {
		d.dockLock.Lock()
		b := d.berths[id]
		d.dockLock.Unlock()
		if b != nil {
			b.apply()
		}
	}
}

func (b *Berth) apply() {
	b.berthLock.Lock() // want `lock-order cycle: \(\*a.Berth\).apply acquires \(a.Dock\).dockLock while holding \(a.Berth\).berthLock, but \(\*a.Dock\).Reset acquires`
	defer b.berthLock.Unlock()
	b.dock.dockLock.Lock()
	b.dock.dockLock.Unlock()
}

func (d *Dock) Close() {
	<-d.recvDone
	d.dockLock.Lock()
	defer d.dockLock.Unlock()
	for _, b := range d.berths {
		b.berthLock.Lock()
		b.berthLock.Unlock()
	}
}

func (d *Dock) Reset() {
	d.dockLock.Lock()
	defer d.dockLock.Unlock()
	for _, b := range d.berths {
		b.berthLock.Lock()
		b.berthLock.Unlock()
	}
}
