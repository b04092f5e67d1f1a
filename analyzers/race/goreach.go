package race

import (
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
)

// goReach records, for the package's functions, which goroutines run
// them: the functions go statements start, and the functions those
// reach by calls (and by the function literals they make, which run
// in the caller's goroutine unless started themselves).
type goReach struct {
	// from maps a function to the started functions it runs under.
	from map[*ssa.Function]map[*ssa.Function]bool
	// sync marks the functions reached without going through a go
	// statement from a function the package does not call itself (an
	// exported entry point, a test, a callback another package calls).
	sync map[*ssa.Function]bool
	// syncCode marks the functions sync marks for an entry point that
	// is not a test file's.
	syncCode map[*ssa.Function]bool
	// entries are those entry points.
	entries []*ssa.Function
}

// goReach computes c.reach on first use.
func (c *checker) goReach() *goReach {
	if c.reach != nil {
		return c.reach
	}
	r := &goReach{from: map[*ssa.Function]map[*ssa.Function]bool{}, sync: map[*ssa.Function]bool{}, syncCode: map[*ssa.Function]bool{}}
	c.reach = r
	idx := c.callIndex()
	calls := map[*ssa.Function][]*ssa.Function{}
	called := map[*ssa.Function]bool{}
	for _, fn := range c.funcs {
		c.callEdges(fn, func(_ ssa.Instruction, f *ssa.Function) {
			calls[fn] = append(calls[fn], f)
			called[f] = true
		})
	}
	callsOf := func(f *ssa.Function) []*ssa.Function { return calls[f] }
	for _, s := range idx.started {
		walkCalls(callsOf, s, func(fn *ssa.Function) bool {
			if r.from[fn] == nil {
				r.from[fn] = map[*ssa.Function]bool{}
			}
			if r.from[fn][s] {
				return false
			}
			r.from[fn][s] = true
			return true
		})
	}
	for _, fn := range c.funcs {
		if called[fn] || len(idx.starts[fn]) > 0 {
			continue
		}
		walkCalls(callsOf, fn, firstVisit(r.sync))
		if !c.inTestFile(fn) {
			walkCalls(callsOf, fn, firstVisit(r.syncCode))
			r.entries = append(r.entries, fn)
		}
	}
	return r
}

// callEdges calls visit with each function that fn runs on its own
// goroutine and the instruction that runs it: the callees of its calls
// other than go statements, and the function literals its instructions
// use (a callback it hands on), but not a literal it also starts (the go
// statement's operand counts as a use).
func (c *checker) callEdges(fn *ssa.Function, visit func(ssa.Instruction, *ssa.Function)) {
	idx := c.callIndex()
	startedLit := func(f *ssa.Function) bool { return idx.startedIn[fn][f] && f.Parent() != nil }
	var ops []*ssa.Value
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if _, ok := instr.(*ssa.Go); ok {
				continue
			}
			if call, ok := instr.(ssa.CallInstruction); ok {
				for _, f := range c.callees(call) {
					if !startedLit(f) {
						visit(instr, f)
					}
				}
			}
			ops = instr.Operands(ops[:0])
			for _, op := range ops {
				if lit := funcValue(*op); lit != nil && lit.Parent() != nil && !startedLit(lit) {
					visit(instr, lit)
				}
			}
		}
	}
}

// walkCalls visits fn and the functions next gives for each function
// visited, depth first, going on from a function only where visit
// returns true.
func walkCalls(next func(*ssa.Function) []*ssa.Function, fn *ssa.Function, visit func(*ssa.Function) bool) {
	stack := []*ssa.Function{fn}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(f) {
			continue
		}
		stack = append(stack, next(f)...)
	}
}

// firstVisit returns a visit for walkCalls that adds each function to
// seen and goes on from it the first time only.
func firstVisit(seen map[*ssa.Function]bool) func(*ssa.Function) bool {
	return func(f *ssa.Function) bool {
		if seen[f] {
			return false
		}
		seen[f] = true
		return true
	}
}

// inGoroutine reports whether fn runs in a goroutine the package starts.
func (c *checker) inGoroutine(fn *ssa.Function) bool {
	return len(c.goReach().from[fn]) > 0
}

