package etcd10899

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type mvccpbEvent struct {
	Key   string
	Value string
	Rev   int64
}

type watchableStore struct {
	mu       sync.Mutex
	rev      int64
	kvs      map[string]string
	watchers map[string][]chan mvccpbEvent
}

func newWatchableStore() *watchableStore {
	return &watchableStore{
		kvs:      make(map[string]string),
		watchers: make(map[string][]chan mvccpbEvent),
	}
}

func (s *watchableStore) Watch(key string) <-chan mvccpbEvent {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := make(chan mvccpbEvent, 16)
	s.watchers[key] = append(s.watchers[key], ch)
	return ch
}

func (s *watchableStore) Put(key, value string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rev++
	s.kvs[key] = value
	for _, ch := range s.watchers[key] {
		ch <- mvccpbEvent{Key: key, Value: value, Rev: s.rev}
	}
	return s.rev
}

type kvClient struct {
	s *watchableStore
}

func (c *kvClient) Put(key, value string) error {
	if key == "" {
		return fmt.Errorf("etcdserver: key is not provided")
	}
	c.s.Put(key, value)
	return nil
}

func TestV3WatchFromCurrentRevision(t *testing.T) {
	s := newWatchableStore()
	kvc := &kvClient{s: s}
	tests := []struct {
		key     string
		putKeys []string
	}{
		{"foo", []string{"foo"}},
		{"fooLong", []string{"fooLong"}},
		{"foo/bar", []string{"foo/bar"}},
	}

	var (
		wg      sync.WaitGroup
		watchCh []<-chan mvccpbEvent
		putKey  string
	)
	for i := 0; i < len(tests); i++ {
		putKey = tests[i].putKeys[0] // race
		watchCh = append(watchCh, s.Watch(tests[i].key))
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := kvc.Put(putKey, "bar"); err != nil { // race
				t.Errorf("couldn't put key (%v)", err)
			}
		}()
	}
	wg.Wait()

	for i, ch := range watchCh {
		select {
		case ev := <-ch:
			if ev.Key != tests[i].key {
				t.Logf("#%d: got event for %q", i, ev.Key)
			}
		case <-time.After(100 * time.Millisecond):
			t.Logf("#%d: no event for %q", i, tests[i].key)
		}
	}
}
