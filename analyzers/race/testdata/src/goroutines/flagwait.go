package goroutines

// A loop that polls two goroutines' done channels leaves only once both
// flags, set from what it received, are true: the reads after it are
// ordered after each goroutine's write.
func BothReady(work func() error) (error, error) {
	var err0, err1 error
	ready0 := make(chan bool)
	ready1 := make(chan bool)
	go func() {
		err0 = work()
		ready0 <- true
	}()
	go func() {
		err1 = work()
		ready1 <- true
	}()
	r0, r1 := false, false
	for !r0 || !r1 {
		select {
		case r0 = <-ready0:
		case r1 = <-ready1:
		default:
		}
	}
	return err0, err1
}

// The flag set in the receive case's body: true only once received.
func DoneInCase(work func() error) error {
	var err error
	ready := make(chan bool)
	go func() {
		err = work()
		ready <- true
	}()
	done := false
	for !done {
		select {
		case <-ready:
			done = true
		default:
		}
	}
	return err
}

// The flag set when nothing was received: the loop may leave before the
// goroutine's write.
func DoneInDefault(work func() error) error {
	var err error
	ready := make(chan bool, 1)
	go func() {
		err = work() // want `possible data race: captured variable err in goroutines.DoneInDefault is written by goroutine goroutines.DoneInDefault\$1 and read by goroutines.DoneInDefault`
		ready <- true
	}()
	done := false
	for !done {
		select {
		case <-ready:
		default:
			done = true
		}
	}
	return err
}
