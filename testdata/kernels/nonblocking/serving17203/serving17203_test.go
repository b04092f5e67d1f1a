package serving17203

import (
	"errors"
	"sync"
	"testing"
	"time"
)

type Stat struct {
	PodName                          string
	AverageConcurrentRequests        float64
	AverageProxiedConcurrentRequests float64
	RequestCount                     float64
	ProxiedRequestCount              float64
	ProcessUptime                    float64
}

type StatsScraper interface {
	Scrape(window time.Duration) (Stat, error)
}

type serviceScraper struct {
	mu    sync.Mutex
	calls int
}

func (s *serviceScraper) Scrape(window time.Duration) (Stat, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.calls%7 == 0 {
		return Stat{}, errors.New("pod not ready")
	}
	return Stat{
		PodName:                   "helloworld-go-00001-deployment-abc",
		AverageConcurrentRequests: float64(s.calls % 10),
		RequestCount:              float64(s.calls),
		ProcessUptime:             float64(s.calls) * window.Seconds(),
	}, nil
}

type collection struct {
	sync.RWMutex
	key      string
	scraper  StatsScraper
	lastStat Stat
	lastErr  error

	stopCh chan struct{}
	grp    sync.WaitGroup
}

func newCollection(key string, scraper StatsScraper, tickInterval time.Duration) *collection {
	c := &collection{
		key:     key,
		scraper: scraper,
		stopCh:  make(chan struct{}),
	}
	c.grp.Add(1)
	go func() {
		defer c.grp.Done()
		ticker := time.NewTicker(tickInterval)
		defer ticker.Stop()
		for {
			select {
			case <-c.stopCh:
				return
			case <-ticker.C:
				stat, err := scraper.Scrape(tickInterval)
				c.record(stat, err)
			}
		}
	}()
	return c
}

func (c *collection) record(stat Stat, err error) {
	c.Lock()
	defer c.Unlock()
	if err != nil {
		c.lastErr = err
		return
	}
	c.lastStat = stat // race
	c.lastErr = nil
}

func (c *collection) close() {
	close(c.stopCh)
	c.grp.Wait()
}

type MetricCollector struct {
	collectionsMutex sync.RWMutex
	collections      map[string]*collection
}

func NewMetricCollector() *MetricCollector {
	return &MetricCollector{collections: make(map[string]*collection)}
}

func (c *MetricCollector) CreateOrUpdate(key string, scraper StatsScraper, tick time.Duration) {
	c.collectionsMutex.Lock()
	defer c.collectionsMutex.Unlock()
	if _, ok := c.collections[key]; ok {
		return
	}
	c.collections[key] = newCollection(key, scraper, tick)
}

func (c *MetricCollector) LastStat(key string) (Stat, bool) {
	c.collectionsMutex.RLock()
	defer c.collectionsMutex.RUnlock()
	coll, ok := c.collections[key]
	if !ok {
		return Stat{}, false
	}
	return coll.lastStat, true // race
}

func (c *MetricCollector) Delete(key string) {
	c.collectionsMutex.Lock()
	coll, ok := c.collections[key]
	delete(c.collections, key)
	c.collectionsMutex.Unlock()
	if ok {
		coll.close()
	}
}

func TestMetricCollectorLastStat(t *testing.T) {
	mc := NewMetricCollector()
	key := "default/helloworld-go"
	mc.CreateOrUpdate(key, &serviceScraper{}, time.Millisecond)
	defer mc.Delete(key)

	var observed float64
	for i := 0; i < 20; i++ {
		if st, ok := mc.LastStat(key); ok {
			observed += st.AverageConcurrentRequests
		}
		time.Sleep(500 * time.Microsecond)
	}
	_ = observed
}
