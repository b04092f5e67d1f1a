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
