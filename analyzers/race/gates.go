package race

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// gatedAfter reports whether a goroutine's access a, paired with the
// access b of a test function that left the goroutine running, runs only
// after a receive that no send can complete before b: the goroutine
// reads cl.ID only after pk := <-cl.outbound, and nothing sends on
// outbound before the test writes cl.ID (mochi's WriteLoop started by
// newTestClient). Only channels held in struct fields whose values never
// leave the receive, send or close that uses them count, and only a test
// function's own view: no goroutine but the ones it starts runs beside
// it.
//
// When b's object is what start, the call that left the goroutine
// running, returned (cl, r, w := newTestClient()), nothing before the
// call can have sent on its channel: only what follows it counts.
func (c *checker) gatedAfter(a, b *access, f *ssa.Function, start ssa.CallInstruction) bool {
	if f.Parent() != nil || !strings.HasPrefix(f.Name(), "Test") || !c.inTestFile(f) {
		return false
	}
	if a.instr == nil || a.instr.Block() == nil {
		return false
	}
	// The access itself, or the goroutine's call that reaches it (pk :=
	// <-cl.outbound, then cl.WritePacket(pk) reading cl.ID).
	ai := a.instr
	if funcName(ai.Parent()) != a.goroutine {
		if a.via == nil || a.via.Block() == nil || funcName(a.via.Parent()) != a.goroutine {
			return false
		}
		ai = a.via
	}
	bi := instrIn(b, f)
	if bi == nil {
		return false
	}
	var from ssa.Instruction
	if start != nil && start.Parent() == f && resultOf(b.root, start) {
		from = start
	}
	for _, k := range c.receivesBefore(ai) {
		if c.chanEscapes(k) || c.senders(k)[ai.Parent()] {
			continue
		}
		if !c.sendsBefore(f, from, bi, k) {
			return true
		}
	}
	return false
}

// receivesBefore lists the channel fields that instr's function
// receives from on every path to instr: a receive, or the receive case of
// a select that leads to it (see mustWaitIn).
func (c *checker) receivesBefore(instr ssa.Instruction) []string {
	fn := instr.Parent()
	in, ok := c.recvIns[fn]
	if !ok {
		in = mustWaitIn(fn, c.chanKey)
		c.recvIns[fn] = in
	}
	return slices.Compact(mustWaitsBefore(in, instr, c.chanKey))
}

// selectCase matches cond, a test of which case a select took: the
// select and the case index.
func selectCase(cond ssa.Value) (*ssa.Select, int, bool) {
	bin, ok := cond.(*ssa.BinOp)
	if !ok || bin.Op != token.EQL {
		return nil, 0, false
	}
	ext, ok := bin.X.(*ssa.Extract)
	i, isInt := intConst(bin.Y)
	if !ok || !isInt || ext.Index != 0 {
		return nil, 0, false
	}
	sel, ok := ext.Tuple.(*ssa.Select)
	return sel, int(i), ok
}

// chanKey names the channel field that v, a channel value, is loaded
// from; "" when it is not a field.
func (c *checker) chanKey(v ssa.Value) string {
	u, ok := v.(*ssa.UnOp)
	if !ok || u.Op != token.MUL {
		return ""
	}
	return c.fieldKey(u.X)
}

// fieldKey names the field of the package's types that addr points to;
// "" for other addresses.
func (c *checker) fieldKey(addr ssa.Value) string {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return ""
	}
	st := derefType(fa.X.Type())
	f := structField(st, fa.Field)
	if f == nil || f.Pkg() != c.pass.Pkg {
		return "" // a time.Ticker's C: sent on where the analysis cannot see
	}
	return c.fieldObject(st, f).key
}

