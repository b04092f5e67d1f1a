package rt

import (
	"os"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"
)

// chanKey identifies a channel (its runtime pointer) or an address.
type chanKey = unsafe.Pointer

// chanState is the model of a channel made by MakeChan in the current
// execution. Buffered channels keep their values in the real channel's
// buffer (accessed without blocking); unbuffered ones are rendezvous
// between parked goroutines.
type chanState struct {
	hdr    objHdr
	cap    int
	closed bool
	global *globalChan // made outside any execution (package state)
}

// globalChan records a channel MakeChan made outside an execution (package
// initialisation, between executions) while a search is configured: such
// channels are internal to every execution that uses them, and whether
// they are closed persists across executions like the package state.
type globalChan struct {
	cap    int
	closed atomic.Bool
}

var (
	globalChans   sync.Map // chanKey -> *globalChan
	searchEnabled = sync.OnceValue(func() bool { return os.Getenv(EnvConfig) != "" })
)

// chanOps are the typed operations on a real channel the scheduler needs;
// typedChan implements them for each element type.
type chanOps interface {
	trySend(v unsafe.Pointer) int
	tryRecv(dst unsafe.Pointer) (got, ok bool)
	length() int
	closeReal()
	copyVal(dst, src unsafe.Pointer)
	zero(dst unsafe.Pointer)
	selectCase(c *Case) reflect.SelectCase
	storeRecv(c *Case, v reflect.Value, ok bool)
}

const (
	sendNotReady = iota
	sendDone
	sendClosed
)

// typedChan is a chan T as chanOps. It is pointer-shaped, so converting it
// to the interface does not allocate.
type typedChan[T any] struct{ ch chan T }

func (c typedChan[T]) trySend(v unsafe.Pointer) (res int) {
	defer func() {
		if recover() != nil {
			res = sendClosed
		}
	}()
	select {
	case c.ch <- *(*T)(v):
		return sendDone
	default:
		return sendNotReady
	}
}

func (c typedChan[T]) tryRecv(dst unsafe.Pointer) (got, ok bool) {
	select {
	case x, ok := <-c.ch:
		if dst != nil {
			*(*T)(dst) = x
		}
		return true, ok
	default:
		return false, false
	}
}

func (c typedChan[T]) length() int { return len(c.ch) }

func (c typedChan[T]) closeReal() { close(c.ch) }

func (c typedChan[T]) copyVal(dst, src unsafe.Pointer) {
	if dst != nil {
		*(*T)(dst) = *(*T)(src)
	}
}

func (c typedChan[T]) zero(dst unsafe.Pointer) {
	if dst != nil {
		var z T
		*(*T)(dst) = z
	}
}

func (c typedChan[T]) selectCase(k *Case) reflect.SelectCase {
	if k.send {
		return reflect.SelectCase{Dir: reflect.SelectSend, Chan: reflect.ValueOf(c.ch), Send: reflect.ValueOf(*(*T)(k.val))}
	}
	return reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c.ch)}
}

func (c typedChan[T]) storeRecv(k *Case, v reflect.Value, ok bool) {
	if k.val != nil {
		reflect.NewAt(reflect.TypeFor[T](), k.val).Elem().Set(v)
	}
	if k.ok != nil {
		*k.ok = ok
	}
}

// chanPtr returns the runtime pointer of a channel.
func chanPtr[T any](ch chan T) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&ch)) }

// bidirS and bidirR drop a channel's direction (same representation).
func bidirS[T any](ch chan<- T) chan T { return *(*chan T)(unsafe.Pointer(&ch)) }
func bidirR[T any](ch <-chan T) chan T { return *(*chan T)(unsafe.Pointer(&ch)) }

// A Case is one case of a Select, built by SendCase or RecvCase.
type Case struct {
	ch   unsafe.Pointer
	ops  chanOps
	cs   *chanState // nil: nil or external channel
	send bool
	val  unsafe.Pointer // send: the value; recv: the destination (may be nil)
	ok   *bool
}

// SendCase is the case `ch <- v` of a select; v was evaluated before.
func SendCase[T any](ch chan<- T, v T) Case {
	c := bidirS(ch)
	return Case{ch: chanPtr(c), ops: typedChan[T]{c}, send: true, val: unsafe.Pointer(&v)}
}

// RecvCase is the case `*v, *ok = <-ch` of a select; v and ok may be nil.
func RecvCase[T any](ch <-chan T, v *T, ok *bool) Case {
	c := bidirR(ch)
	return Case{ch: chanPtr(c), ops: typedChan[T]{c}, val: unsafe.Pointer(v), ok: ok}
}