// onlyInGoroutines reports whether fn runs in goroutines the package
// starts, and nowhere else.
func (c *checker) onlyInGoroutines(fn *ssa.Function) bool {
	r := c.goReach()
	return !r.sync[fn] && len(r.from[fn]) > 0
}

// sameGoroutines reports whether g runs only inside goroutines that
// also run f: never called outside a goroutine, and started by nothing
// that does not reach f.
func (c *checker) sameGoroutines(f, g *ssa.Function) bool {
	if !c.onlyInGoroutines(g) {
		return false
	}
	r := c.goReach()
	for s := range r.from[g] {
		if !r.from[f][s] {
			return false
		}
	}
	return true
}

// A callIndex records, once for the package, what its calls and go
// statements reach.
type callIndex struct {
	// calls lists, per function, the callees of its calls other than
	// go statements.
	calls map[*ssa.Function][]*ssa.Function
	// called marks the functions such a call reaches, and callers lists,
	// per function, the functions whose calls reach it.
	called  map[*ssa.Function]bool
	callers map[*ssa.Function][]*ssa.Function
	// starts lists, per started function, the go statements starting
	// it; started lists those functions in source order.
	starts  map[*ssa.Function][]*ssa.Go
	started []*ssa.Function
	// startedNamed lists the started functions by name (see
	// startedFuncs), built on first use.
	startedNamed map[string][]*ssa.Function
	// startedIn marks, per function, the functions its go statements
	// start.
	startedIn map[*ssa.Function]map[*ssa.Function]bool
}

// callIndex computes c.index on first use.
func (c *checker) callIndex() *callIndex {
	if c.index != nil {
		return c.index
	}
	x := &callIndex{calls: map[*ssa.Function][]*ssa.Function{}, called: map[*ssa.Function]bool{}, callers: map[*ssa.Function][]*ssa.Function{},
		starts: map[*ssa.Function][]*ssa.Go{}, startedIn: map[*ssa.Function]map[*ssa.Function]bool{}}
	c.index = x
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, ok := instr.(ssa.CallInstruction)
				if !ok {
					continue
				}
				g, isGo := instr.(*ssa.Go)
				for _, callee := range c.callees(call) {
					if !isGo {
						x.calls[fn] = append(x.calls[fn], callee)
						x.called[callee] = true
						if !slices.Contains(x.callers[callee], fn) {
							x.callers[callee] = append(x.callers[callee], fn)
						}
						continue
					}
					if len(x.starts[callee]) == 0 {
						x.started = append(x.started, callee)
					}
					x.starts[callee] = append(x.starts[callee], g)
					if x.startedIn[fn] == nil {
						x.startedIn[fn] = map[*ssa.Function]bool{}
					}
					x.startedIn[fn][callee] = true
				}
			}
		}
	}
	return x
}

// loopOwned reports whether f and g run only on one goroutine, and that
// goroutine is started once per call of a function the package's own
// code never calls in a loop: an object's event loop, started by Start.
// Its accesses are then ordered with each other by program order; the
// locks on them are for readers on other goroutines. (A second Start on
// the same object while the loop runs would break this, as it would
// notCallingAfter's ListenAndServe: objects are not started twice.)
//
// Code outside goroutines may run f or g too, where the loop cannot be
// running: before its spawner starts it (Start calling setState, then
// go s.loop()), or after a wait for its exit (Stop's wg.Wait(), then
// setState(Stopped)); see syncBeside.
func (c *checker) loopOwned(f, g *ssa.Function) bool {
	r := c.goReach()
	if len(r.from[f]) != 1 || len(r.from[g]) != 1 {
		return false
	}
	for s := range r.from[f] {
		if !r.from[g][s] || !c.startedOnce(s) {
			return false
		}
		if !r.syncCode[f] && !r.syncCode[g] {
			return true
		}
		beside := c.syncBeside(s)
		return !beside[f] && !beside[g]
	}
	return false
}

