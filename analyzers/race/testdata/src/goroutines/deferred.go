package goroutines

import (
	"errors"
	"sync"
)

var errBusy = errors.New("busy")

var minTimeout = 10

type monitor struct{ waited int }

func (m *monitor) reset() { m.waited = minTimeout }

// connect starts the monitor and leaves it running.
func (m *monitor) connect() {
	go func() {
		m.reset()
	}()
}

// watcher runs connect in its own goroutine: the monitor it starts runs
// on after the watcher.
func watcher() {
	m := &monitor{}
	go m.connect()
}

// RestoreTimeout changes the timeout and restores it in a deferred call,
// while the monitors that watcher started still read it (grpc's
// minConnectTimeout, restored by a test's defer).
func RestoreTimeout() {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		saved := minTimeout
		defer func() {
			minTimeout = saved // want `possible data race: goroutines.minTimeout is written by goroutines.RestoreTimeout\$1 and read by goroutine \(\*goroutines.monitor\).connect\$1`
		}()
		watcher()
	}()
	wg.Wait()
}

// Outcome checks in a deferred call what its goroutine recorded, after
// the deferred Wait registered later, which runs first. Silent.
func Outcome() error {
	var err error
	defer func() {
		if err != nil {
			panic(err)
		}
	}()
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		err = nil
	}()
	return nil
}

// EarlyOutcome checks in a deferred call registered after the deferred
// Wait: it runs first, while the goroutine may still write.
func EarlyOutcome() {
	var err error
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Add(1)
	go func() {
		defer wg.Done()
		err = errBusy // want `possible data race: captured variable err in goroutines.EarlyOutcome is written by goroutine goroutines.EarlyOutcome\$1 and read by goroutines.EarlyOutcome`
	}()
	defer func() {
		if err != nil {
			panic(err)
		}
	}()
}
