package kubernetes62464

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
)

type CPUSet struct {
	elems map[int]struct{}
}

func NewCPUSet(cpus ...int) CPUSet {
	s := CPUSet{elems: make(map[int]struct{})}
	for _, c := range cpus {
		s.elems[c] = struct{}{}
	}
	return s
}

func (s CPUSet) Size() int { return len(s.elems) }

func (s CPUSet) ToSlice() []int {
	var out []int
	for c := range s.elems {
		out = append(out, c)
	}
	sort.Ints(out)
	return out
}

func (s CPUSet) Difference(s2 CPUSet) CPUSet {
	out := NewCPUSet()
	for c := range s.elems {
		if _, ok := s2.elems[c]; !ok {
			out.elems[c] = struct{}{}
		}
	}
	return out
}

func (s CPUSet) String() string {
	var parts []string
	for _, c := range s.ToSlice() {
		parts = append(parts, fmt.Sprint(c))
	}
	return strings.Join(parts, ",")
}

type ContainerCPUAssignments map[string]CPUSet

type Reader interface {
	GetCPUSet(containerID string) (CPUSet, bool)
	GetDefaultCPUSet() CPUSet
	GetCPUSetOrDefault(containerID string) CPUSet
}

type writer interface {
	SetCPUSet(containerID string, cpuset CPUSet)
	SetDefaultCPUSet(cpuset CPUSet)
	Delete(containerID string)
}

type State interface {
	Reader
	writer
}

type stateMemory struct {
	sync.RWMutex
	assignments   ContainerCPUAssignments
	defaultCPUSet CPUSet
}

var _ State = &stateMemory{}

func NewMemoryState() State {
	return &stateMemory{
		assignments:   ContainerCPUAssignments{},
		defaultCPUSet: NewCPUSet(),
	}
}

func (s *stateMemory) GetCPUSet(containerID string) (CPUSet, bool) {
	s.RLock() // deadlock
	defer s.RUnlock()
	res, ok := s.assignments[containerID]
	return res, ok
}

func (s *stateMemory) GetDefaultCPUSet() CPUSet {
	s.RLock() // deadlock
	defer s.RUnlock()
	return s.defaultCPUSet
}

func (s *stateMemory) GetCPUSetOrDefault(containerID string) CPUSet {
	s.RLock() // deadlock
	defer s.RUnlock()
	if res, ok := s.GetCPUSet(containerID); ok {
		return res
	}
	return s.GetDefaultCPUSet()
}

func (s *stateMemory) SetCPUSet(containerID string, cset CPUSet) {
	s.Lock() // deadlock
	defer s.Unlock()
	s.assignments[containerID] = cset
}

func (s *stateMemory) SetDefaultCPUSet(cset CPUSet) {
	s.Lock() // deadlock
	defer s.Unlock()
	s.defaultCPUSet = cset
}

func (s *stateMemory) Delete(containerID string) {
	s.Lock()
	defer s.Unlock()
	delete(s.assignments, containerID)
}

type staticPolicy struct {
	reserved CPUSet
}

func (p *staticPolicy) AddContainer(s State, containerID string, numCPUs int) error {
	if _, ok := s.GetCPUSet(containerID); ok {
		return nil
	}
	free := s.GetDefaultCPUSet().Difference(p.reserved).ToSlice()
	if len(free) < numCPUs {
		return fmt.Errorf("not enough cpus available to satisfy request")
	}
	assigned := NewCPUSet(free[:numCPUs]...)
	s.SetCPUSet(containerID, assigned)
	s.SetDefaultCPUSet(s.GetDefaultCPUSet().Difference(assigned))
	return nil
}

type containerRuntime struct {
	mu      sync.Mutex
	updates map[string]string
}

func (r *containerRuntime) UpdateContainerResources(id string, cpus string) {
	r.mu.Lock()
	r.updates[id] = cpus
	r.mu.Unlock()
}

type manager struct {
	policy           *staticPolicy
	state            State
	containerRuntime *containerRuntime
	activeContainers []string
}

func (m *manager) AddContainer(containerID string, numCPUs int) error {
	return m.policy.AddContainer(m.state, containerID, numCPUs)
}

func (m *manager) reconcileState() {
	for _, containerID := range m.activeContainers {
		cset := m.state.GetCPUSetOrDefault(containerID)
		if cset.Size() == 0 {
			continue
		}
		m.containerRuntime.UpdateContainerResources(containerID, cset.String())
	}
}

func TestKubernetes62464(t *testing.T) {
	m := &manager{
		policy:           &staticPolicy{reserved: NewCPUSet(0)},
		state:            NewMemoryState(),
		containerRuntime: &containerRuntime{updates: make(map[string]string)},
		activeContainers: []string{"c1", "c2"},
	}
	m.state.SetDefaultCPUSet(NewCPUSet(0, 1, 2, 3, 4, 5, 6, 7))

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			m.reconcileState()
		}
	}()
	go func() {
		defer wg.Done()
		m.AddContainer("c1", 2)
		m.AddContainer("c2", 2)
	}()
	wg.Wait()
}