// chanEscapes reports whether a value of channel field k is used other
// than to receive from, send on, close or measure it, or is stored into
// the field other than as a channel made for it alone: held elsewhere,
// it may be sent on anywhere.
func (c *checker) chanEscapes(k string) bool {
	if c.chanUses == nil {
		c.chanUses = map[string]bool{}
		for _, fn := range c.funcs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					if st, ok := instr.(*ssa.Store); ok {
						if key := c.fieldKey(st.Addr); key != "" && !madeFor(st) {
							c.chanUses[key] = true
						}
						continue
					}
					u, ok := instr.(*ssa.UnOp)
					if !ok || u.Op != token.MUL {
						continue
					}
					if _, isChan := u.Type().Underlying().(*types.Chan); !isChan {
						continue
					}
					key := c.chanKey(u)
					if key == "" {
						continue
					}
					for _, r := range *u.Referrers() {
						if !plainChanUse(r, u) {
							c.chanUses[key] = true
						}
					}
				}
			}
		}
	}
	return c.chanUses[k]
}

// madeFor reports whether st stores a channel made only to be stored
// there.
func madeFor(st *ssa.Store) bool {
	mc, ok := st.Val.(*ssa.MakeChan)
	if !ok {
		return false
	}
	for _, r := range *mc.Referrers() {
		if r != st {
			if _, dbg := r.(*ssa.DebugRef); !dbg {
				return false
			}
		}
	}
	return true
}

// plainChanUse reports whether r only receives from, sends on, closes or
// measures the channel ch.
func plainChanUse(r ssa.Instruction, ch ssa.Value) bool {
	switch r := r.(type) {
	case *ssa.UnOp:
		return r.Op == token.ARROW
	case *ssa.Send:
		return r.Chan == ch
	case *ssa.Select:
		for _, st := range r.States {
			if st.Send == ch {
				return false
			}
		}
		return true
	case *ssa.Call:
		return isBuiltin(&r.Call, "close") || isBuiltin(&r.Call, "len") || isBuiltin(&r.Call, "cap")
	case *ssa.DebugRef:
		return true
	}
	return false
}

// senders returns the functions that send on or close channel field k,
// themselves or through what they call or start; computed once per
// field, as a fixpoint over the package's calls and go statements.
func (c *checker) senders(k string) map[*ssa.Function]bool {
	if s, ok := c.chanSenders[k]; ok {
		return s
	}
	idx := c.callIndex()
	out := map[*ssa.Function]bool{}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if c.sendsOn(instr, k) {
					out[fn] = true
				}
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for _, fn := range c.funcs {
			if out[fn] {
				continue
			}
			reaches := slices.ContainsFunc(idx.calls[fn], func(f *ssa.Function) bool { return out[f] })
			for started := range idx.startedIn[fn] {
				reaches = reaches || out[started]
			}
			if reaches {
				out[fn] = true
				changed = true
			}
		}
	}
	if c.chanSenders == nil {
		c.chanSenders = map[string]map[*ssa.Function]bool{}
	}
	c.chanSenders[k] = out
	return out
}

// sendsOn reports whether instr sends on or closes channel field k.
func (c *checker) sendsOn(instr ssa.Instruction, k string) bool {
	switch x := instr.(type) {
	case *ssa.Send:
		return c.chanKey(x.Chan) == k
	case *ssa.Select:
		for _, st := range x.States {
			if st.Dir == types.SendOnly && c.chanKey(st.Chan) == k {
				return true
			}
		}
	case *ssa.Call:
		return isBuiltin(&x.Call, "close") && len(x.Call.Args) == 1 && c.chanKey(x.Call.Args[0]) == k
	}
	return false
}

// sendsBefore reports whether f may send on or close channel field k
// after from (nil: from its entry) and before it reaches bi, or at bi.
func (c *checker) sendsBefore(f *ssa.Function, from, bi ssa.Instruction, k string) bool {
	return c.mayRunBetween(f, from, bi, func(x ssa.Instruction) bool { return c.sendsVia(x, k) })
}

// sendsVia reports whether x sends on or closes channel field k: itself,
// or through a call or a goroutine it starts; a call the analysis cannot
// follow may.
func (c *checker) sendsVia(x ssa.Instruction, k string) bool {
	if c.sendsOn(x, k) {
		return true
	}
	call, ok := x.(ssa.CallInstruction)
	if !ok {
		return false
	}
	callees := c.callees(call)
	if call.Common().StaticCallee() == nil && len(callees) == 0 {
		return true // a call the analysis cannot follow
	}
	return slices.ContainsFunc(callees, func(f *ssa.Function) bool { return c.senders(k)[f] })
}

