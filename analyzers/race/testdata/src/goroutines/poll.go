package goroutines

// PollRead polls for the reader's end while it pumps: the error is read
// in the case that received the goroutine's last send. Silent.
func PollRead(read func() error, pump func()) error {
	var err error
	done := make(chan error)
	go func() {
		for {
			if err = read(); err != nil {
				done <- err
				return
			}
		}
	}()
	for {
		select {
		case err = <-done:
			return err
		default:
			pump()
		}
	}
}

// PollPeek looks at the error while the reader may still set it.
func PollPeek(read func() error, pump func(error)) error {
	var err error
	done := make(chan error)
	go func() {
		for {
			if err = read(); err != nil { // want `captured variable err in goroutines.PollPeek is written by goroutine goroutines.PollPeek\$1 and read by goroutines.PollPeek`
				done <- err
				return
			}
		}
	}()
	for {
		select {
		case e := <-done:
			return e
		default:
			pump(err)
		}
	}
}
