package istio7804

import (
	"hash/fnv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type VirtualService struct {
	Hosts    []string
	Gateways []string
}

type ConfigMeta struct {
	Type      string
	Name      string
	Namespace string
	Domain    string
}

type Config struct {
	ConfigMeta
	Spec *VirtualService
}

func (c Config) Key() string { return c.Type + "/" + c.Namespace + "/" + c.Name }

type ConfigStore interface {
	List(typ, namespace string) ([]Config, error)
}

type memoryStore struct {
	mu   sync.RWMutex
	data map[string]Config
}

func (s *memoryStore) List(typ, namespace string) ([]Config, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Config, 0, len(s.data))
	for _, c := range s.data {
		if c.Type == typ {
			out = append(out, c)
		}
	}
	return out, nil
}

func (s *memoryStore) Create(c Config) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.data[c.Key()] = c
}

func ResolveShortnameToFQDN(host string, meta ConfigMeta) string {
	if strings.Contains(host, ".") || host == "*" {
		return host
	}
	return host + "." + meta.Namespace + ".svc." + meta.Domain
}

type PushContext struct {
	mutex                 sync.Mutex
	publicVirtualServices []Config
}

func (ps *PushContext) initVirtualServices(store ConfigStore) error {
	vservices, err := store.List("virtual-service", "")
	if err != nil {
		return err
	}
	for _, r := range vservices {
		rule := r.Spec
		for i, h := range rule.Hosts {
			rule.Hosts[i] = ResolveShortnameToFQDN(h, r.ConfigMeta) // race
		}
	}
	ps.mutex.Lock()
	ps.publicVirtualServices = vservices
	ps.mutex.Unlock()
	return nil
}

type Monitor struct {
	store         ConfigStore
	checkDuration time.Duration
	hashes        map[string]uint64
	handled       int32
}

func hashSpec(vs *VirtualService) uint64 {
	h := fnv.New64a()
	for _, host := range vs.Hosts { // race
		h.Write([]byte(host))
	}
	for _, gw := range vs.Gateways {
		h.Write([]byte(gw))
	}
	return h.Sum64()
}

func (m *Monitor) checkAndUpdate() {
	configs, err := m.store.List("virtual-service", "")
	if err != nil {
		return
	}
	for _, c := range configs {
		sum := hashSpec(c.Spec)
		if m.hashes[c.Key()] != sum {
			m.hashes[c.Key()] = sum
			atomic.AddInt32(&m.handled, 1)
		}
	}
}

func (m *Monitor) Start(stop <-chan struct{}) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		ticker := time.NewTicker(m.checkDuration)
		defer ticker.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ticker.C:
				m.checkAndUpdate()
			}
		}
	}()
	return done
}

func TestMonitorAndPushContext(t *testing.T) {
	store := &memoryStore{data: make(map[string]Config)}
	store.Create(Config{
		ConfigMeta: ConfigMeta{Type: "virtual-service", Name: "reviews", Namespace: "default", Domain: "cluster.local"},
		Spec:       &VirtualService{Hosts: []string{"reviews", "ratings"}, Gateways: []string{"mesh"}},
	})

	m := &Monitor{store: store, checkDuration: time.Millisecond, hashes: make(map[string]uint64)}
	stop := make(chan struct{})
	done := m.Start(stop)

	for i := 0; i < 5; i++ {
		ps := &PushContext{}
		if err := ps.initVirtualServices(store); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Millisecond)
	}
	close(stop)
	<-done
}
