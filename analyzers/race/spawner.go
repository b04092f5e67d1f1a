package race

import (
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// A spawner is a function with go statements, with what is needed to
// order its instructions against them.
type spawner struct {
	c     *checker
	fi    *funcInfo
	index map[ssa.Instruction]int
	reach map[*ssa.BasicBlock][]bool
	waits []ssa.Instruction
	// callAccs memoizes the accesses of each call site, shared by all the
	// go statements of the function.
	callAccs map[ssa.CallInstruction][]*access
	// sameIter memoizes, per go statement and defining block, the blocks
	// reached from the go statement before the loop comes round to the
	// definition again.
	sameIter map[iterKey][]bool
	// afterGo memoizes, per go statement, the blocks a path from it
	// reaches, following only the branches the conditions it was
	// started under allow (see branches.Reach).
	afterGo map[ssa.Instruction][]bool
}

type iterKey struct {
	g   ssa.Instruction
	def *ssa.BasicBlock
}

func newSpawner(c *checker, fi *funcInfo) *spawner {
	if sp, ok := c.spawners[fi.fn]; ok {
		return sp
	}
	sp := &spawner{c: c, fi: fi, index: map[ssa.Instruction]int{}, reach: map[*ssa.BasicBlock][]bool{},
		callAccs: map[ssa.CallInstruction][]*access{}, sameIter: map[iterKey][]bool{}, afterGo: map[ssa.Instruction][]bool{}}
	for _, b := range fi.fn.Blocks {
		for i, instr := range b.Instrs {
			sp.index[instr] = i
			if call, ok := instr.(ssa.CallInstruction); isWait(instr) || ok && c.callWaits(call) {
				sp.waits = append(sp.waits, instr)
			}
		}
		if entry := polledCase(b); entry != nil {
			sp.waits = append(sp.waits, entry)
		}
	}
	if c.spawners == nil {
		c.spawners = map[*ssa.Function]*spawner{}
	}
	c.spawners[fi.fn] = sp
	return sp
}

// after reports whether instr may execute after g in the same call, on a
// path that the conditions g runs under allow (go handler(ctx); break
// under if handler != nil, then if handler == nil { release(ctx) }
// after the loop: the release never follows the go statement).
func (sp *spawner) after(g, instr ssa.Instruction) bool {
	if g.Block() == instr.Block() && sp.index[g] < sp.index[instr] {
		return true
	}
	r, ok := sp.afterGo[g]
	if !ok {
		r = branches.Reach(g)
		sp.afterGo[g] = r
	}
	return r[instr.Block().Index]
}

func (sp *spawner) reachable(b *ssa.BasicBlock) []bool {
	r, ok := sp.reach[b]
	if !ok {
		r = branches.Reachable(b)
		sp.reach[b] = r
	}
	return r
}

// inLoop reports whether go statement g can execute more than once in a
// call of the spawner.
func (sp *spawner) inLoop(g ssa.Instruction) bool {
	return sp.reachable(g.Block())[g.Block().Index]
}

// goInLoop reports whether go statement g can execute more than once in
// a call of its function, as spawner.inLoop does, without the function's
// funcInfo: exitKeys asks while entry contexts are being computed, before
// a funcInfo (which reads its function's context) may be made.
func goInLoop(g ssa.Instruction) bool {
	return branches.Reachable(g.Block())[g.Block().Index]
}

// definedInLoop reports whether v is created anew in every iteration of
// the loop around g (a per-iteration variable), so each goroutine of the
// loop gets its own.
func (sp *spawner) definedInLoop(v ssa.Value, g ssa.Instruction) bool {
	instr, ok := v.(ssa.Instruction)
	if !ok || instr.Block() == nil || instr.Parent() != sp.fi.fn {
		return false // parameters, free variables, globals: shared
	}
	b := instr.Block()
	return sp.reachable(g.Block())[b.Index] && sp.reachable(b)[g.Block().Index]
}

// ordered reports whether instr, after go statement g, is ordered after
// everything the goroutine does before it signals: every path from g to
// instr passes a wait (channel receive, select, WaitGroup.Wait, or a call
// that waits: a semaphore's Acquire), or a send that stops the goroutine
// (see stopChannels). A wait that dominates instr is the
// usual case; a loop whose next iteration writes what the last one's
// goroutines read, after waiting for them, is the other.
func (sp *spawner) ordered(g *goroutine, instr ssa.Instruction) bool {
	isWait := make(map[ssa.Instruction]bool, len(sp.waits))
	for _, w := range sp.waits {
		if call, ok := w.(*ssa.Call); w != instr && (g.signals || ok && isBubbleWait(call.Common())) {
			// A synctest bubble's Wait needs no signal: it returns once
			// the goroutine is blocked or gone.
			isWait[w] = true
		}
	}
	for _, s := range sp.stopSends(g) {
		isWait[s] = true // the goroutine has stopped once it completes
	}
	if cancels := sp.c.goroutineCancels(g); len(cancels) > 0 {
		for _, w := range sp.waits {
			if w != instr && sp.c.waitsOnAll(w, cancels) {
				isWait[w] = true // <-ctx.Done() of a context g cancels
			}
		}
	}
	if len(isWait) == 0 {
		return false
	}
	stop := func(x ssa.Instruction) bool { return isWait[x] }
	// A flag set from a receive the goroutine's start precedes: a
	// select's receive case polled, or a receive, each a wait here.
	waited := func(r ssa.Instruction) bool {
		_, polled := r.(*ssa.Select)
		return (isWait[r] || polled && g.signals) && lockset.After(g.stmt, r)
	}
	return !reachesAvoidingFlags(g.stmt, sp.index[g.stmt], instr, stop, waited)
}

// joined reports whether the spawner waits for goroutine g before it
// returns: every path from g to a return passes a wait (see ordered),
// such as the select of a Shutdown that runs Stop in a goroutine and
// waits for it or for its context. The goroutine then runs within the
// spawner's call.
func (sp *spawner) joined(g *goroutine) bool {
	for _, b := range sp.fi.fn.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok && !sp.ordered(g, ret) {
			return false
		}
	}
	return true
}

