package race

import (
	"go/token"

	"golang.org/x/tools/go/ssa"
)

// inHeldResource reports whether instr, an instruction of a goroutine's
// entry function fn, runs while the goroutine holds a resource handed out
// by a call that waits and given back by a call that signals: after
// res, err = pool.Acquire(ctx), which blocks until a resource is free,
// and not after res.Release(), which lets a waiting Acquire proceed. How
// many goroutines may hold one at a time (a pool or semaphore of one, or
// of many) is not in the code; precision before recall, such accesses by
// instances of one goroutine are not reported against each other.
func (c *checker) inHeldResource(fn *ssa.Function, instr ssa.Instruction) bool {
	if instr == nil || instr.Parent() != fn || instr.Block() == nil {
		return false
	}
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			acq, ok := x.(*ssa.Call)
			if !ok || !dominatesInstr(acq, instr) || !c.callWaits(acq) {
				continue
			}
			for _, rel := range c.givenBack(fn, acq) {
				if !dominatesInstr(rel, instr) {
					return true
				}
			}
		}
	}
	return false
}

// givenBack returns the calls of fn that signal on the result of call
// acq: a method call (or a call with a first argument) on acq's result,
// its first component, or a variable it was stored to.
func (c *checker) givenBack(fn *ssa.Function, acq *ssa.Call) []ssa.CallInstruction {
	from := map[ssa.Value]bool{acq: true}
	vars := map[ssa.Value]bool{}
	for _, ref := range *acq.Referrers() {
		if ex, ok := ref.(*ssa.Extract); ok && ex.Index == 0 {
			from[ex] = true
		}
	}
	for v := range from {
		for _, ref := range *v.Referrers() {
			if st, ok := ref.(*ssa.Store); ok && st.Val == v {
				vars[st.Addr] = true
			}
		}
	}
	var out []ssa.CallInstruction
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			call, ok := x.(ssa.CallInstruction)
			if !ok || call == ssa.CallInstruction(acq) {
				continue
			}
			recv := receiverOf(call.Common())
			if recv == nil {
				continue
			}
			if u, ok := recv.(*ssa.UnOp); ok && u.Op == token.MUL && vars[u.X] || from[recv] {
				if c.callSignals(call) {
					out = append(out, call)
				}
			}
		}
	}
	return out
}

// receiverOf returns the receiver of a method call, or the first argument
// of a call.
func receiverOf(common *ssa.CallCommon) ssa.Value {
	if common.IsInvoke() {
		return common.Value
	}
	if len(common.Args) > 0 {
		return common.Args[0]
	}
	return nil
}

// callSignals reports whether the call may let a waiting goroutine
// proceed, through its callees.
func (c *checker) callSignals(call ssa.CallInstruction) bool {
	if isSignal(call.Common()) {
		return true
	}
	for _, callee := range c.callees(call) {
		if c.isLocal(callee) {
			if c.summary(callee).signals {
				return true
			}
		} else if f := c.importFact(callee); f != nil && f.Signals {
			return true
		}
	}
	return false
}

// dominatesInstr reports whether a runs before b on every path to b in
// their function.
func dominatesInstr(a, b ssa.Instruction) bool {
	if a.Block() == b.Block() {
		for _, x := range a.Block().Instrs {
			if x == a {
				return true
			}
			if x == b {
				return false
			}
		}
		return false
	}
	return a.Block().Dominates(b.Block())
}