// MakeChan replaces make(chan T, size): the channel is internal to the
// execution that makes it.
func MakeChan[T any](size int) chan T {
	ch := make(chan T, size)
	if e := active.Load(); e != nil {
		e.mu.Lock()
		if !e.ended && e.callerLocked() != nil {
			cs := &chanState{cap: size}
			e.touchLocked(&cs.hdr, kindChan)
			e.chans[chanPtr(ch)] = cs
		}
		e.mu.Unlock()
	} else if searchEnabled() {
		globalChans.Store(chanPtr(ch), &globalChan{cap: size})
	}
	return ch
}

// Send replaces `ch <- v`.
func Send[T any](ch chan<- T, v T) {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		ch <- v
		return
	case modeDying:
		return
	}
	c := bidirS(ch)
	g.op = op{kind: opSend, pc: pc, c0: Case{ch: chanPtr(c), ops: typedChan[T]{c}, send: true, val: unsafe.Pointer(&v)}}
	e.prepChanLocked(&g.op)
	e.point(g)
	g.op.finishChan()
}

// Recv replaces `<-ch` in an expression.
func Recv[T any](ch <-chan T) T {
	pc := callerPC()
	v, _ := recv2(pc, ch)
	return v
}

// Recv2 replaces `v, ok := <-ch` (and drives `for range ch`).
func Recv2[T any](ch <-chan T) (T, bool) {
	return recv2(callerPC(), ch)
}

func recv2[T any](pc uintptr, ch <-chan T) (T, bool) {
	e, g, md := enter()
	switch md {
	case modeReal:
		v, ok := <-ch
		return v, ok
	case modeDying:
		var z T
		return z, false
	}
	var v T
	var ok bool
	c := bidirR(ch)
	g.op = op{kind: opRecv, pc: pc, c0: Case{ch: chanPtr(c), ops: typedChan[T]{c}, val: unsafe.Pointer(&v), ok: &ok}}
	e.prepChanLocked(&g.op)
	e.point(g)
	g.op.finishChan()
	return v, ok
}

// Close replaces close(ch).
func Close[T any](ch chan<- T) {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		close(ch)
		return
	case modeDying:
		return
	}
	c := bidirS(ch)
	g.op = op{kind: opClose, pc: pc, c0: Case{ch: chanPtr(c), ops: typedChan[T]{c}}}
	e.prepChanLocked(&g.op)
	e.point(g)
	if g.op.extClose {
		close(ch)
	}
	g.op.finishChan()
}

// chanError is the panic of a channel operation, like the runtime's.
type chanError string

func (e chanError) Error() string { return string(e) }

// RuntimeError marks chanError as a runtime error, like the runtime's own.
func (e chanError) RuntimeError() {}

// finishChan raises the panic of an executed operation, if any.
func (o *op) finishChan() {
	if o.panicMsg != "" {
		panic(chanError(o.panicMsg))
	}
}

// prepChanLocked resolves the channels of a pending operation.
func (e *exec) prepChanLocked(o *op) {
	n := o.ncases()
	if o.kind == opClose {
		n = 1
	}
	for i := 0; i < n; i++ {
		c := o.caseAt(i)
		if c.ch == nil {
			continue
		}
		c.cs = e.chans[c.ch]
		if c.cs == nil {
			c.cs = e.globalChanLocked(c.ch)
		}
		if c.cs == nil {
			o.ext = true
		}
	}
	if o.kind != opSelect && o.c0.ch != nil {
		o.hdr = e.chanHdrLocked(&o.c0)
	}
}

// globalChanLocked returns the state of a channel made outside any
// execution, nil if it is external.
func (e *exec) globalChanLocked(ch chanKey) *chanState {
	v, ok := globalChans.Load(ch)
	if !ok {
		return nil
	}
	gc := v.(*globalChan)
	cs := &chanState{cap: gc.cap, closed: gc.closed.Load(), global: gc}
	e.touchLocked(&cs.hdr, kindChan)
	e.chans[ch] = cs
	return cs
}

// chanHdrLocked returns the object of a case's channel.
func (e *exec) chanHdrLocked(c *Case) *objHdr {
	if c.cs != nil {
		return &c.cs.hdr
	}
	h := e.addrs[c.ch]
	if h == nil {
		h = &objHdr{}
		e.touchLocked(h, kindChan)
		e.addrs[c.ch] = h
	}
	return h
}

// caseReadyLocked reports whether a case on an internal channel can
// proceed for g now.
func (e *exec) caseReadyLocked(g *G, c *Case) bool {
	cs := c.cs
	if cs == nil {
		return false
	}
	if cs.closed {
		return true
	}
	if cs.cap > 0 {
		if c.send {
			return c.ops.length() < cs.cap
		}
		return c.ops.length() > 0
	}
	p, _ := e.partnerLocked(g, c)
	return p != nil
}

