package race

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A goroutine that returns as soon as it receives from a channel without
// buffer is done with everything it did once a send on that channel
// completes: the send waits for the receive, and nothing follows the
// receive but the return.
//
//	stop := make(chan struct{})
//	go func() {
//		for {
//			select {
//			case <-stop:
//				return
//			default:
//				c.Get(1)
//			}
//		}
//	}()
//	stop <- struct{}{}
//	c.Metrics = nil // after the goroutine's last Get
//
// stopChannels finds such channels: made in the spawner without buffer,
// bound only into the goroutine's closure (so that no other goroutine
// takes the send), and received from in the closure only where it
// returns at once. The go statement must not be in a loop: one send
// stops one goroutine.
func (sp *spawner) stopChannels(g *ssa.Go) []ssa.Value {
	mc, ok := g.Call.Value.(*ssa.MakeClosure)
	if !ok || sp.inLoop(g) {
		return nil
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || hasDefers(fn) {
		return nil
	}
	var stops []ssa.Value
	for i, b := range mc.Bindings {
		if i < len(fn.FreeVars) && unbufferedChan(b) && onlyBoundInto(b, mc) && stopsOn(fn.FreeVars[i]) {
			stops = append(stops, b)
		}
	}
	return stops
}

// unbufferedChan reports whether v is a channel made with no buffer, or a
// variable (captured by a closure) set once to one.
func unbufferedChan(v ssa.Value) bool {
	if a, ok := v.(*ssa.Alloc); ok {
		var made ssa.Value
		for _, r := range *a.Referrers() {
			if st, ok := r.(*ssa.Store); ok {
				if made != nil || st.Addr != a {
					return false
				}
				made = st.Val
			}
		}
		v = made
	}
	ch, ok := v.(*ssa.MakeChan)
	if !ok {
		return false
	}
	return isIntConst(ch.Size, 0)
}

// chanUses returns the instructions that use the channel v holds: v's
// own referrers, or, for a variable, those of its loads.
func chanUses(v ssa.Value) []ssa.Instruction {
	if _, ok := v.Type().Underlying().(*types.Pointer); !ok {
		return *v.Referrers()
	}
	var out []ssa.Instruction
	for _, r := range *v.Referrers() {
		if load, ok := r.(*ssa.UnOp); ok && load.Op == token.MUL {
			out = append(out, *load.Referrers()...)
		}
	}
	return out
}

// onlyBoundInto reports whether the channel v holds is used only by mc,
// the closure the goroutine runs, and by sends.
func onlyBoundInto(v ssa.Value, mc *ssa.MakeClosure) bool {
	bound := 0
	for _, r := range *v.Referrers() {
		switch r := r.(type) {
		case *ssa.MakeClosure:
			if r != mc {
				return false
			}
			bound++
		case *ssa.Store, *ssa.UnOp, *ssa.Send, *ssa.DebugRef:
			// the variable's one store and its loads (checked below)
		default:
			return false
		}
	}
	for _, r := range chanUses(v) {
		switch r.(type) {
		case *ssa.Send, *ssa.DebugRef, *ssa.MakeClosure:
		default:
			return false
		}
	}
	return bound == 1
}

// stopsOn reports whether the closure receives from the channel ch holds,
// returns at once wherever it does, and uses it for nothing else.
func stopsOn(ch *ssa.FreeVar) bool {
	recvs := 0
	for _, r := range chanUses(ch) {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.ARROW || !returnsAfter(r) {
				return false
			}
			recvs++
		case *ssa.Select:
			for i, st := range r.States {
				if !sameChan(st.Chan, ch) {
					continue
				}
				if st.Dir != types.RecvOnly || !caseReturns(r, i) {
					return false
				}
				recvs++
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return recvs > 0
}

// sameChan reports whether x is the channel v holds: v, or a load of it.
func sameChan(x, v ssa.Value) bool {
	if x == v {
		return true
	}
	load, ok := x.(*ssa.UnOp)
	return ok && load.Op == token.MUL && load.X == v
}

// returnsAfter reports whether instr is followed in its block only by a
// return, or a jump to a block holding only a return.
func returnsAfter(instr ssa.Instruction) bool {
	b := instr.Block()
	after := false
	for _, x := range b.Instrs {
		if x == instr {
			after = true
			continue
		}
		if after && !onlyReturn(x) {
			return false
		}
	}
	return endsInReturn(b, 0)
}

// caseReturns reports whether case i of select sel returns at once: the
// block entered when the select chose i holds only a return.
func caseReturns(sel *ssa.Select, i int) bool {
	var ok bool
	for _, r := range *sel.Referrers() {
		ext, isExt := r.(*ssa.Extract)
		if !isExt || ext.Index != 0 {
			continue
		}
		for _, u := range *ext.Referrers() {
			cmp, isCmp := u.(*ssa.BinOp)
			k, isConst := cmp.Y.(*ssa.Const)
			if !isCmp || cmp.Op != token.EQL || !isConst || k.Value == nil || k.Value.Kind() != constant.Int {
				continue
			}
			if n, exact := constant.Int64Val(k.Value); !exact || int(n) != i {
				continue
			}
			for _, w := range *cmp.Referrers() {
				if ifi, isIf := w.(*ssa.If); isIf {
					then := ifi.Block().Succs[0]
					ok = len(then.Preds) == 1 && blockReturns(then, 0)
				}
			}
		}
	}
	return ok
}

// blockReturns reports whether b holds only a return (or a jump to such a
// block).
func blockReturns(b *ssa.BasicBlock, depth int) bool {
	for _, x := range b.Instrs {
		if !onlyReturn(x) {
			return false
		}
	}
	return endsInReturn(b, depth)
}

func endsInReturn(b *ssa.BasicBlock, depth int) bool {
	switch b.Instrs[len(b.Instrs)-1].(type) {
	case *ssa.Return:
		return true
	case *ssa.Jump:
		return depth < 4 && len(b.Succs) == 1 && blockReturns(b.Succs[0], depth+1)
	}
	return false
}

// onlyReturn reports whether x does nothing but end the function.
func onlyReturn(x ssa.Instruction) bool {
	switch x.(type) {
	case *ssa.Return, *ssa.Jump, *ssa.DebugRef, *ssa.RunDefers:
		return true
	}
	return false
}

func hasDefers(fn *ssa.Function) bool {
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			if _, ok := x.(*ssa.Defer); ok {
				return true
			}
		}
	}
	return false
}

// stopSends returns the sends of the spawner on the stop channels of
// goroutine g (see stopChannels).
func (sp *spawner) stopSends(g *goroutine) []ssa.Instruction {
	gs, ok := g.stmt.(*ssa.Go)
	if !ok {
		return nil
	}
	var out []ssa.Instruction
	for _, ch := range sp.stopChannels(gs) {
		for _, r := range chanUses(ch) {
			if s, ok := r.(*ssa.Send); ok && s.Parent() == sp.fi.fn {
				out = append(out, s)
			}
		}
	}
	return out
}
