package prometheus4067

import (
	"context"
	"sort"
	"sync"
	"testing"
	"time"
)

type Label struct{ Name, Value string }
type Labels []Label

type RelabelConfig struct {
	SourceLabel string
	TargetLabel string
}

type ScrapeConfig struct {
	JobName              string
	HonorLabels          bool
	ScrapeInterval       time.Duration
	MetricRelabelConfigs []*RelabelConfig
}

type Target struct {
	labels Labels
}

type Appender interface {
	Add(l Labels, t int64, v float64) error
}

type nopAppender struct{}

func (nopAppender) Add(l Labels, t int64, v float64) error { return nil }

func mutateSampleLabels(lset Labels, target *Target, honor bool, rc []*RelabelConfig) Labels {
	out := make(Labels, 0, len(lset)+len(target.labels))
	out = append(out, lset...)
	for _, l := range target.labels {
		if !honor {
			out = append(out, Label{Name: "exported_" + l.Name, Value: l.Value})
		}
		out = append(out, l)
	}
	for _, r := range rc {
		for i := range out {
			if out[i].Name == r.SourceLabel {
				out[i].Name = r.TargetLabel
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

type loop interface {
	run(interval time.Duration)
	stop()
}

type scrapeLoop struct {
	target        *Target
	sampleMutator func(Labels) Labels
	appender      func() Appender
	ctx           context.Context
	cancel        context.CancelFunc
	stopped       chan struct{}
}

func newScrapeLoop(ctx context.Context, t *Target, sampleMutator func(Labels) Labels, appender func() Appender) *scrapeLoop {
	sl := &scrapeLoop{
		target:        t,
		sampleMutator: sampleMutator,
		appender:      appender,
		stopped:       make(chan struct{}),
	}
	sl.ctx, sl.cancel = context.WithCancel(ctx)
	return sl
}

func (sl *scrapeLoop) run(interval time.Duration) {
	defer close(sl.stopped)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	for {
		select {
		case <-sl.ctx.Done():
			return
		case <-ticker.C:
		}
		app := sl.appender()
		for _, s := range []Labels{{{"__name__", "up"}}, {{"__name__", "go_goroutines"}}} {
			app.Add(sl.sampleMutator(s), time.Now().UnixNano(), 1)
		}
	}
}

func (sl *scrapeLoop) stop() {
	sl.cancel()
	<-sl.stopped
}

type scrapePool struct {
	appendable Appender
	ctx        context.Context

	mtx     sync.RWMutex
	config  *ScrapeConfig
	targets map[uint64]*Target
	loops   map[uint64]loop

	newLoop func(*Target) loop
}

func newScrapePool(cfg *ScrapeConfig, app Appender) *scrapePool {
	sp := &scrapePool{
		appendable: app,
		ctx:        context.Background(),
		config:     cfg,
		targets:    make(map[uint64]*Target),
		loops:      make(map[uint64]loop),
	}
	sp.newLoop = func(t *Target) loop {
		return newScrapeLoop(sp.ctx, t,
			func(l Labels) Labels {
				cfg := sp.config // race
				return mutateSampleLabels(l, t, cfg.HonorLabels, cfg.MetricRelabelConfigs)
			},
			func() Appender { return sp.appendable },
		)
	}
	return sp
}

func (sp *scrapePool) sync(targets []*Target) {
	sp.mtx.Lock()
	defer sp.mtx.Unlock()
	for i, t := range targets {
		h := uint64(i)
		if _, ok := sp.targets[h]; ok {
			continue
		}
		l := sp.newLoop(t)
		sp.targets[h] = t
		sp.loops[h] = l
		go l.run(sp.config.ScrapeInterval)
	}
}

func (sp *scrapePool) reload(cfg *ScrapeConfig) {
	sp.mtx.Lock()
	defer sp.mtx.Unlock()
	sp.config = cfg // race
	var wg sync.WaitGroup
	for fp, oldLoop := range sp.loops {
		newLoop := sp.newLoop(sp.targets[fp])
		wg.Add(1)
		go func(oldLoop, newLoop loop) {
			oldLoop.stop()
			wg.Done()
			go newLoop.run(cfg.ScrapeInterval)
		}(oldLoop, newLoop)
		sp.loops[fp] = newLoop
	}
	wg.Wait()
}

func (sp *scrapePool) stop() {
	sp.mtx.Lock()
	defer sp.mtx.Unlock()
	for _, l := range sp.loops {
		l.stop()
	}
}

func TestScrapePoolReload(t *testing.T) {
	cfg := &ScrapeConfig{JobName: "node", ScrapeInterval: time.Millisecond}
	reloadCfg := &ScrapeConfig{
		JobName:              "node",
		HonorLabels:          true,
		ScrapeInterval:       time.Millisecond,
		MetricRelabelConfigs: []*RelabelConfig{{SourceLabel: "instance", TargetLabel: "node"}},
	}
	sp := newScrapePool(cfg, nopAppender{})
	sp.sync([]*Target{
		{labels: Labels{{"instance", "localhost:9100"}}},
		{labels: Labels{{"instance", "localhost:9090"}}},
	})
	time.Sleep(5 * time.Millisecond)

	sp.reload(reloadCfg)
	time.Sleep(2 * time.Millisecond)
	sp.stop()
}