// partnerLocked finds the goroutine parked longest at the opposite
// operation on c's unbuffered channel (FIFO like the real channel).
func (e *exec) partnerLocked(g *G, c *Case) (*G, int) {
	var best *G
	bi := -1
	for _, l := range e.live {
		h := l.g
		if h == g || h.state != gParked || h.op.done || h.op.hasDefault {
			continue
		}
		o := &h.op
		for i, n := 0, o.ncases(); i < n; i++ {
			k := o.caseAt(i)
			if k.ch == c.ch && k.send != c.send && (best == nil || h.parkSeq < best.parkSeq) {
				best, bi = h, i
				break
			}
		}
	}
	return best, bi
}

// pollLocked tries the external cases of a blocked goroutine without
// blocking; a success completes its operation.
func (e *exec) pollLocked(g *G) bool {
	o := &g.op
	for i, n := 0, o.ncases(); i < n; i++ {
		if c := o.caseAt(i); c.cs == nil && c.ch != nil && e.tryExtLocked(g, i) {
			return true
		}
	}
	return false
}

// tryExtLocked tries case i (on an external channel) of g's operation.
func (e *exec) tryExtLocked(g *G, i int) bool {
	o := &g.op
	c := o.caseAt(i)
	if c.send {
		switch c.ops.trySend(c.val) {
		case sendNotReady:
			return false
		case sendClosed:
			o.panicMsg = "send on closed channel"
		}
	} else {
		got, ok := c.ops.tryRecv(c.val)
		if !got {
			return false
		}
		if c.ok != nil {
			*c.ok = ok
		}
	}
	o.done, o.choice = true, i
	if o.kind == opSelect {
		o.hdr = e.chanHdrLocked(c)
	}
	if !c.send {
		e.acquireCtxLocked(g, c.ch)
	}
	return true
}

// execChanLocked executes a send, receive or select of g.
func (e *exec) execChanLocked(g *G) {
	o := &g.op
	if o.done {
		return // completed by a partner or a poll
	}
	ready := e.ready[:0]
	for i, n := 0, o.ncases(); i < n; i++ {
		if e.caseReadyLocked(g, o.caseAt(i)) {
			ready = append(ready, i)
		}
	}
	e.ready = ready
	switch {
	case len(ready) > 0:
		i := ready[0]
		if o.kind == opSelect && len(ready) > 1 {
			j := e.pickCaseLocked(g.id, ready)
			if j < 0 || j >= len(ready) {
				e.divergeLocked(j)
				return
			}
			i = ready[j]
		}
		o.choice = i
		e.performLocked(g, i)
	case o.hasDefault:
		o.choice = -1
		for i, n := 0, o.ncases(); i < n; i++ {
			if c := o.caseAt(i); c.cs == nil && c.ch != nil && e.tryExtLocked(g, i) {
				break
			}
		}
	}
}

// performLocked executes case i of g's operation on an internal channel.
func (e *exec) performLocked(g *G, i int) {
	o := &g.op
	c := o.caseAt(i)
	cs := c.cs
	if o.kind == opSelect {
		o.hdr = &cs.hdr
	}
	g.acquire(&cs.hdr)
	defer g.release(&cs.hdr)
	switch {
	case cs.closed && c.send:
		o.panicMsg = "send on closed channel"
	case cs.closed && cs.cap == 0:
		c.ops.zero(c.val)
		if c.ok != nil {
			*c.ok = false
		}
	case cs.cap > 0 && c.send:
		c.ops.trySend(c.val)
	case cs.cap > 0:
		_, ok := c.ops.tryRecv(c.val)
		if c.ok != nil {
			*c.ok = ok
		}
	default:
		p, j := e.partnerLocked(g, c)
		pc := p.op.caseAt(j)
		if c.send {
			pc.ops.copyVal(pc.val, c.val)
			if pc.ok != nil {
				*pc.ok = true
			}
		} else {
			c.ops.copyVal(c.val, pc.val)
			if c.ok != nil {
				*c.ok = true
			}
		}
		p.op.done, p.op.choice = true, j
		if p.op.kind == opSelect {
			p.op.hdr = &cs.hdr
		}
		p.vc.join(g.vc)
		g.vc.join(p.vc)
		// A rendezvous is symmetric: hash both sides alike, whichever
		// arrived first.
		a, b := g.hb, p.hb
		if a > b {
			a, b = b, a
		}
		h := mix(mix(a, b), cs.hdr.hb)
		g.hb, p.hb, cs.hdr.hb = h, h, h
		o.hbDone, p.op.hbDone = true, true
	}
}

// execCloseLocked executes close.
func (e *exec) execCloseLocked(g *G) {
	o := &g.op
	c := &o.c0
	switch {
	case c.ch == nil:
		o.panicMsg = "close of nil channel"
	case c.cs == nil:
		o.extClose = true
	case c.cs.closed:
		o.panicMsg = "close of closed channel"
	default:
		c.cs.closed = true
		if c.cs.global != nil {
			c.cs.global.closed.Store(true)
		}
		c.ops.closeReal()
		g.release(&c.cs.hdr)
	}
}
