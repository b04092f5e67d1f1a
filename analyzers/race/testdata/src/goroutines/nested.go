package goroutines

import "sync"

var revokeRate = 1000

type lessor struct{ revoked int }

func (l *lessor) runLoop() {
	l.revoked += revokeRate // want `possible data race: goroutines.revokeRate is read by goroutine \(\*goroutines.lessor\).runLoop \(started in goroutine goroutines.Nested\$1\) and written by goroutine goroutines.Nested\$2`
}

func newLessor() *lessor {
	l := &lessor{}
	go l.runLoop()
	return l
}

func setRevokeRate(r int) { revokeRate = r }

// Nested's first goroutine makes a lessor, whose loop runs on beside the
// second goroutine.
func Nested() {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		newLessor()
	}()
	go func() {
		defer wg.Done()
		setRevokeRate(10)
	}()
	wg.Wait()
}

// NestedAfter sets the rate before it starts the goroutines. Silent.
func NestedAfter() {
	setRevokeRate(10)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		newLessor()
	}()
	wg.Wait()
}
