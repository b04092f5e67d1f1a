package cockroach6181

import (
	"bytes"
	"fmt"
	"sort"
	"sync"
	"testing"
)

type RKey string

type RangeDescriptor struct {
	RangeID  int64
	StartKey RKey
	EndKey   RKey
}

func (r *RangeDescriptor) ContainsKey(key RKey) bool {
	return r.StartKey <= key && key < r.EndKey
}

type RangeDescriptorDB interface {
	RangeLookup(key RKey) (*RangeDescriptor, error)
}

type testDescriptorDB struct {
	descs []*RangeDescriptor
}

func (db *testDescriptorDB) RangeLookup(key RKey) (*RangeDescriptor, error) {
	for _, d := range db.descs {
		if d.ContainsKey(key) {
			return d, nil
		}
	}
	return nil, fmt.Errorf("no range for key %q", key)
}

type verboseLogger struct {
	verbosity int
	buf       bytes.Buffer
	mu        sync.Mutex
}

func (l *verboseLogger) V(level int) bool { return l.verbosity >= level }

func (l *verboseLogger) Infof(format string, args ...interface{}) {
	l.mu.Lock()
	fmt.Fprintf(&l.buf, format, args...)
	l.mu.Unlock()
}

type rangeDescriptorCache struct {
	db           RangeDescriptorDB
	log          *verboseLogger
	rangeCacheMu sync.RWMutex
	rangeCache   map[RKey]*RangeDescriptor
}

func newRangeDescriptorCache(db RangeDescriptorDB, log *verboseLogger) *rangeDescriptorCache {
	return &rangeDescriptorCache{
		db:         db,
		log:        log,
		rangeCache: make(map[RKey]*RangeDescriptor),
	}
}

func (rdc *rangeDescriptorCache) String() string {
	rdc.rangeCacheMu.RLock() // deadlock
	defer rdc.rangeCacheMu.RUnlock()
	return rdc.stringLocked()
}

func (rdc *rangeDescriptorCache) stringLocked() string {
	keys := make([]string, 0, len(rdc.rangeCache))
	for k := range rdc.rangeCache {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	var buf bytes.Buffer
	for _, k := range keys {
		d := rdc.rangeCache[RKey(k)]
		fmt.Fprintf(&buf, "key=%s desc=[%s-%s)\n", k, d.StartKey, d.EndKey)
	}
	return buf.String()
}

func (rdc *rangeDescriptorCache) getCachedRangeDescriptorLocked(key RKey) *RangeDescriptor {
	for _, d := range rdc.rangeCache {
		if d.ContainsKey(key) {
			return d
		}
	}
	return nil
}

func (rdc *rangeDescriptorCache) LookupRangeDescriptor(key RKey) (*RangeDescriptor, error) {
	rdc.rangeCacheMu.RLock() // deadlock
	if desc := rdc.getCachedRangeDescriptorLocked(key); desc != nil {
		rdc.rangeCacheMu.RUnlock()
		return desc, nil
	}
	if rdc.log.V(1) {
		rdc.log.Infof("lookup range descriptor: key=%s\n%s", key, rdc.String())
	}
	rdc.rangeCacheMu.RUnlock()

	desc, err := rdc.db.RangeLookup(key)
	if err != nil {
		return nil, err
	}
	rdc.rangeCacheMu.Lock()
	rdc.rangeCache[desc.EndKey] = desc
	rdc.rangeCacheMu.Unlock()
	return desc, nil
}

func (rdc *rangeDescriptorCache) EvictCachedRangeDescriptor(key RKey) {
	rdc.rangeCacheMu.Lock() // deadlock
	defer rdc.rangeCacheMu.Unlock()
	if desc := rdc.getCachedRangeDescriptorLocked(key); desc != nil {
		delete(rdc.rangeCache, desc.EndKey)
	}
}

func TestCockroach6181(t *testing.T) {
	db := &testDescriptorDB{descs: []*RangeDescriptor{
		{RangeID: 1, StartKey: "a", EndKey: "m"},
		{RangeID: 2, StartKey: "m", EndKey: "z"},
	}}
	rdc := newRangeDescriptorCache(db, &verboseLogger{verbosity: 1})

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for _, k := range []RKey{"b", "n", "c"} {
			rdc.LookupRangeDescriptor(k)
		}
	}()
	go func() {
		defer wg.Done()
		for _, k := range []RKey{"b", "n"} {
			rdc.EvictCachedRangeDescriptor(k)
		}
	}()
	wg.Wait()
}
