package joined

// A connection's context is handed to a hijack handler's goroutine when
// a handler is set (fasthttp's serveConn): the loop breaks right after
// the go statement, and the context is reset after the loop only when
// no handler took it. The reset never follows the go statement. Silent.

type RequestCtx struct {
	buf []byte
	n   int
}

func (c *RequestCtx) reset() {
	c.buf = c.buf[:0]
	c.n = 0
}

func hijacked(c *RequestCtx, h func(*RequestCtx)) {
	h(c)
	c.buf = append(c.buf, 1)
	c.n++
}

func ServeConn(reqs []int, hijack func(*RequestCtx)) {
	ctx := &RequestCtx{}
	var h func(*RequestCtx)
	for _, r := range reqs {
		ctx.n = r
		h = hijack
		if h != nil {
			go hijacked(ctx, h)
			break
		}
	}
	if h == nil {
		ctx.reset()
	}
}

// ServeConnLeaky resets the context whether a handler took it or not.
type LeakyCtx struct {
	buf []byte
	n   int
}

func (c *LeakyCtx) reset() {
	c.buf = c.buf[:0]
	c.n = 0
}

func hijackedLeaky(c *LeakyCtx, h func(*LeakyCtx)) {
	h(c)
	c.buf = append(c.buf, 1) // want `possible data race: \(joined.LeakyCtx\).buf is written by goroutine joined.hijackedLeaky and written by joined.ServeConnLeaky` `\(joined.LeakyCtx\).buf is read by goroutine joined.hijackedLeaky`
	c.n++                    // want `possible data race: \(joined.LeakyCtx\).n is written by goroutine joined.hijackedLeaky and written by joined.ServeConnLeaky`
}

func ServeConnLeaky(reqs []int, hijack func(*LeakyCtx)) {
	ctx := &LeakyCtx{}
	var h func(*LeakyCtx)
	for _, r := range reqs {
		ctx.n = r
		h = hijack
		if h != nil {
			go hijackedLeaky(ctx, h)
			break
		}
	}
	ctx.reset()
}
