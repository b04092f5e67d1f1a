package a

import "sync"

// A channel in a local variable, captured by the function literal that
// sends on it: its peers are the operations of the function that makes
// it and of the literals capturing it (istio16224). The handler holds
// mu while it sends on done; Run takes mu before it receives: each waits
// for the other.

type EventBus struct {
	handlers []func()
}

func (b *EventBus) On(f func()) { b.handlers = append(b.handlers, f) }

func (b *EventBus) Emit() {
	for _, h := range b.handlers {
		h()
	}
}

func RunHandlers(b *EventBus) {
	done := make(chan bool)
	var mu sync.Mutex
	b.On(func() {
		mu.Lock() // want `lock held across a channel send: a.RunHandlers\$1 sends on done holding mu, and every receive on a.RunHandlers.done \(a.RunHandlers\) locks a.RunHandlers.mu on its way to it`
		defer mu.Unlock()
		done <- true
	})
	go b.Emit()
	mu.Lock()
	mu.Unlock()
	<-done
}

// Silent: Wait receives before it locks, so the handler's send completes.
func WaitHandlers(b *EventBus) {
	done := make(chan bool)
	var mu sync.Mutex
	b.On(func() {
		mu.Lock()
		defer mu.Unlock()
		done <- true
	})
	go b.Emit()
	<-done
	mu.Lock()
	mu.Unlock()
}

// Silent: the channel is handed to a function whose operations on it are
// not seen, so its peers are not known.
func HandOff(b *EventBus, relay func(chan bool)) {
	done := make(chan bool)
	var mu sync.Mutex
	b.On(func() {
		mu.Lock()
		defer mu.Unlock()
		done <- true
	})
	go relay(done)
	mu.Lock()
	mu.Unlock()
	<-done
}

// Silent: a buffered channel takes the send without a receiver.
func Buffered(b *EventBus) {
	done := make(chan bool, 1)
	var mu sync.Mutex
	b.On(func() {
		mu.Lock()
		defer mu.Unlock()
		done <- true
	})
	go b.Emit()
	mu.Lock()
	mu.Unlock()
	<-done
}

// Silent: the handler is handed over while Publish holds mu, and Publish
// does not lock mu again before it receives: the handler cannot hold mu
// before Publish has released it (nats-streaming's stan-pub example).
func Publish(b *EventBus) {
	done := make(chan bool)
	var mu sync.Mutex
	handler := func() {
		mu.Lock()
		defer mu.Unlock()
		done <- true
	}
	mu.Lock()
	b.On(handler)
	go b.Emit()
	mu.Unlock()
	<-done
}
