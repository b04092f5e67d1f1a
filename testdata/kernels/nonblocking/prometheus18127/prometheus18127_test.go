package prometheus18127

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

type FailureLogger interface {
	Log(msg string)
	Close() error
}

type fileLogger struct {
	path string
	mu   sync.Mutex
	n    int
}

func (l *fileLogger) Log(msg string) {
	l.mu.Lock()
	l.n++
	l.mu.Unlock()
}
func (l *fileLogger) Close() error { return nil }

type Group struct {
	Source  string
	Targets []string
}

type scrapeLoopOptions struct {
	target              string
	scrapeFailureLogger FailureLogger
}

type scrapeLoop struct {
	target  string
	mtx     sync.Mutex
	fLogger FailureLogger
}

func (sl *scrapeLoop) setScrapeFailureLogger(l FailureLogger) {
	sl.mtx.Lock()
	defer sl.mtx.Unlock()
	sl.fLogger = l
}

type scrapePool struct {
	jobName string

	targetMtx     sync.Mutex
	activeTargets map[string]bool
	loops         map[string]*scrapeLoop

	scrapeFailureLogger    FailureLogger
	scrapeFailureLoggerMtx sync.RWMutex
}

func newScrapePool(job string) *scrapePool {
	return &scrapePool{
		jobName:       job,
		activeTargets: make(map[string]bool),
		loops:         make(map[string]*scrapeLoop),
	}
}

func (sp *scrapePool) newLoop(opts scrapeLoopOptions) *scrapeLoop {
	return &scrapeLoop{target: opts.target, fLogger: opts.scrapeFailureLogger}
}

func (sp *scrapePool) SetScrapeFailureLogger(l FailureLogger) {
	sp.scrapeFailureLoggerMtx.Lock()
	defer sp.scrapeFailureLoggerMtx.Unlock()
	sp.scrapeFailureLogger = l // race

	sp.targetMtx.Lock()
	defer sp.targetMtx.Unlock()
	for _, s := range sp.loops {
		s.setScrapeFailureLogger(l)
	}
}

func (sp *scrapePool) Sync(tgs []*Group) {
	sp.targetMtx.Lock()
	defer sp.targetMtx.Unlock()
	for _, tg := range tgs {
		for _, t := range tg.Targets {
			if sp.activeTargets[t] {
				continue
			}
			l := sp.newLoop(scrapeLoopOptions{
				target:              t,
				scrapeFailureLogger: sp.scrapeFailureLogger, // race
			})
			sp.activeTargets[t] = true
			sp.loops[t] = l
		}
	}
}

type Manager struct {
	mtxScrape   sync.Mutex
	scrapePools map[string]*scrapePool
}

func (m *Manager) ApplyConfig(failureLogPath string) {
	m.mtxScrape.Lock()
	defer m.mtxScrape.Unlock()
	for _, sp := range m.scrapePools {
		sp.SetScrapeFailureLogger(&fileLogger{path: failureLogPath})
	}
}

func TestScrapePoolSyncWithFailureLogger(t *testing.T) {
	sp := newScrapePool("node")
	m := &Manager{scrapePools: map[string]*scrapePool{"node": sp}}
	logger := &fileLogger{path: "/tmp/scrape-failures.log"}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for i := 0; i < 20; i++ {
			sp.Sync([]*Group{{Source: "file", Targets: []string{fmt.Sprintf("localhost:%d", 9100+i)}}})
			time.Sleep(100 * time.Microsecond)
		}
	}()
	go func() {
		defer wg.Done()
		time.Sleep(500 * time.Microsecond)
		sp.SetScrapeFailureLogger(logger)
		m.ApplyConfig("/tmp/scrape-failures-2.log")
	}()
	wg.Wait()
}
