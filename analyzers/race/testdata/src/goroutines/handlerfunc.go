package goroutines

// A function converted to a named func type and started as an interface
// method: the goroutine runs the literal.
type Handler interface{ Serve() }

type HandlerFunc func()

func (f HandlerFunc) Serve() { f() }

func ServeInBackground() bool {
	called := false
	var h Handler = HandlerFunc(func() {
		called = true // want `possible data race: captured variable called in goroutines.ServeInBackground is written by goroutine \(goroutines.HandlerFunc\).Serve and read by goroutines.ServeInBackground`
	})
	go h.Serve()
	return called
}
