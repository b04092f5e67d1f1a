package syncthing4829

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type Address struct {
	IP   string
	Port int
}

func (a Address) String() string {
	return fmt.Sprintf("%s:%d", a.IP, a.Port)
}

type MappingChangeSubscriber func(*Mapping, []Address, []Address)

type Mapping struct {
	protocol string
	address  Address

	mut          sync.RWMutex
	extAddresses map[string]Address
	subscribers  []MappingChangeSubscriber
	expires      time.Time
}

func (m *Mapping) setAddress(id string, address Address) {
	m.mut.Lock()
	if existing, ok := m.extAddresses[id]; !ok || existing != address {
		m.extAddresses[id] = address
		m.mut.Unlock()
		m.notify([]Address{address}, nil)
		return
	}
	m.mut.Unlock()
}

func (m *Mapping) removeAddress(id string) {
	m.mut.Lock()
	addr, ok := m.extAddresses[id]
	if ok {
		delete(m.extAddresses, id)
	}
	m.mut.Unlock()
	if ok {
		m.notify(nil, []Address{addr})
	}
}

func (m *Mapping) clearAddresses() {
	m.mut.Lock() // deadlock
	var removed []Address
	for id, addr := range m.extAddresses {
		removed = append(removed, addr)
		delete(m.extAddresses, id)
	}
	if len(removed) > 0 {
		m.notify(nil, removed)
	}
	m.expires = time.Time{}
	m.mut.Unlock()
}

func (m *Mapping) notify(added, removed []Address) {
	m.mut.RLock() // deadlock
	for _, subscriber := range m.subscribers {
		subscriber(m, added, removed)
	}
	m.mut.RUnlock()
}

func (m *Mapping) OnChanged(subscribed MappingChangeSubscriber) {
	m.mut.Lock()
	m.subscribers = append(m.subscribers, subscribed)
	m.mut.Unlock()
}

type Service struct {
	mut      sync.RWMutex
	mappings []*Mapping
}

func NewService() *Service {
	return &Service{}
}

func (s *Service) NewMapping(protocol string, ip string, port int) *Mapping {
	mapping := &Mapping{
		protocol:     protocol,
		address:      Address{IP: ip, Port: port},
		extAddresses: make(map[string]Address),
	}
	s.mut.Lock()
	s.mappings = append(s.mappings, mapping)
	s.mut.Unlock()
	return mapping
}

func (s *Service) RemoveMapping(mapping *Mapping) {
	s.mut.Lock()
	defer s.mut.Unlock()
	for i, existing := range s.mappings {
		if existing == mapping {
			mapping.clearAddresses()
			last := len(s.mappings) - 1
			s.mappings[i] = s.mappings[last]
			s.mappings[last] = nil
			s.mappings = s.mappings[:last]
			return
		}
	}
}

func (s *Service) updateMapping(mapping *Mapping, deviceID string, ext Address) {
	mapping.setAddress(deviceID, ext)
}

func TestSyncthing4829(t *testing.T) {
	svc := NewService()
	m := svc.NewMapping("tcp", "192.168.0.10", 22000)
	m.OnChanged(func(*Mapping, []Address, []Address) {})

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		svc.updateMapping(m, "igd-1", Address{IP: "203.0.113.7", Port: 22000})
	}()
	go func() {
		defer wg.Done()
		svc.RemoveMapping(m)
	}()
	wg.Wait()
}
