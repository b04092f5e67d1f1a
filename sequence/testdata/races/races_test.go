package races

import (
	"sync"
	"testing"
)

func TestServer(t *testing.T) {
	s := &Server{}
	s.Start()
	done := make(chan bool)
	go func() {
		s.Handle()
		done <- true
	}()
	_ = s.Report()
	<-done
	s.Stop()
}

func TestProcess(t *testing.T) {
	s := &Stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Open()
		Process(s, []int{1, 2})
	}()
	_ = s.Total()
	wg.Wait()
}

func TestWorker(t *testing.T) {
	w := &Worker{}
	jobs := make(chan int)
	go w.Run(jobs)
	w.Enable()
	jobs <- 1
	_ = w.Count()
}

func TestPair(t *testing.T) {
	startPair(&Pair{})
}

func TestInc(t *testing.T) {
	p := &Pair{}
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.Inc()
		}()
	}
	wg.Wait()
}

func TestTally(t *testing.T) {
	x := &Tally{}
	x.Bump()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		x.Drop()
	}()
	go func() {
		defer wg.Done()
		x.Bump()
	}()
	wg.Wait()
}

func TestGauge(t *testing.T) {
	done := make(chan bool)
	runGauge(&Gauge{}, done)
	<-done
}
