package indirect

import (
	"sort"
	"sync"
)

// sync.Once.Do runs its function before it returns, in the caller's
// goroutine: the locks that function takes are the caller's (hugo5379).

type Page struct {
	mu    sync.Mutex
	plain sync.Once
	words int
}

func (p *Page) render() {
	p.mu.Lock() // want `double lock: \(\*indirect.Page\).render locks p.mu via \(\*indirect.Page\).initPlain -> \(\*sync.Once\).Do -> \(\*indirect.Page\).initPlain\$1 while already holding it`
	defer p.mu.Unlock()
	p.initPlain()
}

func (p *Page) initPlain() {
	p.plain.Do(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.words = 1
	})
}

// Its twin releases the lock before the Once.
func (p *Page) renderFixed() {
	p.mu.Lock()
	p.words++
	p.mu.Unlock()
	p.initPlain()
}

func Render(p *Page) {
	p.render()
	p.renderFixed()
}

// A Once whose function locks another class, and the reverse order
// elsewhere: a cycle through the Once.

type Site struct {
	mu    sync.Mutex
	pages []*Page
	once  sync.Once
}

func (s *Site) init() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.once.Do(func() {
		for _, p := range s.pages {
			p.mu.Lock()
			p.words = 0
			p.mu.Unlock()
		}
	})
}

func (p *Page) attach(s *Site) {
	p.mu.Lock() // want `lock-order cycle: \(\*indirect.Page\).attach acquires \(indirect.Site\).mu while holding \(indirect.Page\).mu, but \(\*indirect.Site\).init acquires \(indirect.Page\).mu while holding \(indirect.Site\).mu`
	defer p.mu.Unlock()
	s.mu.Lock()
	s.pages = append(s.pages, p)
	s.mu.Unlock()
}

func Build(s *Site, p *Page) {
	s.init()
	p.attach(s)
}

// A comparison function that sort.Slice calls: its lock is taken under
// the caller's.

type Index struct {
	mu   sync.Mutex
	keys []string
	rank map[string]int
}

func (x *Index) rankOf(k string) int {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.rank[k]
}

func (x *Index) Sort() {
	x.mu.Lock() // want `double lock: \(\*indirect.Index\).Sort locks x.mu via sort.Slice -> \(\*indirect.Index\).Sort\$1 -> \(\*indirect.Index\).rankOf while already holding it`
	defer x.mu.Unlock()
	sort.Slice(x.keys, func(i, j int) bool { return x.rankOf(x.keys[i]) < x.rankOf(x.keys[j]) })
}

// Its twin copies the ranks under the lock, then sorts.
func (x *Index) SortFixed() {
	x.mu.Lock()
	keys := append([]string(nil), x.keys...)
	x.mu.Unlock()
	sort.Slice(keys, func(i, j int) bool { return x.rankOf(keys[i]) < x.rankOf(keys[j]) })
}

// A release function that unlockOnce makes, called before serving: the
// lock is released through a method value of an unknown sync.Locker run
// by the Once, and serve's locks are not taken under it (miekg/dns).
type Server struct {
	lock    sync.RWMutex
	started bool
}

func unlockOnce(l sync.Locker) func() {
	var once sync.Once
	return func() { once.Do(l.Unlock) }
}

func (s *Server) isStarted() bool {
	s.lock.RLock()
	defer s.lock.RUnlock()
	return s.started
}

func (s *Server) serve() {
	defer func() { s.started = false }()
	if s.isStarted() {
		s.started = true
	}
}

func (s *Server) ListenAndServe() {
	unlock := unlockOnce(&s.lock)
	s.lock.Lock()
	defer unlock()
	s.started = true
	unlock()
	s.serve()
}