// syncBeside returns the functions that code outside goroutines (the
// entry points of syncCode) reaches while goroutine s may run: not
// through a call that its spawner makes before the go statement starting
// s, nor through a call made after a wait for s's exit (a WaitGroup its
// literal marks done as it exits, a channel it closes).
func (c *checker) syncBeside(s *ssa.Function) map[*ssa.Function]bool {
	if m, ok := c.beside[s]; ok {
		return m
	}
	idx := c.callIndex()
	gos := idx.starts[s]
	var waits []func(ssa.Instruction) bool
	for _, g := range gos {
		if signals := c.exitKeys(g.Parent())[g]; len(signals) > 0 {
			waits = append(waits, c.waitsOn(signals))
		}
	}
	// exitWaits returns fn's waits for s's exit.
	exitWaits := func(fn *ssa.Function) []ssa.Instruction {
		var out []ssa.Instruction
		for _, b := range fn.Blocks {
			for _, x := range b.Instrs {
				if slices.ContainsFunc(waits, func(w func(ssa.Instruction) bool) bool { return w(x) }) {
					out = append(out, x)
				}
			}
		}
		return out
	}
	// ordered reports whether call, of a function with the waits
	// fnWaits, runs only where s does not.
	ordered := func(call ssa.Instruction, fnWaits []ssa.Instruction) bool {
		for _, g := range gos {
			if g.Parent() == call.Parent() && dominatesInstr(call, g) {
				return true // before the loop starts
			}
		}
		return slices.ContainsFunc(fnWaits, func(w ssa.Instruction) bool {
			return w != call && dominatesInstr(w, call) // after it exits
		})
	}
	seen := map[*ssa.Function]bool{}
	var walk func(fn *ssa.Function)
	walk = func(fn *ssa.Function) {
		if seen[fn] {
			return
		}
		seen[fn] = true
		fnWaits := exitWaits(fn)
		var next []*ssa.Function
		c.callEdges(fn, func(instr ssa.Instruction, f *ssa.Function) {
			if _, isCall := instr.(ssa.CallInstruction); !isCall || !ordered(instr, fnWaits) {
				next = append(next, f)
			}
		})
		for _, f := range next {
			walk(f)
		}
	}
	for _, fn := range c.goReach().entries {
		walk(fn)
	}
	if c.beside == nil {
		c.beside = map[*ssa.Function]map[*ssa.Function]bool{}
	}
	c.beside[s] = seen
	return seen
}

// connOwned reports whether accesses a and o, to a field of type T, are
// both made on the goroutine that a method of T runs for a new T, the
// only goroutine that runs either function: a server's accept loop
// starting go newConn(c, s).serve() for each connection. Each goroutine
// has its own T, and the command handlers it runs touch that T's fields
// in program order; the locks on them are for other goroutines. (A
// handler reaching another connection's T would break this.)
func (c *checker) connOwned(a, o *access) bool {
	r := c.goReach()
	f, g := a.fn, o.fn
	if r.syncCode[f] || r.syncCode[g] || len(r.from[f]) != 1 || len(r.from[g]) != 1 {
		return false
	}
	for s := range r.from[f] {
		if !r.from[g][s] {
			return false
		}
		t := c.startedPerObject(s)
		return t != nil && a.obj.key == o.obj.key && strings.HasPrefix(a.obj.key, "field:"+typeKey(t)+".") &&
			!strings.Contains(strings.TrimPrefix(a.obj.key, "field:"+typeKey(t)+"."), ".") &&
			c.onOwnReceiver(a, s) && c.onOwnReceiver(o, s)
	}
	return false
}

// onOwnReceiver reports whether access a is made through the receiver of
// its function, a method that started method s reaches only through
// calls on its own receiver (c.handleSearch() in c.serve()): the
// goroutine's own T, not another one it found (a broadcast over the
// server's connections).
func (c *checker) onOwnReceiver(a *access, s *ssa.Function) bool {
	fn := a.fn
	if fn.Signature.Recv() == nil || len(fn.Params) == 0 || paramOf(fn, a.root) != fn.Params[0] ||
		strings.Count(a.path, ".") != 1 || strings.Contains(a.path, "[]") {
		return false // not a field of the receiver itself (c.srv.conns[].unread)
	}
	return c.receiverFrom(fn, s, map[*ssa.Function]bool{})
}

