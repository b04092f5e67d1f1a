package published

import (
	"io"
	"sync"
)

// A Channel's constructor starts its reader, then negotiates: the reader
// reads only the connection, so the channel is still the constructor's own
// for what negotiate touches, and Redial negotiates again under the
// redial lock, which guards the mechanisms everywhere else. Silent.
type Channel struct {
	redialing sync.Mutex
	conn      io.Reader
	auth      []string
	frames    chan []byte
}

// OpenChannel opens a channel over conn.
func OpenChannel(conn io.Reader, auth []string) *Channel {
	l := &Channel{conn: conn, frames: make(chan []byte, 1)}
	go l.read(conn)
	l.negotiate(auth)
	return l
}

func (l *Channel) read(conn io.Reader) {
	buf := make([]byte, 8)
	for {
		if _, err := conn.Read(buf); err != nil {
			close(l.frames)
			return
		}
		l.frames <- buf
	}
}

func (l *Channel) negotiate(auth []string) {
	if len(auth) > 0 {
		l.auth = auth[:1]
	}
}

// Redial negotiates again, from the mechanisms it is given or else
// from those set.
func (l *Channel) Redial(auth []string) {
	l.redialing.Lock()
	defer l.redialing.Unlock()
	if auth == nil {
		auth = l.auth
	}
	l.auth = nil
	l.negotiate(auth)
}

// Auth returns the mechanisms to offer.
func (l *Channel) Auth() []string {
	l.redialing.Lock()
	defer l.redialing.Unlock()
	return l.auth
}

// SetAuth sets the mechanisms to offer.
func (l *Channel) SetAuth(auth []string) {
	l.redialing.Lock()
	l.auth = auth
	l.redialing.Unlock()
}

// A Gauge's constructor starts its loop, then resets the count the loop
// increments: the reset races with the loop, which the goroutine check
// reports.
type Gauge struct {
	mu    sync.Mutex
	count int
}

// NewGauge starts a gauge.
func NewGauge() *Gauge {
	m := &Gauge{}
	go m.loop()
	m.reset()
	return m
}

func (m *Gauge) reset() { m.count = 0 }

func (m *Gauge) loop() {
	for {
		m.mu.Lock()
		m.count++ // want `possible data race: \(published.Gauge\).count is written by goroutine \(\*published.Gauge\).loop and written by published.NewGauge`
		m.mu.Unlock()
	}
}

// Count returns the count.
func (m *Gauge) Count() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.count
}
