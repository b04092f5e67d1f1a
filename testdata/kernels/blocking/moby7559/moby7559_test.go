package moby7559

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

type UDPAddr struct {
	IP   string
	Port int
}

type packet struct {
	from *UDPAddr
	data []byte
}

type UDPConn struct {
	in     chan packet
	closed int32
}

func (c *UDPConn) ReadFromUDP(b []byte) (int, *UDPAddr, error) {
	p, ok := <-c.in
	if !ok {
		return 0, nil, errors.New("use of closed network connection")
	}
	return copy(b, p.data), p.from, nil
}

func (c *UDPConn) Write(b []byte) (int, error) {
	if atomic.LoadInt32(&c.closed) == 1 {
		return 0, errors.New("use of closed network connection")
	}
	return len(b), nil
}

func (c *UDPConn) Close() error {
	atomic.StoreInt32(&c.closed, 1)
	return nil
}

type connTrackKey struct {
	IP   string
	Port int
}

func newConnTrackKey(addr *UDPAddr) *connTrackKey {
	return &connTrackKey{IP: addr.IP, Port: addr.Port}
}

type connTrackMap map[connTrackKey]*UDPConn

type backend struct {
	down int32
}

func (b *backend) DialUDP() (*UDPConn, error) {
	if atomic.LoadInt32(&b.down) == 1 {
		return nil, errors.New("connect: network is unreachable")
	}
	return &UDPConn{in: make(chan packet)}, nil
}

type UDPProxy struct {
	listener       *UDPConn
	backendAddr    *backend
	connTrackTable connTrackMap
	connTrackLock  sync.Mutex
}

func NewUDPProxy(frontend *UDPConn, b *backend) *UDPProxy {
	return &UDPProxy{
		listener:       frontend,
		backendAddr:    b,
		connTrackTable: make(connTrackMap),
	}
}

func (proxy *UDPProxy) replyLoop(proxyConn *UDPConn, clientKey *connTrackKey) {
	defer func() {
		proxy.connTrackLock.Lock()
		delete(proxy.connTrackTable, *clientKey)
		proxy.connTrackLock.Unlock()
		proxyConn.Close()
	}()
	readBuf := make([]byte, 1024)
	for {
		if _, _, err := proxyConn.ReadFromUDP(readBuf); err != nil {
			return
		}
	}
}

func (proxy *UDPProxy) Run() {
	readBuf := make([]byte, 1024)
	for {
		read, from, err := proxy.listener.ReadFromUDP(readBuf)
		if err != nil {
			return
		}

		fromKey := newConnTrackKey(from)
		proxy.connTrackLock.Lock() // deadlock
		proxyConn, hit := proxy.connTrackTable[*fromKey]
		if !hit {
			proxyConn, err = proxy.backendAddr.DialUDP()
			if err != nil {
				continue
			}
			proxy.connTrackTable[*fromKey] = proxyConn
			go proxy.replyLoop(proxyConn, fromKey)
		}
		proxy.connTrackLock.Unlock()
		for i := 0; i != read; {
			written, err := proxyConn.Write(readBuf[i:read])
			if err != nil {
				break
			}
			i += written
		}
	}
}

func TestMoby7559(t *testing.T) {
	frontend := &UDPConn{in: make(chan packet)}
	b := &backend{}
	proxy := NewUDPProxy(frontend, b)

	done := make(chan struct{})
	go func() {
		proxy.Run()
		close(done)
	}()

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		frontend.in <- packet{from: &UDPAddr{IP: "10.0.0.1", Port: 4000}, data: []byte("hello")}
		frontend.in <- packet{from: &UDPAddr{IP: "10.0.0.2", Port: 4001}, data: []byte("hello")}
		frontend.in <- packet{from: &UDPAddr{IP: "10.0.0.1", Port: 4000}, data: []byte("again")}
	}()
	go func() {
		defer wg.Done()
		atomic.StoreInt32(&b.down, 1)
	}()
	wg.Wait()
	close(frontend.in)
	<-done
}
