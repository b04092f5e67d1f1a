package collectors

import "sync"

// A chunk belongs to one queue at a time. A stream reads the chunks it
// received under its own lock; an association clears the data of the
// chunks it sent under its own. The two hold different chunks: neither
// lock is the chunk's, and nothing shows one chunk under both.
type chunk struct {
	data []byte
}

type stream struct {
	mu sync.Mutex
	in []*chunk
}

type association struct {
	mu       sync.Mutex
	inflight []*chunk
	streams  []*stream
}

func (s *stream) read() (n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.in {
		n += len(c.data)
	}
	return n
}

func (a *association) ack() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, c := range a.inflight {
		c.data = nil
	}
}

// Run acknowledges and reads in goroutines of their own.
func (a *association) Run() {
	go a.ack()
	for _, s := range a.streams {
		go s.read()
	}
}

// A memory store and a file store each keep a streamState of their own,
// by value, under their own lock; the file store checks its state
// against a copy with a helper it calls under its lock. Different memory
// however alike the field: silent.
type streamState struct {
	msgs  int
	first int
}

type memStore struct {
	mu    sync.Mutex
	state streamState
}

type fileStore struct {
	mu    sync.RWMutex
	state streamState
}

func (ms *memStore) store() {
	ms.mu.Lock()
	ms.state.msgs++
	ms.state.first = 1
	ms.mu.Unlock()
}

func (fs *fileStore) check(tracked streamState) bool {
	fs.mu.RLock()
	defer fs.mu.RUnlock()
	return statesEqual(&fs.state, &tracked)
}

func statesEqual(a, b *streamState) bool {
	return a.msgs == b.msgs && a.first == b.first
}

// Run stores in the memory store and checks the file store at once.
func Run(ms *memStore, fs *fileStore) {
	go ms.store()
	go fs.check(streamState{})
}

// A journal's state is read under the journal's lock by its snapshot,
// and written under another lock by its compactor: the same struct in
// the same journal, reported.
type journal struct {
	mu      sync.Mutex
	compact sync.Mutex
	state   streamState
}

func (j *journal) snapshot() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.state.first // want `possible data race: \(\*collectors.journal\).snapshot reads \(collectors.streamState\).first holding \(collectors.journal\).mu, but \(\*collectors.journal\).shrink writes it holding \(collectors.journal\).compact; the locksets do not intersect`
}

func (j *journal) shrink() {
	j.compact.Lock()
	j.state.first++ // want `possible data race: \(collectors.streamState\).first is written by goroutine \(\*collectors.journal\).shrink and read by goroutine \(\*collectors.journal\).snapshot`
	j.compact.Unlock()
}

// Maintain shrinks the journal while snapshots are taken.
func Maintain(j *journal) {
	go j.shrink()
	go j.snapshot()
}

// A file consumer and a memory consumer each keep a consumerState by
// value; the file one's flush loop reads its own delivered sequence
// while the memory one updates its own: apart two fields deep, silent.
type seqPair struct{ stream int }

type consumerState struct{ delivered seqPair }

type fileConsumer struct {
	mu    sync.Mutex
	state consumerState
}

type memConsumer struct {
	mu    sync.Mutex
	state consumerState
}

func (fc *fileConsumer) flushLoop(out chan<- int) {
	for {
		out <- fc.state.delivered.stream
	}
}

func (mc *memConsumer) update(seq int) {
	mc.mu.Lock()
	mc.state.delivered.stream = seq
	mc.mu.Unlock()
}

func (mc *memConsumer) get() int {
	mc.mu.Lock()
	defer mc.mu.Unlock()
	return mc.state.delivered.stream
}

func (mc *memConsumer) reset() {
	mc.mu.Lock()
	mc.state.delivered.stream = 0
	mc.mu.Unlock()
}

// Consume runs both consumers' goroutines.
func Consume(fc *fileConsumer, mc *memConsumer, out chan<- int) {
	go fc.flushLoop(out)
	go mc.update(1)
	go mc.reset()
	out <- mc.get()
}