// receiverFrom reports whether fn is s, or is called only from methods
// receiverFrom holds for, each time on their own receiver.
func (c *checker) receiverFrom(fn, s *ssa.Function, seen map[*ssa.Function]bool) bool {
	if fn == s {
		return true
	}
	if seen[fn] {
		return true // a cycle of such calls adds no other receiver
	}
	seen[fn] = true
	sites := c.locks.CallSites(fn)
	if len(sites) == 0 {
		return false
	}
	for _, call := range sites {
		caller := call.Parent()
		if caller.Signature.Recv() == nil || len(caller.Params) == 0 || len(call.Call.Args) == 0 ||
			paramOf(caller, unspilled(call.Call.Args[0])) != caller.Params[0] || !c.receiverFrom(caller, s, seen) {
			return false
		}
	}
	return true
}

// unspilled returns the variable v is loaded from (a receiver a closure
// captures, which go/ssa spills to a variable), or v.
func unspilled(v ssa.Value) ssa.Value {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		if _, ok := u.X.(*ssa.Alloc); ok {
			return u.X
		}
	}
	return v
}

// startedPerObject returns the named type T when started function s is a
// method of *T or T that one go statement starts, on a receiver new at
// each run of the statement (go newConn(c, s).serve(), in a loop or
// not); nil otherwise.
func (c *checker) startedPerObject(s *ssa.Function) *types.Named {
	n, ok := receiverNamed(s)
	gos := c.callIndex().starts[s]
	if !ok || len(gos) != 1 || gos[0].Common().IsInvoke() || len(gos[0].Common().Args) == 0 {
		return nil
	}
	g := gos[0]
	recv := g.Common().Args[0]
	switch recv := recv.(type) {
	case *ssa.Call:
		if !c.freshCall(recv, 0) {
			return nil
		}
	case *ssa.Alloc:
	default:
		return nil
	}
	fi := c.info(g.Parent())
	if fi == nil {
		return nil
	}
	if sp := newSpawner(c, fi); sp.inLoop(g) && !sp.definedInLoop(recv, g) {
		return nil // the loop must make the receiver anew each time round
	}
	return n
}

// startedOnce reports whether started function s has one go statement,
// outside any loop of its spawner, whose spawner runs once per call of
// an entry point: no call of the package's non-test code reaches it in
// a loop, and when it runs in goroutines, those are started once too.
func (c *checker) startedOnce(s *ssa.Function) bool {
	if once, ok := c.once[s]; ok {
		return once
	}
	if c.once == nil {
		c.once = map[*ssa.Function]bool{}
	}
	c.once[s] = false // until shown, and for cycles of spawners
	once := c.spawnedOnce(s)
	c.once[s] = once
	return once
}

func (c *checker) spawnedOnce(s *ssa.Function) bool {
	idx := c.callIndex()
	gos := idx.starts[s]
	if len(gos) != 1 {
		return false
	}
	g := gos[0]
	spawner := g.Parent()
	if goInLoop(g) {
		return false
	}
	// The spawner and the functions that call it, up to the entry
	// points: none may call the next in a loop.
	seen := map[*ssa.Function]bool{spawner: true}
	for work := []*ssa.Function{spawner}; len(work) > 0; {
		callee := work[len(work)-1]
		work = work[:len(work)-1]
		for _, caller := range idx.callers[callee] {
			if c.inTestFile(caller) {
				continue
			}
			if c.callsInLoop(caller, callee) {
				return false
			}
			if !seen[caller] {
				seen[caller] = true
				work = append(work, caller)
			}
		}
	}
	r := c.goReach()
	for outer := range r.from[spawner] {
		if !c.inTestFile(outer) && !c.startedOnce(outer) {
			return false
		}
	}
	return true
}

// callsInLoop reports whether caller calls callee from a block inside a
// loop, on a receiver other than one the loop makes anew each time
// round (for _, s := range servers { s.Start() } starts one loop each).
func (c *checker) callsInLoop(caller, callee *ssa.Function) bool {
	for _, b := range caller.Blocks {
		for _, instr := range b.Instrs {
			call, ok := instr.(ssa.CallInstruction)
			if !ok || !slices.Contains(c.callees(call), callee) {
				continue
			}
			reach := branches.Reachable(b)
			if !reach[b.Index] {
				continue
			}
			if recv := receiverOf(call.Common()); recv != nil {
				if def, ok := recv.(ssa.Instruction); ok && def.Block() != nil && def.Parent() == caller &&
					reach[def.Block().Index] && branches.Reachable(def.Block())[b.Index] {
					continue
				}
			}
			return true
		}
	}
	return false
}
