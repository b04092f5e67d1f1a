// Package block blocks forever on a channel nobody sends on. It lives in
// another module than the package under test, so confirm does not control
// it.
package block

// Forever never returns.
func Forever() {
	<-make(chan int)
}