// resultOf reports whether v is a result of call: its value, or one of
// its results.
func resultOf(v ssa.Value, call ssa.CallInstruction) bool {
	if ext, ok := v.(*ssa.Extract); ok {
		v = ext.Tuple
	}
	cv := call.Value()
	return cv != nil && v == cv
}

// indexIn returns the position of instr in its block.
func indexIn(instr ssa.Instruction) int {
	return slices.Index(instr.Block().Instrs, instr)
}

// gatedUntilShared reports whether a, an access of the goroutine that go
// statement g of f starts, paired with f's own access b after g, runs
// only after the goroutine receives from a channel held in a field of
// the value g hands it, while b runs before anything can send there:
// nothing but f and the goroutine can reach that value yet, and f sends
// on no such channel before b (a server starts a connection's write
// loop, then names the connection; the loop reads the connection only
// for the packets queued once the connection is published). The channel
// must be made for its field alone and never leave it (see chanEscapes),
// and the goroutine must not send on it. A value passed to code the
// analysis cannot follow counts as shared from there on (mochi's
// attachClient hands the client to the hooks' OnPacketRead first).
func (c *checker) gatedUntilShared(a, b *access, f *ssa.Function, g *ssa.Go) bool {
	start, handed := goroutineValues(g)
	if start == nil {
		return false
	}
	ai, bi := instrIn(a, start), instrIn(b, f)
	if ai == nil || bi == nil {
		return false
	}
	for inner, v := range handed {
		if v != b.root {
			continue
		}
		key := func(ch ssa.Value) string {
			if u, ok := ch.(*ssa.UnOp); ok && u.Op == token.MUL && fieldBase(u.X) == inner {
				return c.chanKey(ch)
			}
			return ""
		}
		in, ok := c.gateIns[inner]
		if !ok {
			in = mustWaitIn(start, key)
			if c.gateIns == nil {
				c.gateIns = map[ssa.Value][]map[string]int{}
			}
			c.gateIns[inner] = in
		}
		for _, k := range slices.Compact(mustWaitsBefore(in, ai, key)) {
			if c.chanEscapes(k) || c.senders(k)[start] {
				continue
			}
			if c.unsharedAt(f, v, g, bi, k) {
				return true
			}
		}
	}
	return false
}

// instrIn returns the instruction of fn that makes access a: the access
// itself, or the call of fn that reaches it; nil when neither is in fn.
func instrIn(a *access, fn *ssa.Function) ssa.Instruction {
	for _, x := range []ssa.Instruction{a.instr, a.via} {
		if x != nil && x.Block() != nil && x.Parent() == fn {
			return x
		}
	}
	return nil
}

// goroutineValues returns the function go statement g starts and, for
// each of its parameters or free variables, the value g binds to it;
// nil when g starts a function value.
func goroutineValues(g *ssa.Go) (*ssa.Function, map[ssa.Value]ssa.Value) {
	if mc, ok := g.Call.Value.(*ssa.MakeClosure); ok {
		fn := mc.Fn.(*ssa.Function)
		out := map[ssa.Value]ssa.Value{}
		for i, v := range mc.Bindings {
			if i < len(fn.FreeVars) {
				out[fn.FreeVars[i]] = v
			}
		}
		return fn, out
	}
	fn := g.Call.StaticCallee()
	if fn == nil || len(fn.Blocks) == 0 {
		return nil, nil
	}
	out := map[ssa.Value]ssa.Value{}
	for i, p := range fn.Params {
		if arg := argument(&g.Call, i); arg != nil {
			out[p] = arg
		}
	}
	return fn, out
}

// fieldBase returns the value the field address addr is taken from,
// through nested fields (&cl.State.outbound: cl); nil for other
// addresses.
func fieldBase(addr ssa.Value) ssa.Value {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	for ok {
		addr = fa.X
		fa, ok = addr.(*ssa.FieldAddr)
	}
	return addr
}

