package istio16224

import (
	"errors"
	"sync"
	"testing"
)

type Event int

const (
	EventAdd Event = iota
	EventUpdate
	EventDelete
)

type ConfigMeta struct {
	Type            string
	Name            string
	Namespace       string
	ResourceVersion string
}

type Config struct {
	ConfigMeta
	Spec string
}

type ConfigStore interface {
	Get(typ, name, namespace string) (*Config, bool)
	Create(config Config) (string, error)
}

type memStore struct {
	mu   sync.RWMutex
	data map[string]map[string]Config
}

func MakeMemStore() *memStore {
	return &memStore{data: make(map[string]map[string]Config)}
}

func (cr *memStore) Get(typ, name, namespace string) (*Config, bool) {
	cr.mu.RLock()
	defer cr.mu.RUnlock()
	c, ok := cr.data[typ][namespace+"/"+name]
	if !ok {
		return nil, false
	}
	return &c, true
}

func (cr *memStore) Create(config Config) (string, error) {
	cr.mu.Lock()
	defer cr.mu.Unlock()
	if cr.data[config.Type] == nil {
		cr.data[config.Type] = make(map[string]Config)
	}
	key := config.Namespace + "/" + config.Name
	if _, exists := cr.data[config.Type][key]; exists {
		return "", errors.New("item already exists")
	}
	cr.data[config.Type][key] = config
	return "1", nil
}

type Handler func(Config, Event)

type ConfigEvent struct {
	config Config
	event  Event
}

type configstoreMonitor struct {
	store    ConfigStore
	handlers map[string][]Handler
	eventCh  chan ConfigEvent
}

func NewMonitor(store ConfigStore) *configstoreMonitor {
	return &configstoreMonitor{
		store:    store,
		handlers: make(map[string][]Handler),
		eventCh:  make(chan ConfigEvent, 10),
	}
}

func (m *configstoreMonitor) ScheduleProcessEvent(configEvent ConfigEvent) {
	m.eventCh <- configEvent
}

func (m *configstoreMonitor) Run(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case ce := <-m.eventCh:
			for _, f := range m.handlers[ce.config.Type] {
				f(ce.config, ce.event)
			}
		}
	}
}

func (m *configstoreMonitor) AppendEventHandler(typ string, h Handler) {
	m.handlers[typ] = append(m.handlers[typ], h)
}

type controller struct {
	monitor     *configstoreMonitor
	configStore ConfigStore
}

func NewController(cs ConfigStore) *controller {
	return &controller{configStore: cs, monitor: NewMonitor(cs)}
}

func (c *controller) RegisterEventHandler(typ string, f Handler) {
	c.monitor.AppendEventHandler(typ, f)
}

func (c *controller) Run(stop <-chan struct{}) {
	c.monitor.Run(stop)
}

func (c *controller) Create(config Config) (string, error) {
	rev, err := c.configStore.Create(config)
	if err != nil {
		return "", err
	}
	c.monitor.ScheduleProcessEvent(ConfigEvent{config: config, event: EventAdd})
	return rev, nil
}

type eventRecorder struct {
	lock   sync.Mutex
	events []string
	done   chan bool
}

func (r *eventRecorder) handle(config Config, ev Event) {
	r.lock.Lock() // deadlock
	defer r.lock.Unlock()
	r.events = append(r.events, config.Name)
	r.done <- true // deadlock
}

func (r *eventRecorder) count() int {
	r.lock.Lock() // deadlock
	defer r.lock.Unlock()
	return len(r.events)
}

func TestIstio16224(t *testing.T) {
	store := MakeMemStore()
	ctl := NewController(store)
	rec := &eventRecorder{done: make(chan bool)}
	ctl.RegisterEventHandler("virtual-service", rec.handle)

	stop := make(chan struct{})
	defer close(stop)
	go ctl.Run(stop)

	names := []string{"reviews", "ratings", "details"}
	go func() {
		for _, n := range names {
			ctl.Create(Config{ConfigMeta: ConfigMeta{Type: "virtual-service", Name: n, Namespace: "default"}})
		}
	}()

	for rec.count() < len(names) {
		<-rec.done
	}
}
