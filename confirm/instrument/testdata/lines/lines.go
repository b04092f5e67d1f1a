// Package lines panics at known lines after rewritten code.
package lines

import "sync"

var mu sync.Mutex

// Boom receives, locks, then panics on a nil map.
func Boom(ch chan int) {
	<-ch
	mu.Lock()
	defer mu.Unlock()
	var m map[string]int
	m["x"] = 1 // LINE:boom
}

func index(i int) chan int {
	return []chan int{nil}[i] // LINE:operand
}

// SelectBoom panics while evaluating a select operand on a later line.
func SelectBoom(i int) int {
	select {
	case v := <-make(chan int):
		return v
	case v := <-index(i):
		return v
	default:
		return 0
	}
}

// GoBoom panics in a goroutine. The caller waits for a close that the
// panic skips, so the panic ends the run: with a deferred close, the
// caller could return and the test pass before the crash.
func GoBoom(done chan bool) {
	go func() {
		var p *struct{ x int }
		p.x = 1 // LINE:goroutine
		close(done)
	}()
	<-done
}
