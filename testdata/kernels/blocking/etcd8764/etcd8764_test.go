package etcd8764

import (
	"encoding/binary"
	"errors"
	"sync"
	"testing"
	"time"
)

var ErrCompacted = errors.New("mvcc: required revision has been compacted")

var (
	keyBucketName  = []byte("key")
	metaBucketName = []byte("meta")

	consistentIndexKeyName  = []byte("consistent_index")
	scheduledCompactKeyName = []byte("scheduledCompactRev")
)

type BatchTx interface {
	Lock()
	Unlock()
	UnsafePut(bucketName []byte, key []byte, value []byte)
	Commit()
}

type Hooks interface {
	OnPreCommitUnsafe(tx BatchTx)
}

type batchTx struct {
	sync.Mutex
	buckets map[string]map[string][]byte
	backend *backend
	pending int
}

func (t *batchTx) UnsafePut(bucketName []byte, key []byte, value []byte) {
	b, ok := t.buckets[string(bucketName)]
	if !ok {
		b = make(map[string][]byte)
		t.buckets[string(bucketName)] = b
	}
	b[string(key)] = value
	t.pending++
}

func (t *batchTx) safePending() int {
	t.Lock()
	defer t.Unlock()
	return t.pending
}

func (t *batchTx) Commit() {
	t.Lock() // deadlock
	t.commit()
	t.Unlock()
}

func (t *batchTx) commit() {
	if t.backend.hooks != nil {
		t.backend.hooks.OnPreCommitUnsafe(t)
	}
	t.pending = 0
}

type backend struct {
	batchInterval time.Duration
	batchTx       *batchTx
	hooks         Hooks
	stopc         chan struct{}
	donec         chan struct{}
}

func newBackend(batchInterval time.Duration) *backend {
	b := &backend{
		batchInterval: batchInterval,
		stopc:         make(chan struct{}),
		donec:         make(chan struct{}),
	}
	b.batchTx = &batchTx{buckets: make(map[string]map[string][]byte), backend: b}
	return b
}

func (b *backend) BatchTx() BatchTx { return b.batchTx }

func (b *backend) run() {
	defer close(b.donec)
	t := time.NewTimer(b.batchInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-b.stopc:
			b.batchTx.Commit()
			return
		}
		if b.batchTx.safePending() != 0 {
			b.batchTx.Commit()
		}
		t.Reset(b.batchInterval)
	}
}

func (b *backend) Close() {
	close(b.stopc)
	<-b.donec
}

type store struct {
	mu             sync.RWMutex
	b              *backend
	currentRev     int64
	compactMainRev int64
}

type storeHooks struct {
	s *store
}

func (h *storeHooks) OnPreCommitUnsafe(tx BatchTx) {
	h.s.saveIndex(tx)
}

func NewStore(b *backend) *store {
	s := &store{b: b, currentRev: 1, compactMainRev: -1}
	b.hooks = &storeHooks{s: s}
	go b.run()
	return s
}

func (s *store) saveIndex(tx BatchTx) {
	s.mu.RLock() // deadlock
	rev := s.currentRev
	s.mu.RUnlock()
	bs := make([]byte, 8)
	binary.BigEndian.PutUint64(bs, uint64(rev))
	tx.UnsafePut(metaBucketName, consistentIndexKeyName, bs)
}

func (s *store) Put(key, value []byte) int64 {
	s.mu.Lock()
	s.currentRev++
	rev := s.currentRev
	s.mu.Unlock()

	tx := s.b.BatchTx()
	tx.Lock()
	tx.UnsafePut(keyBucketName, key, value)
	tx.Unlock()
	return rev
}

func (s *store) Compact(rev int64) error {
	s.mu.Lock() // deadlock
	defer s.mu.Unlock()
	if rev <= s.compactMainRev {
		return ErrCompacted
	}
	if rev > s.currentRev {
		return errors.New("mvcc: required revision is a future revision")
	}

	rbytes := make([]byte, 8)
	binary.BigEndian.PutUint64(rbytes, uint64(rev))

	tx := s.b.BatchTx()
	tx.Lock() // deadlock
	tx.UnsafePut(metaBucketName, scheduledCompactKeyName, rbytes)
	tx.Unlock()

	s.compactMainRev = rev
	return nil
}

func TestEtcd8764(t *testing.T) {
	b := newBackend(time.Millisecond)
	s := NewStore(b)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 100; i++ {
			s.Put([]byte("foo"), []byte("bar"))
		}
	}()
	go func() {
		defer wg.Done()
		for i := int64(2); i < 50; i++ {
			s.Compact(i)
			time.Sleep(100 * time.Microsecond)
		}
	}()
	wg.Wait()
	b.Close()
}
