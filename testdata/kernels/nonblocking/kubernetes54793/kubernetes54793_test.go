package kubernetes54793

import (
	"sync"
	"testing"
	"time"
)

type Event struct {
	AuditID string
	Verb    string
	Stage   string
}

type Backend interface {
	ProcessEvents(events ...*Event)
	Run(stopCh <-chan struct{}) error
	Shutdown()
}

type webhookBackend struct {
	mu      sync.Mutex
	sent    int
	latency time.Duration
}

func (w *webhookBackend) ProcessEvents(events ...*Event) {
	time.Sleep(w.latency)
	w.mu.Lock()
	w.sent += len(events)
	w.mu.Unlock()
}
func (w *webhookBackend) Run(stopCh <-chan struct{}) error { return nil }
func (w *webhookBackend) Shutdown()                        {}

type bufferedBackend struct {
	delegateBackend Backend
	buffer          chan *Event
	maxBatchSize    int
	maxBatchWait    time.Duration
	wg              sync.WaitGroup
}

func NewBackend(delegate Backend, bufferSize, maxBatchSize int, maxBatchWait time.Duration) *bufferedBackend {
	return &bufferedBackend{
		delegateBackend: delegate,
		buffer:          make(chan *Event, bufferSize),
		maxBatchSize:    maxBatchSize,
		maxBatchWait:    maxBatchWait,
	}
}

func (b *bufferedBackend) Run(stopCh <-chan struct{}) error {
	go b.processIncomingEvents(stopCh)
	return b.delegateBackend.Run(stopCh)
}

func (b *bufferedBackend) Shutdown() {
	b.wg.Wait() // race
	b.delegateBackend.Shutdown()
}

func (b *bufferedBackend) processIncomingEvents(stopCh <-chan struct{}) {
	ticker := time.NewTicker(b.maxBatchWait)
	defer ticker.Stop()
	for {
		events, stopped := b.collectEvents(ticker.C, stopCh)
		b.processEvents(events)
		if stopped {
			return
		}
	}
}

func (b *bufferedBackend) collectEvents(timer <-chan time.Time, stopCh <-chan struct{}) ([]*Event, bool) {
	var events []*Event
	for len(events) < b.maxBatchSize {
		select {
		case ev := <-b.buffer:
			events = append(events, ev)
		case <-timer:
			return events, false
		case <-stopCh:
			return events, true
		}
	}
	return events, false
}

func (b *bufferedBackend) processEvents(events []*Event) {
	if len(events) == 0 {
		return
	}
	b.wg.Add(1) // race
	go func() {
		defer b.wg.Done()
		b.delegateBackend.ProcessEvents(events...)
	}()
}

func (b *bufferedBackend) ProcessEvents(ev ...*Event) {
	for _, e := range ev {
		b.buffer <- e
	}
}

func TestBufferedBackendShutdown(t *testing.T) {
	delegate := &webhookBackend{latency: 5 * time.Millisecond}
	backend := NewBackend(delegate, 100, 2, time.Millisecond)
	stopCh := make(chan struct{})
	backend.Run(stopCh)

	for i := 0; i < 20; i++ {
		backend.ProcessEvents(&Event{AuditID: "a", Verb: "get", Stage: "ResponseComplete"})
		time.Sleep(100 * time.Microsecond)
	}
	close(stopCh)
	backend.Shutdown()
}
