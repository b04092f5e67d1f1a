package rt

// Lowering helpers: small pure generic functions the instrumenter's rewrites
// need. They hold no scheduler state and never block: every operation that
// is a scheduling point is called directly from the user's code, so the
// runtime sees the user's caller.

// MakeChanOf replaces make(C, size) for a channel type C that is not a
// channel type literal (a defined type such as `type Jobs chan Job`).
func MakeChanOf[C ~chan E, E any](size int) C { return C(MakeChan[E](size)) }

// Zero returns the zero value of the element type of ch. A send whose value
// has another type than the element type is lowered to
// `{ c := ch; v := Zero(c); v = value; Send(c, v) }`, so the value is
// converted as the send would convert it.
func Zero[T any](ch chan<- T) T {
	var z T
	return z
}

// Conv returns the identity function of the element type of ch:
// Send(ch, Conv(ch)(v)) converts v as `ch <- v` would. It is used where a
// block cannot replace the send (in the post statement of a for loop).
func Conv[T any](ch chan<- T) func(T) T { return func(v T) T { return v } }

// SendSlot returns a function building the select case that sends v on ch:
// SendSlot(ch)(v) is SendCase(ch, v) with v converted to the element type.
// The channel is evaluated when SendSlot is called, the value when the
// returned function is, so source order is kept.
func SendSlot[T any](ch chan<- T) func(T) Case {
	return func(v T) Case { return SendCase(ch, v) }
}

// A RecvSlot holds a receive case of a select: its channel, evaluated once,
// and the value and ok flag received when the case is chosen.
type RecvSlot[T any] struct {
	ch <-chan T
	V  T
	Ok bool
}

// NewRecvSlot returns the slot of a receive case on ch.
func NewRecvSlot[T any](ch <-chan T) *RecvSlot[T] { return &RecvSlot[T]{ch: ch} }

// Case returns the select case receiving into s.V and s.Ok.
func (s *RecvSlot[T]) Case() Case { return RecvCase(s.ch, &s.V, &s.Ok) }