// joinsEachRound reports whether the loop around go statement g waits
// for its goroutines before it starts the next one: every path from g
// back to g passes a WaitGroup.Wait, and the goroutine signals (go
// recv(); go send(); wg.Wait() in a reconnect loop); or g starts a
// function literal and every path passes a wait on what the literal
// signals (see exitKeys), a path through a call that never returns
// (t.Fatalf in the select's timeout case) ending there. Other waits in
// the loop (a receive of the next request) join nothing.
func (sp *spawner) joinsEachRound(g *goroutine) bool {
	if !g.signals {
		return false
	}
	joins := map[ssa.Instruction]bool{}
	for _, w := range sp.waits {
		if call, ok := w.(ssa.CallInstruction); ok && isSyncMethod(call.Common(), "WaitGroup", "Wait") {
			joins[w] = true
		}
	}
	if len(joins) > 0 && !reachesAvoiding(g.stmt, sp.index[g.stmt], g.stmt, func(x ssa.Instruction) bool { return joins[x] }) {
		return true
	}
	// A function literal waited on, on every way round, by what it
	// signals (go func() { ...; close(done) }(); select { case <-done:
	// case <-time.After(d): t.Fatalf(...) }): the rounds run one
	// goroutine at a time. A call that never returns ends the way.
	gs, ok := g.stmt.(*ssa.Go)
	if !ok {
		return false
	}
	if _, lit := gs.Call.Value.(*ssa.MakeClosure); !lit {
		return false
	}
	signals := sp.c.exitKeys(sp.fi.fn)[gs]
	if len(signals) == 0 {
		return false
	}
	waits := sp.c.waitsOn(signals)
	return !reachesAvoiding(g.stmt, sp.index[g.stmt], g.stmt, func(x ssa.Instruction) bool { return waits(x) || noReturn(x) })
}

