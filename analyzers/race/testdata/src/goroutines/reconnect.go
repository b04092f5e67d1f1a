package goroutines

// An Uplink is reconnected on a goroutine of its own when either its
// keepalive or its reader sees the connection lost.
type Uplink struct {
	attempts int
}

func (l *Uplink) reconnect() { l.attempts++ }

func (l *Uplink) lost() { go l.reconnect() }

func (l *Uplink) keepalive() { l.lost() }

func (l *Uplink) reader() { l.lost() }

// Run starts the keepalive and the reader, each of which may start a
// reconnect: one reconnect goroutine, started from two places, is not
// paired with itself. Silent.
func Run(l *Uplink) {
	go l.keepalive()
	go l.reader()
}

// A Downlink's keepalive starts a reconnect, and another goroutine
// resets the count itself: those are paired.
type Downlink struct {
	attempts int
}

func (l *Downlink) reconnect() {
	l.attempts++ // want `possible data race: \(goroutines.Downlink\).attempts is written by goroutine \(\*goroutines.Downlink\).reconnect \(started in goroutine \(\*goroutines.Downlink\).keepalive\) and written by goroutine \(\*goroutines.Downlink\).resetter`
}

func (l *Downlink) keepalive() { go l.reconnect() }

func (l *Downlink) resetter() { l.attempts = 0 }

// RunReset starts the keepalive and the resetter.
func RunReset(l *Downlink) {
	go l.keepalive()
	go l.resetter()
}
