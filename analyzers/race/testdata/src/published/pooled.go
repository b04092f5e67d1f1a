package published

import "sync"

// A Bag comes from a pool: New fills the one it got, which no one else
// holds until it is put back. Silent.
type Bag struct {
	mu    sync.Mutex
	items map[string]bool
	flat  []string
}

var bags = sync.Pool{New: func() any { return &Bag{items: map[string]bool{}} }}

func NewBag(items ...string) *Bag {
	b := bags.Get().(*Bag)
	for _, it := range items {
		b.items[it] = true
	}
	b.flat = nil
	return b
}

func (b *Bag) Add(it string) {
	b.mu.Lock()
	b.items[it] = true
	b.flat = nil
	b.mu.Unlock()
}

func (b *Bag) Has(it string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.items[it]
}

func (b *Bag) Flat() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.flat == nil {
		for it := range b.items {
			b.flat = append(b.flat, it)
		}
	}
	return b.flat
}

// Len reads the items without the lock: reported.
func (b *Bag) Len() int {
	return len(b.items) // want `possible data race: \(\*published.Bag\).Len reads map contents of \(published.Bag\).items without holding \(published.Bag\).mu`
}

// A Frame comes from an Allocator, an interface whose implementations in
// the package all hand out a frame no one else holds (a new one, or one
// from a pool): Start fills it, and observe reads it, before Start
// returns it. Silent.
type Frame struct {
	mu   sync.Mutex
	name string
	tags []string
}

type Allocator interface {
	Get() *Frame
	Put(*Frame)
}

type newAllocator struct{}

func (newAllocator) Get() *Frame { return &Frame{} }
func (newAllocator) Put(*Frame)  {}

type poolAllocator struct{ pool sync.Pool }

func (a *poolAllocator) Get() *Frame  { return a.pool.Get().(*Frame) }
func (a *poolAllocator) Put(f *Frame) { a.pool.Put(f) }

type Tracer struct {
	alloc Allocator
	seen  int
}

func NewTracer(pooled bool) *Tracer {
	if pooled {
		return &Tracer{alloc: &poolAllocator{pool: sync.Pool{New: func() any { return &Frame{} }}}}
	}
	return &Tracer{alloc: newAllocator{}}
}

func (t *Tracer) newFrame() *Frame { return t.alloc.Get() }

func (t *Tracer) Start(name string) *Frame {
	f := t.newFrame()
	f.name = name
	f.tags = f.tags[:0]
	t.observe(f)
	return f
}

func (t *Tracer) observe(f *Frame) {
	if f.name != "" {
		t.seen++
	}
}

func (f *Frame) Rename(name string) {
	f.mu.Lock()
	f.name = name
	f.mu.Unlock()
}

func (f *Frame) Name() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.name
}

func (f *Frame) Tag(s string) {
	f.mu.Lock()
	f.tags = append(f.tags, s)
	f.mu.Unlock()
}

// A Slot comes from a Recycler one of whose implementations hands out the
// same slot to every caller: Fill's writes are reported.
type Slot struct {
	mu  sync.Mutex
	val int
}

type Recycler interface{ Get() *Slot }

type newRecycler struct{}

func (newRecycler) Get() *Slot { return &Slot{} }

type sharedRecycler struct{ last *Slot }

func (r *sharedRecycler) Get() *Slot { return r.last }

type Filler struct{ slots Recycler }

func NewFiller(shared bool) *Filler {
	if shared {
		return &Filler{slots: &sharedRecycler{last: &Slot{}}}
	}
	return &Filler{slots: newRecycler{}}
}

func (f *Filler) Fill(v int) *Slot {
	s := f.slots.Get()
	s.val = v // want `possible data race: \(\*published.Filler\).Fill writes \(published.Slot\).val without holding \(published.Slot\).mu`
	return s
}

func (s *Slot) Set(v int) {
	s.mu.Lock()
	s.val = v
	s.mu.Unlock()
}

func (s *Slot) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.val
}