// laterRound reports whether b, an access of the spawner or of a function
// it calls, is made in the loop around go statement g only in a later
// round than g's, once the loop has defined elem, g's argument, again: at
// an instruction, or a call, that the loop reaches from g only through
// elem's definition.
func (sp *spawner) laterRound(g ssa.Instruction, elem ssa.Value, b *access) bool {
	instr := b.instr
	if instr.Parent() != sp.fi.fn {
		if b.via == nil || b.via.Parent() != sp.fi.fn {
			return false
		}
		instr = b.via
	}
	inLoop := sp.reachable(g.Block())[instr.Block().Index] && sp.reachable(instr.Block())[g.Block().Index]
	return inLoop && !sp.sameInstance(g, elem, instr)
}

// waitsEachRound reports whether every path from go statement g round
// its loop back to g passes a wait (a receive, a select, WaitGroup.Wait,
// a call that waits): the loop runs one of its goroutines at a time, as
// far as the spawner's waits tell.
func (sp *spawner) waitsEachRound(g ssa.Instruction) bool {
	return !reachesAvoiding(g, sp.index[g], g, func(x ssa.Instruction) bool { return slices.Contains(sp.waits, x) })
}

// accessesAfter returns the spawner's accesses, its own and, unless
// ownOnly, those of the functions it calls, that may run after go
// statement g while g's goroutine runs.
func (sp *spawner) accessesAfter(g *goroutine, ownOnly bool) []*access {
	var out []*access
	keep := func(instr ssa.Instruction) bool {
		if d, ok := instr.(*ssa.Defer); ok {
			// A deferred call runs where the function returns: a test
			// restoring a global it changed (defer func() { timeout =
			// saved }()) while what it started still runs.
			return slices.ContainsFunc(sp.runDefers(d), func(r ssa.Instruction) bool {
				return sp.after(g.stmt, r) && !sp.ordered(g, r) && !sp.waitsDeferredAfter(g, d, r)
			})
		}
		return sp.after(g.stmt, instr) && !sp.ordered(g, instr)
	}
	if sp.fi.excluded {
		return nil
	}
	for _, a := range sp.fi.accesses {
		if !a.preEscape && a.root != nil && keep(a.instr) && sp.sameInstance(g.stmt, a.root, a.instr) {
			out = append(out, a)
		}
	}
	if ownOnly {
		return out
	}
	for _, cs := range sp.fi.calls {
		if _, ok := cs.instr.(*ssa.Go); ok || !keep(cs.instr) {
			continue
		}
		accs, ok := sp.callAccs[cs.instr]
		if !ok {
			var signals bool
			accs = sp.c.callAccesses(sp.fi.fn, cs, &signals)
			sp.callAccs[cs.instr] = accs
		}
		for _, a := range accs {
			if sp.sameInstance(g.stmt, a.root, cs.instr) {
				out = append(out, a)
			}
		}
	}
	return out
}

// runDefers returns the RunDefers instructions that run the call d
// defers: those reachable from it.
func (sp *spawner) runDefers(d *ssa.Defer) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range sp.fi.fn.Blocks {
		for _, x := range b.Instrs {
			if r, ok := x.(*ssa.RunDefers); ok && sp.after(d, r) {
				out = append(out, r)
			}
		}
	}
	return out
}

// waitsDeferredAfter reports whether a wait that d's deferred call comes
// after runs before it at r: a deferred wait registered after d (defer
// check(r0); ...; defer wg.Wait()), which runs first.
func (sp *spawner) waitsDeferredAfter(g *goroutine, d *ssa.Defer, r ssa.Instruction) bool {
	if !g.signals {
		return false
	}
	for _, b := range sp.fi.fn.Blocks {
		for _, x := range b.Instrs {
			w, ok := x.(*ssa.Defer)
			if !ok || w == d || !sp.after(d, w) || !sp.after(w, r) {
				continue
			}
			if isSyncMethod(w.Common(), "WaitGroup", "Wait") || sp.c.callWaits(w) {
				return true
			}
		}
	}
	return false
}

