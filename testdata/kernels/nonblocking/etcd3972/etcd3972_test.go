package etcd3972

import (
	"path"
	"strings"
	"sync"
	"testing"
)

type NodeExtern struct {
	Key           string
	Value         *string
	Dir           bool
	ModifiedIndex uint64
	CreatedIndex  uint64
}

func (n *NodeExtern) Clone() *NodeExtern {
	if n == nil {
		return nil
	}
	nn := &NodeExtern{
		Key:           n.Key, // race
		Dir:           n.Dir,
		ModifiedIndex: n.ModifiedIndex,
		CreatedIndex:  n.CreatedIndex,
	}
	if n.Value != nil {
		v := *n.Value
		nn.Value = &v
	}
	return nn
}

type Event struct {
	Action    string
	Node      *NodeExtern
	PrevNode  *NodeExtern
	EtcdIndex uint64
}

func (e *Event) Clone() *Event {
	return &Event{
		Action:    e.Action,
		EtcdIndex: e.EtcdIndex,
		Node:      e.Node.Clone(),
		PrevNode:  e.PrevNode.Clone(),
	}
}

type Watcher struct {
	eventChan chan *Event
	key       string
	recursive bool
}

type watcherHub struct {
	mutex    sync.Mutex
	watchers map[string][]*Watcher
}

func newWatchHub() *watcherHub {
	return &watcherHub{watchers: make(map[string][]*Watcher)}
}

func (wh *watcherHub) watch(key string, recursive bool) *Watcher {
	wh.mutex.Lock()
	defer wh.mutex.Unlock()
	w := &Watcher{eventChan: make(chan *Event, 100), key: key, recursive: recursive}
	wh.watchers[key] = append(wh.watchers[key], w)
	return w
}

func (wh *watcherHub) notify(e *Event) {
	wh.mutex.Lock()
	defer wh.mutex.Unlock()
	segments := strings.Split(e.Node.Key, "/")
	curPath := "/"
	for _, segment := range segments {
		curPath = path.Join(curPath, segment)
		for _, w := range wh.watchers[curPath] {
			if w.key == e.Node.Key || w.recursive {
				w.eventChan <- e
			}
		}
	}
}

func trimPrefix(p, prefix string) (s string) {
	s = strings.TrimPrefix(p, prefix)
	if s == "" {
		s = "/"
	}
	return
}

func trimEventPrefix(ev *Event, prefix string) *Event {
	if ev == nil {
		return nil
	}
	ev.Node.Key = trimPrefix(ev.Node.Key, prefix) // race
	return ev
}

type keysHandler struct {
	prefix string
	out    []*Event
}

func (h *keysHandler) handleWatch(w *Watcher, wg *sync.WaitGroup) {
	defer wg.Done()
	ev := <-w.eventChan
	h.out = append(h.out, trimEventPrefix(ev, h.prefix))
}

type storeWatchRecorder struct {
	out []*Event
}

func (r *storeWatchRecorder) handleWatch(w *Watcher, wg *sync.WaitGroup) {
	defer wg.Done()
	ev := <-w.eventChan
	r.out = append(r.out, ev.Clone())
}

func TestWatchHubNotifyMultipleWatchers(t *testing.T) {
	wh := newWatchHub()
	w1 := wh.watch("/1/registry/pods/default/foo", false)
	w2 := wh.watch("/1/registry", true)

	h := &keysHandler{prefix: "/1"}
	rec := &storeWatchRecorder{}
	var wg sync.WaitGroup
	wg.Add(2)
	go h.handleWatch(w1, &wg)
	go rec.handleWatch(w2, &wg)

	v := "pod-spec"
	wh.notify(&Event{
		Action:    "set",
		Node:      &NodeExtern{Key: "/1/registry/pods/default/foo", Value: &v, ModifiedIndex: 7, CreatedIndex: 7},
		EtcdIndex: 7,
	})
	wg.Wait()
	if len(h.out) != 1 || len(rec.out) != 1 {
		t.Fatalf("expected one event per watcher")
	}
}
