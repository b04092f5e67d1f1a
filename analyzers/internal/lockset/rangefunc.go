package lockset

import (
	"go/constant"
	"go/token"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// go/ssa builds the body of a range-over-func loop (for x := range seq)
// as a synthetic yield function that the enclosing function passes to
// the iterator, seq(body). A statement leaving the loop (break, return,
// goto) stores its number into the loop's jump variable and returns
// false; the end of the body and continue return true. After the call,
// the enclosing function switches on the jump variable to resume where
// the statement meant to go.
//
// The body is the enclosing function's own code, run in its goroutine
// while the iterator runs it: it starts with the locks held at the loop
// (see bodyEntry), and each of its ways out brings its locks to where
// the loop resumes (see runBody, and resume.along), whatever the
// iterator.

// yieldSynthetic is the Synthetic of go/ssa's range-over-func bodies.
const yieldSynthetic = "range-over-func yield"

// IsLoopBody reports whether fn is the body of a range-over-func loop:
// the enclosing function's code, whose returns go on with the loop or
// leave it, not back to a caller.
func IsLoopBody(fn *ssa.Function) bool {
	return fn != nil && fn.Synthetic == yieldSynthetic
}

// loopBody returns the closure of a range-over-func body that common
// passes to the iterator, and the body.
func loopBody(common *ssa.CallCommon) (*ssa.MakeClosure, *ssa.Function) {
	if common.IsInvoke() || len(common.Args) != 1 {
		return nil, nil
	}
	mc, ok := common.Args[0].(*ssa.MakeClosure)
	if !ok {
		return nil, nil
	}
	fn, ok := mc.Fn.(*ssa.Function)
	if !ok || !IsLoopBody(fn) {
		return nil, nil
	}
	return mc, fn
}

// bodyCall returns the call that passes body to its iterator, and the
// closure it passes (of the closures the Classifier indexed).
func (e *engine) bodyCall(body *ssa.Function) (*ssa.Call, *ssa.MakeClosure) {
	for _, mc := range e.cls.closures[body] {
		for _, r := range *mc.Referrers() {
			if call, ok := r.(*ssa.Call); ok {
				if m, fn := loopBody(&call.Call); fn == body && m == mc {
					return call, mc
				}
			}
		}
	}
	return nil, nil
}

// A bodyExit is one way out of a loop body: the locks it releases of
// those held when the body starts, and those it acquires and still
// holds there.
type bodyExit struct {
	// jump is the number the exit stores into the jump variable, 0
	// where the loop goes on (the end of the body, continue), -1 where
	// it is not known.
	jump     int64
	released []Item
	acquired []Item
}

// bodyExits returns the ways out of body, from its flow computed with
// the locks it releases without acquiring them held on entry.
func (e *engine) bodyExits(body *ssa.Function) []bodyExit {
	if x, ok := e.exits[body]; ok {
		return x
	}
	e.exits[body] = nil // a body reached again while computed: no effect
	assumed := e.released(body, nil)
	f := e.solve(body, assumed)
	var exits []bodyExit
	f.replay(e, &observer{ret: func(r Return) {
		x := bodyExit{jump: exitJump(r.Instr)}
		for _, l := range assumed.minus(r.Held) {
			x.released = append(x.released, l.Item)
		}
		for _, l := range r.Held.minus(assumed) {
			if !l.Inherited {
				x.acquired = append(x.acquired, l.Item)
			}
		}
		exits = append(exits, x)
	}})
	e.exits[body] = exits
	return exits
}

// exitJump returns the number a return of a loop body stores into the
// jump variable: 0 when it returns true, the constant stored just before
// it returns false, -1 when that is not known.
func exitJump(ret *ssa.Return) int64 {
	if len(ret.Results) != 1 {
		return -1
	}
	if k, ok := ret.Results[0].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Bool && constant.BoolVal(k.Value) {
		return 0
	}
	instrs := ret.Block().Instrs
	for i := len(instrs) - 2; i >= 0; i-- {
		st, ok := instrs[i].(*ssa.Store)
		if !ok {
			continue
		}
		fv, ok := st.Addr.(*ssa.FreeVar)
		if !ok || !strings.HasPrefix(fv.Name(), "jump$") {
			continue
		}
		if k, ok := st.Val.(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.Int {
			if n, exact := constant.Int64Val(k.Value); exact && n > 0 {
				return n
			}
		}
		return -1
	}
	return -1
}

// leave returns held, the enclosing function's locks where the body
// starts, after exit x.
func (e *engine) leave(held Set, x bodyExit, mc *ssa.MakeClosure, body *ssa.Function, pos token.Pos) Set {
	for _, it := range x.released {
		m := e.mapLock(it, nil, mc.Bindings)
		held, _ = held.remove(m.Class, m.Mode, m.Inst)
	}
	for _, it := range x.acquired {
		m := e.mapItem(it, nil, mc.Bindings, body, pos)
		// Acquired in the function's own code: where the body does.
		m.Chain, m.Pos, m.Position = nil, it.Pos, it.Position
		held = held.add(Lock{Item: m})
	}
	return held
}

// loopHeld returns the locks held on every run of the body when the
// loop starts with held: those its ways back into the loop keep.
func (e *engine) loopHeld(held Set, exits []bodyExit, mc *ssa.MakeClosure, body *ssa.Function, pos token.Pos) Set {
	for range 4 {
		next := held
		for _, x := range exits {
			if x.jump == 0 {
				next = next.meet(e.leave(held, x, mc, body, pos))
			}
		}
		if next.sameKeys(held) {
			return held
		}
		held = next
	}
	return held
}

// A resume is where a range-over-func loop's ways out lead: the locks
// held where the enclosing function resumes after the iterator returns,
// by the value of the jump variable.
type resume struct {
	jump  ssa.Value // the jump variable
	ready Set       // the loop ran to its end
	exits map[int64]Set
	done  bool // the loop is known not to have run to its end
}

// runBody applies to st the loop body the call passes to its iterator:
// run any number of times, then left by one of its exits. The locks held
// after the call are those of every way out; resume.along gives each
// its own where the enclosing function tests the jump variable.
func (e *engine) runBody(st *state, mc *ssa.MakeClosure, body *ssa.Function, pos token.Pos, obs *observer) {
	exits := e.bodyExits(body)
	ready := e.loopHeld(st.held, exits, mc, body, pos)
	if obs != nil && obs.bodies && obs.acquire != nil {
		s := e.summary(body)
		for _, it := range s.Acquires {
			m := e.mapItem(it, nil, mc.Bindings, body, pos)
			obs.acquire(Acquisition{Instr: mc, Pos: pos, Lock: Lock{Item: m}, Held: ready})
		}
	}
	r := &resume{jump: jumpVar(mc, body), ready: ready, exits: map[int64]Set{}}
	all := ready
	for _, x := range exits {
		if x.jump == 0 {
			continue
		}
		held := e.leave(ready, x, mc, body, pos)
		if obs != nil && obs.release != nil {
			for _, it := range x.released {
				m := e.mapItem(it, nil, mc.Bindings, body, pos)
				was, ok := ready.find(m.Class, m.Mode, m.Inst)
				obs.release(Release{Instr: mc, Pos: pos, Item: m, Matched: ok, Lock: was})
			}
		}
		all = all.meet(held)
		if x.jump < 0 {
			r.jump = nil // the exits cannot be told apart
			continue
		}
		if prev, ok := r.exits[x.jump]; ok {
			held = prev.meet(held)
		}
		r.exits[x.jump] = held
	}
	st.held = all
	st.resume = nil
	if r.jump != nil {
		st.resume = r
	}
}

// jumpVar returns the enclosing function's jump variable that the body's
// closure binds, or nil.
func jumpVar(mc *ssa.MakeClosure, body *ssa.Function) ssa.Value {
	for i, fv := range body.FreeVars {
		if strings.HasPrefix(fv.Name(), "jump$") && i < len(mc.Bindings) {
			return mc.Bindings[i]
		}
	}
	return nil
}

// along returns the state along the si'th successor edge of b when b
// tests the jump variable of r for one of its values: the locks of the
// ways out of the loop that store it on the true edge, those of the
// others on the false edge.
func (r *resume) along(b *ssa.BasicBlock, si int, st state) (state, bool) {
	ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	if !ok {
		return st, false
	}
	bin, ok := ifi.Cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL {
		return st, false
	}
	load, ok := bin.X.(*ssa.UnOp)
	if !ok || load.Op != token.MUL || load.X != r.jump {
		return st, false
	}
	k, ok := bin.Y.(*ssa.Const)
	if !ok || k.Value == nil || k.Value.Kind() != constant.Int {
		return st, false
	}
	n, _ := constant.Int64Val(k.Value)
	if n < 0 {
		return st, false // the iterator went on after the body panicked
	}
	if si == 0 {
		if n == 0 {
			st.held = r.ready
		} else if held, ok := r.exits[n]; ok {
			st.held = held
		}
		return st, true
	}
	rest := &resume{jump: r.jump, ready: r.ready, exits: map[int64]Set{}, done: r.done || n == 0}
	var held Set
	first := true
	add := func(s Set) {
		if first {
			held, first = s, false
		} else {
			held = held.meet(s)
		}
	}
	if !rest.done {
		add(r.ready)
	}
	for m, s := range r.exits {
		if m != n {
			rest.exits[m] = s
			add(s)
		}
	}
	if first {
		// Every value the jump variable may hold was tested.
		st.dead = true
	}
	st.held = held
	st.resume = rest
	return st, true
}

// bodyEntry returns the entry lockset of a loop body: the locks held
// where the enclosing function calls the iterator, which every run of
// the body keeps. They are the enclosing function's own, not Inherited:
// the body acquiring one again is a double lock.
func (e *engine) bodyEntry(body *ssa.Function) Set {
	call, mc := e.bodyCall(body)
	if call == nil {
		return nil
	}
	held := e.finalFlow(call.Parent()).heldBefore(e, call)
	held = e.loopHeld(held, e.bodyExits(body), mc, body, call.Pos())
	entry := e.toCallee(held, &ssa.CallCommon{Value: mc})
	for i := range entry {
		// The enclosing function's own locks: not its callers'.
		entry[i].Inherited = false
	}
	return entry
}