// sameInstance reports whether instr, after go statement g, can touch the
// same instance of root that g's goroutine sees. A variable created in
// each iteration of the loop around g is a new instance once the loop
// comes round to its definition again.
func (sp *spawner) sameInstance(g ssa.Instruction, root ssa.Value, instr ssa.Instruction) bool {
	if root == nil || !sp.definedInLoop(root, g) {
		return true
	}
	def := root.(ssa.Instruction)
	if instr.Block() == g.Block() && sp.index[g] < sp.index[instr] {
		return true
	}
	k := iterKey{g: g, def: def.Block()}
	seen, ok := sp.sameIter[k]
	if !ok {
		seen = make([]bool, len(sp.fi.fn.Blocks))
		stack := append([]*ssa.BasicBlock(nil), g.Block().Succs...)
		for len(stack) > 0 {
			b := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if seen[b.Index] || b == def.Block() {
				continue
			}
			seen[b.Index] = true
			stack = append(stack, b.Succs...)
		}
		sp.sameIter[k] = seen
	}
	return seen[instr.Block().Index]
}

// sameRound returns h, a goroutine started after g, with only the
// accesses that can reach the instance of their root g's goroutine
// sees: where h starts only in a later round of a loop that defines the
// root anew (if i == 0 { time.AfterFunc(d, func() { c.run() }) } else {
// go c.run() } with c made in each round), the two see different ones.
func (sp *spawner) sameRound(g, h *goroutine) *goroutine {
	var keep []*access
	for _, a := range h.accesses {
		if sp.sameInstance(g.stmt, a.root, h.stmt) {
			keep = append(keep, a)
		}
	}
	if len(keep) == len(h.accesses) {
		return h
	}
	out := *h
	out.accesses = keep
	return &out
}

// setupOf returns the instructions of the accesses that the spawner makes
// before go statement g, itself or through its calls, and never after it
// in the same call: what sets the goroutine up.
func (sp *spawner) setupOf(g *goroutine) map[ssa.Instruction]bool {
	setup := map[ssa.Instruction]bool{}
	for _, a := range sp.fi.accesses {
		if !sp.after(g.stmt, a.instr) {
			setup[a.instr] = true
		}
	}
	for _, cs := range sp.fi.calls {
		if _, ok := cs.instr.(*ssa.Go); ok || sp.after(g.stmt, cs.instr) {
			continue
		}
		var signals bool
		for _, a := range sp.c.callAccesses(sp.fi.fn, cs, &signals) {
			if a.instr != nil {
				setup[a.instr] = true
			}
		}
	}
	return setup
}

// goSetup returns the accesses that set up every goroutine running fn:
// fn is only ever started by go statements (go p.router()), all in one
// function, and these are that function's accesses before each of them
// (see setupOf). Such an access happens before everything fn does in the
// goroutine it set up; nil when fn is also called or started elsewhere.
func (c *checker) goSetup(fn *ssa.Function) map[ssa.Instruction]bool {
	if c.setups == nil {
		c.setups = map[*ssa.Function]map[ssa.Instruction]bool{}
		idx := c.callIndex()
		// In a fixed order: setupOf computes summaries, and a summary
		// computed inside a recursion sees its callers' partial ones.
		for _, f := range idx.started {
			gos := idx.starts[f]
			spawner := gos[0].Parent()
			if idx.called[f] || spawner == f {
				continue
			}
			var setup map[ssa.Instruction]bool
			for _, g := range gos {
				if g.Parent() != spawner {
					setup = nil
					break
				}
				sp := newSpawner(c, c.info(spawner))
				here := sp.setupOf(&goroutine{stmt: g})
				if setup == nil {
					setup = here
					continue
				}
				for instr := range setup {
					if !here[instr] {
						delete(setup, instr)
					}
				}
			}
			c.setups[f] = setup
		}
	}
	return c.setups[fn]
}

// polledCase returns, when b ends by testing whether a select with a
// default took one of its receive cases (select { case err =
// <-done: ...; default: } in a polling loop), the first instruction of
// that case: reached only once the receive has completed, it waits as
// a blocking receive would.
func polledCase(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Succs) != 2 {
		return nil
	}
	entry := b.Succs[0]
	sel, _, ok := recvCaseInto(b, entry)
	if !ok || sel.Blocking || len(entry.Preds) != 1 || len(entry.Instrs) == 0 {
		return nil
	}
	return entry.Instrs[0]
}
