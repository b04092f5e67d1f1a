package race

import (
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A runFlag is a boolean field of a spawner's receiver that says whether
// the goroutine it starts runs: set to true, holding a lock, before the
// go statement (if s.running { return }; s.running = true; go s.loop()).
type runFlag struct {
	typ   types.Type // the type holding the field (named, so that two struct types of the same layout differ)
	field int
}

// runningFlag returns the flag that go statement g of method fn (or the
// call that hands a goroutine its function) sets before it starts its
// goroutine, if any.
func (c *checker) runningFlag(fn *ssa.Function, g ssa.Instruction) (runFlag, bool) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			st, ok := instr.(*ssa.Store)
			if !ok || !isTrue(st.Val) || !dominatesInstr(st, g) || len(c.heldBefore(st)) == 0 {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok || len(fn.Params) == 0 || fa.X != fn.Params[0] {
				continue
			}
			f := runFlag{typ: derefType(fa.X.Type()), field: fa.Field}
			if c.clearedAfterHandshake(f) {
				return f, true
			}
		}
	}
	return runFlag{}, false
}

// whenNotRunning reports whether instr only runs after its function saw
// the flag false, holding a lock (if !s.running { s.items = ... } else {
// s.add <- item }): the goroutine the flag stands for is not running
// then, as its spawner set the flag under that lock before starting it.
func (c *checker) whenNotRunning(instr ssa.Instruction, f runFlag) bool {
	if instr == nil || instr.Block() == nil {
		return false
	}
	for b := instr.Block(); b.Idom() != nil; b = b.Idom() {
		d := b.Idom()
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		cond, negated := ifi.Cond, false
		if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
			cond, negated = u.X, true
		}
		load, ok := cond.(*ssa.UnOp)
		if !ok || load.Op != token.MUL || len(c.heldBefore(load)) == 0 {
			continue
		}
		if !c.isFlagField(load.X, f) {
			continue
		}
		// Succs[0] is taken when the condition holds: the flag is
		// false there when the condition is its negation.
		falseSucc := d.Succs[1]
		if negated {
			falseSucc = d.Succs[0]
		}
		if len(falseSucc.Preds) == 1 && falseSucc.Dominates(instr.Block()) {
			return true
		}
	}
	return false
}

// clearedAfterHandshake reports whether every store of false to flag f
// in the package comes after a handshake with the goroutine that makes
// sure it has stopped touching shared state: a send on a channel made
// without a buffer (the goroutine receives it and returns), or a wait (a
// receive, select, WaitGroup.Wait, or a call that waits). A store of
// false after a send into a buffer proves nothing; then there is no flag.
func (c *checker) clearedAfterHandshake(f runFlag) bool {
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !c.isFlagField(st.Addr, f) {
					continue
				}
				if isTrue(st.Val) {
					continue
				}
				if fa := st.Addr.(*ssa.FieldAddr); isFresh(fa.X) {
					continue // a composite literal: not shared yet
				}
				if !c.afterHandshake(fn, st) {
					return false
				}
			}
		}
	}
	return true
}

// afterHandshake reports whether a send on an unbuffered channel or a
// wait dominates instr in fn.
func (c *checker) afterHandshake(fn *ssa.Function, instr ssa.Instruction) bool {
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			if !dominatesInstr(x, instr) || x == instr {
				continue
			}
			if send, ok := x.(*ssa.Send); ok && c.unbuffered(send.Chan) {
				return true
			}
			if call, ok := x.(ssa.CallInstruction); isWait(x) || ok && c.callWaits(call) {
				return true
			}
		}
	}
	return false
}

// unbuffered reports whether ch, loaded from a field, is a field every
// channel made into which has no buffer.
func (c *checker) unbuffered(ch ssa.Value) bool {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return false
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return false
	}
	field := runFlag{typ: derefType(fa.X.Type()), field: fa.Field}
	made := false
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				st, ok := instr.(*ssa.Store)
				if !ok || !c.isFlagField(st.Addr, field) {
					continue
				}
				mk, ok := st.Val.(*ssa.MakeChan)
				if !ok {
					return false
				}
				if k, ok := mk.Size.(*ssa.Const); !ok || k.Int64() != 0 {
					return false
				}
				made = true
			}
		}
	}
	return made
}

// isFlagField reports whether addr is the field f of some value.
func (c *checker) isFlagField(addr ssa.Value, f runFlag) bool {
	fa, ok := addr.(*ssa.FieldAddr)
	return ok && fa.Field == f.field && types.Identical(derefType(fa.X.Type()), f.typ)
}

// isFresh reports whether v is memory its function allocates (x :=
// &T{...}).
func isFresh(v ssa.Value) bool {
	_, ok := v.(*ssa.Alloc)
	return ok
}

func isTrue(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value)
}
