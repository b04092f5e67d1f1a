package cockroach7504

import (
	"sync"
	"testing"
)

type ID uint32

type TableDescriptor struct {
	ID       ID
	ParentID ID
	Name     string
	Version  int
}

type LeaseState struct {
	TableDescriptor
	expiration int64
	refcount   int
	released   bool
}

type tableSet struct {
	data []*LeaseState
}

func (s *tableSet) insert(lease *LeaseState) {
	s.data = append(s.data, lease)
}

func (s *tableSet) remove(lease *LeaseState) {
	for i, l := range s.data {
		if l == lease {
			s.data = append(s.data[:i], s.data[i+1:]...)
			return
		}
	}
}

func (s *tableSet) findNewest() *LeaseState {
	if len(s.data) == 0 {
		return nil
	}
	return s.data[len(s.data)-1]
}

type tableNameCacheKey struct {
	dbID ID
	name string
}

type tableNameCache struct {
	mu     sync.Mutex
	tables map[tableNameCacheKey]*LeaseState
}

func (c *tableNameCache) get(dbID ID, name string, m *LeaseManager) *LeaseState {
	c.mu.Lock() // deadlock
	defer c.mu.Unlock()
	lease, ok := c.tables[tableNameCacheKey{dbID, name}]
	if !ok {
		return nil
	}
	if lease == nil {
		panic("nil lease in name cache")
	}
	t := m.findTableState(lease.ID, false)
	if t == nil {
		return nil
	}
	t.mu.Lock() // deadlock
	defer t.mu.Unlock()
	if lease.released {
		return nil
	}
	lease.refcount++
	return lease
}

func (c *tableNameCache) insert(lease *LeaseState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	key := tableNameCacheKey{lease.ParentID, lease.Name}
	if existing, ok := c.tables[key]; !ok || existing.Version < lease.Version {
		c.tables[key] = lease
	}
}

func (c *tableNameCache) remove(lease *LeaseState) {
	c.mu.Lock() // deadlock
	defer c.mu.Unlock()
	key := tableNameCacheKey{lease.ParentID, lease.Name}
	if existing, ok := c.tables[key]; ok && existing == lease {
		delete(c.tables, key)
	}
}

type tableState struct {
	id             ID
	tableNameCache *tableNameCache
	mu             sync.Mutex
	active         tableSet
}

func (t *tableState) acquire(version int) *LeaseState {
	t.mu.Lock()
	lease := t.active.findNewest()
	created := false
	if lease == nil || lease.Version < version {
		lease = &LeaseState{
			TableDescriptor: TableDescriptor{ID: t.id, ParentID: 50, Name: "kv", Version: version},
			expiration:      1,
		}
		t.active.insert(lease)
		created = true
	}
	lease.refcount++
	t.mu.Unlock()
	if created {
		t.tableNameCache.insert(lease)
	}
	return lease
}

func (t *tableState) release(lease *LeaseState) {
	t.mu.Lock() // deadlock
	defer t.mu.Unlock()
	lease.refcount--
	if lease.refcount > 0 {
		return
	}
	if lease.expiration > 0 && lease != t.active.findNewest() {
		t.removeLease(lease)
	}
}

func (t *tableState) removeLease(lease *LeaseState) {
	t.active.remove(lease)
	t.tableNameCache.remove(lease)
	lease.released = true
}

type LeaseManager struct {
	mu         sync.Mutex
	tables     map[ID]*tableState
	tableNames tableNameCache
}

func NewLeaseManager() *LeaseManager {
	return &LeaseManager{
		tables:     make(map[ID]*tableState),
		tableNames: tableNameCache{tables: make(map[tableNameCacheKey]*LeaseState)},
	}
}

func (m *LeaseManager) findTableState(tableID ID, create bool) *tableState {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.tables[tableID]
	if t == nil && create {
		t = &tableState{id: tableID, tableNameCache: &m.tableNames}
		m.tables[tableID] = t
	}
	return t
}

func (m *LeaseManager) Acquire(tableID ID, version int) *LeaseState {
	t := m.findTableState(tableID, true)
	return t.acquire(version)
}

func (m *LeaseManager) AcquireByName(dbID ID, name string) *LeaseState {
	return m.tableNames.get(dbID, name, m)
}

func (m *LeaseManager) Release(lease *LeaseState) {
	t := m.findTableState(lease.ID, false)
	if t == nil {
		return
	}
	t.release(lease)
}

func TestCockroach7504(t *testing.T) {
	m := NewLeaseManager()
	old := m.Acquire(51, 1)
	m.Acquire(51, 2)
	m.Release(m.Acquire(51, 2))

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		if lease := m.AcquireByName(50, "kv"); lease != nil {
			m.Release(lease)
		}
	}()
	go func() {
		defer wg.Done()
		m.Release(old)
	}()
	wg.Wait()
}
