package twostage

import (
	"sync"
	"testing"
)

// run starts updaters goroutines that each Update, and one checker.
func run(t *testing.T, updaters int) {
	var s TwoStage
	var wg sync.WaitGroup
	wg.Add(updaters + 1)
	for range updaters {
		go func() {
			defer wg.Done()
			s.Update()
		}()
	}
	go func() { // prefer: twostage
		defer wg.Done()
		if err := s.Check(); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
}

func TestTwoStage2_1(t *testing.T)  { run(t, 2) }
func TestTwoStage7_1(t *testing.T)  { run(t, 7) }
func TestTwoStage8_1(t *testing.T)  { run(t, 8) }
func TestTwoStage10_1(t *testing.T) { run(t, 10) }
func TestTwoStage20_1(t *testing.T) { run(t, 20) }