// unsharedAt reports whether, at bi, nothing but f and the goroutine g
// starts can reach v, the value g hands that goroutine, nor have sent on
// its channel field k: v is memory f allocated (or a call made new for
// it, or every caller of f made and handed it, see freshParam), that f
// has let out on no path to bi but to goroutines it starts, nor passed to
// a call that may keep it; and no code on the way sends on or closes k
// (f before bi, its callers before the call).
func (c *checker) unsharedAt(f *ssa.Function, v ssa.Value, g *ssa.Go, bi ssa.Instruction, k string) bool {
	switch v := v.(type) {
	case *ssa.Parameter:
		if !c.freshParam(v) {
			return false
		}
		for _, call := range c.locks.CallSites(f) {
			if c.mayRunBetween(call.Parent(), nil, call, func(x ssa.Instruction) bool { return x != call && c.sendsVia(x, k) }) {
				return false
			}
		}
	case *ssa.Alloc:
		if v.Parent() != f {
			return false
		}
	default:
		if made := c.freshBase(v); made == nil || made.Parent() != f || !isResult(v) {
			return false
		}
	}
	if !c.escapesOf(f).beforeOthers(v, bi) || c.sendsBefore(f, nil, bi, k) {
		return false
	}
	return !c.mayRunBetween(f, g, bi, func(x ssa.Instruction) bool {
		call, ok := x.(ssa.CallInstruction)
		if _, deferred := x.(*ssa.Defer); deferred || !ok || x == g || x == bi {
			return false // (a deferred call runs at the return)
		}
		return c.mayKeep(call, v, 0)
	})
}

// mayRunBetween reports whether an instruction of f for which pred is
// true may run after from (nil: from f's entry) and before, or at, to.
func (c *checker) mayRunBetween(f *ssa.Function, from, to ssa.Instruction, pred func(ssa.Instruction) bool) bool {
	never := func(ssa.Instruction) bool { return false }
	for _, b := range f.Blocks {
		for i, x := range b.Instrs {
			if x != to && !reachesAvoiding(x, i, to, never) {
				continue
			}
			if from != nil && x != from && !reachesAvoiding(from, indexIn(from), x, never) {
				continue
			}
			if pred(x) {
				return true
			}
		}
	}
	return false
}

// maxKeepDepth bounds the calls mayKeep follows.
const maxKeepDepth = 3

// mayKeep reports whether call, passed v or the address of a field of
// it, may keep it where others can reach it: a callee stores it, sends
// it, captures it or starts a goroutine with it (see escapePoints), or
// passes it on to a call that may; calls the analysis cannot follow, and
// functions of other packages, may.
func (c *checker) mayKeep(call ssa.CallInstruction, v ssa.Value, depth int) bool {
	common := call.Common()
	var idx []int
	if common.IsInvoke() && fieldBaseOrSelf(common.Value) == v {
		return true // a method of an implementation the analysis does not pick
	}
	for i, arg := range common.Args {
		if fieldBaseOrSelf(arg) == v {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return false
	}
	callee := common.StaticCallee()
	if callee == nil || !c.isLocal(callee) || len(callee.Blocks) == 0 || depth >= maxKeepDepth {
		return true
	}
	if _, isGo := call.(*ssa.Go); isGo {
		return true
	}
	for _, i := range idx {
		if i >= len(callee.Params) {
			return true
		}
		q := callee.Params[i]
		for _, p := range escapePoints(q, q, 0, c.handsOff, nil) {
			if _, isRet := p.(*ssa.Return); !isRet {
				return true
			}
		}
		for _, b := range callee.Blocks {
			for _, x := range b.Instrs {
				if inner, ok := x.(ssa.CallInstruction); ok && c.mayKeep(inner, q, depth+1) {
					return true
				}
			}
		}
	}
	return false
}

// fieldBaseOrSelf returns fieldBase(v), or v itself when v is not a
// field's address.
func fieldBaseOrSelf(v ssa.Value) ssa.Value {
	if b := fieldBase(v); b != nil {
		return b
	}
	return v
}
