package rt

import "sync"

// WaitGroup replaces sync.WaitGroup. Under control, Wait is enabled only
// while the counter is zero; Add and Done are scheduling points.
type WaitGroup struct {
	real sync.WaitGroup
}

// Add adds delta to the counter; a negative counter panics.
func (wg *WaitGroup) Add(delta int) { wg.add(callerPC(), delta) }

// Done decrements the counter by one.
func (wg *WaitGroup) Done() { wg.add(callerPC(), -1) }

func (wg *WaitGroup) add(pc uintptr, delta int) {
	e, g, md := enter()
	switch md {
	case modeReal:
		if wg.modelledBefore() {
			return // its counter was the execution's (see endedWGs)
		}
		wg.real.Add(delta)
		return
	case modeDying:
		return
	}
	m := wg.modelLocked(e)
	g.op = op{kind: opWGAdd, pc: pc, wg: m, delta: delta, hdr: &m.h}
	e.point(g)
	g.op.finishSync()
}

// Wait blocks until the counter is zero.
func (wg *WaitGroup) Wait() {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		if !wg.modelledBefore() {
			wg.real.Wait()
		}
		return
	case modeDying:
		return
	}
	m := wg.modelLocked(e)
	g.op = op{kind: opWGWait, pc: pc, wg: m, hdr: &m.h}
	e.point(g)
}

// Go calls f in a new goroutine and adds that task to the WaitGroup.
func (wg *WaitGroup) Go(f func()) {
	pc := callerPC()
	wg.add(pc, 1)
	goAt(pc, func() {
		defer wg.add(pc, -1)
		f()
	})
}

// execWGAddLocked executes Add.
func (e *exec) execWGAddLocked(g *G) {
	o := &g.op
	wg := o.wg
	wg.count += o.delta
	if wg.count < 0 {
		wg.count = 0
		o.panicMsg = "sync: negative WaitGroup counter"
		return
	}
	if o.delta < 0 {
		g.release(&wg.h)
	}
}
