package goroutines

import (
	"sync"
	"time"
)

type sampleReporter struct {
	last int
}

func (r *sampleReporter) report() { r.last++ }

type reportScope struct {
	mu   sync.Mutex
	sink *sampleReporter
}

func newReportScope(r *sampleReporter, interval time.Duration) *reportScope {
	s := &reportScope{sink: r}
	if interval > 0 {
		go func() {
			for {
				s.sink.report()
				time.Sleep(interval)
			}
		}()
	}
	return s
}

// ReportEvery reports every second while the caller goes on.
func ReportEvery(r *sampleReporter) {
	s := newReportScope(r, time.Second)
	s.sink.last = 0 // want `possible data race: \(goroutines.sampleReporter\).last is written by goroutines.ReportEvery and written by goroutine goroutines.newReportScope\$1`
}

// ReportNever starts no sampleReporter: the interval is zero. Silent.
func ReportNever(r *sampleReporter) {
	s := newReportScope(r, 0)
	s.sink.last = 0
}
