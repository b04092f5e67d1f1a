package suites

import (
	"sync"
	"testing"
)

type testFactory struct {
	lock  sync.Mutex
	valid bool
	made  int
}

func (f *testFactory) make() int {
	f.lock.Lock()
	defer f.lock.Unlock()
	if !f.valid { // want `possible data race`
		return 0
	}
	f.made++
	return f.made
}

func (f *testFactory) setValid(v bool) {
	f.lock.Lock()
	f.valid = v
	f.lock.Unlock()
}

// A PoolSuite is run by a suite runner (testify's suite.Run): it calls
// SetupTest and then one Test method at a time. Silent: nothing runs
// beside the unlocked writes of checkEvict and TestLIFO.
type PoolSuite struct {
	Suite
	f *testFactory
	p *Pool
}

func (s *PoolSuite) SetupTest() {
	s.f = &testFactory{valid: true}
	s.p = NewPool(s.f.make)
}

func (s *PoolSuite) checkInvalid() {
	s.f.valid = false
	s.p.Return(s.p.Borrow())
}

func (s *PoolSuite) TestInvalid() {
	s.checkInvalid()
}

func (s *PoolSuite) TestLIFO() {
	s.p.LIFO = true
	s.p.Return(s.p.Borrow())
}

func (s *PoolSuite) TestConcurrent() {
	done := make(chan bool)
	for i := 0; i < 2; i++ {
		go func(p *Pool) {
			p.Prefill(1)
			done <- true
		}(s.p)
	}
	<-done
	<-done
	s.f.setValid(false)
}

func TestPoolSuite(t *testing.T) {
	runSuite(t, new(PoolSuite))
}

// A Suite is what testify's suite.Suite holds.
type Suite struct {
	mu sync.RWMutex
	t  *testing.T
}

// T returns the suite's current test.
func (s *Suite) T() *testing.T {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.t
}

func runSuite(t *testing.T, s any) { _, _ = t, s }

// A test that writes while the goroutines it started still run is
// reported.
func TestRacy(t *testing.T) {
	f := &testFactory{valid: true}
	p := NewPool(f.make)
	done := make(chan bool)
	go func() {
		p.Return(f.make())
		done <- true
	}()
	f.valid = false // want `possible data race`
	<-done
}
