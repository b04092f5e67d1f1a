// Package ping has a test that runs in a testing/synctest bubble, which
// confirm does not support under control: it must say so, not crash
// obscurely.
package ping

// Ping sends on ch from a new goroutine and returns what comes back.
func Ping(ch chan int) int {
	go func() { ch <- 1 }()
	return <-ch
}
