package race

import (
	"slices"

	"golang.org/x/tools/go/ssa"
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
}

// goReach computes c.reach on first use.
func (c *checker) goReach() *goReach {
	if c.reach != nil {
		return c.reach
	}
	r := &goReach{from: map[*ssa.Function]map[*ssa.Function]bool{}, sync: map[*ssa.Function]bool{}}
	c.reach = r
	idx := c.callIndex()
	calls := map[*ssa.Function][]*ssa.Function{}
	called := map[*ssa.Function]bool{}
	var ops []*ssa.Value
	for _, fn := range c.funcs {
		calls[fn] = slices.Clone(idx.calls[fn])
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.Go); ok {
					continue
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if lit := funcValue(*op); lit != nil && lit.Parent() != nil {
						calls[fn] = append(calls[fn], lit)
					}
				}
			}
		}
		// A literal that is both started and made for other uses: the
		// go statement's operand is counted as a call above.
		kept := calls[fn][:0]
		for _, f := range calls[fn] {
			if !idx.startedIn[fn][f] || f.Parent() == nil {
				kept = append(kept, f)
			}
		}
		calls[fn] = kept
		for _, f := range calls[fn] {
			called[f] = true
		}
	}
	for _, s := range idx.started {
		r.walk(calls, s, func(fn *ssa.Function) bool {
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
		r.walk(calls, fn, func(f *ssa.Function) bool {
			if r.sync[f] {
				return false
			}
			r.sync[f] = true
			return true
		})
	}
	return r
}

// walk visits fn and what it calls, depth first, while visit returns
// true.
func (r *goReach) walk(calls map[*ssa.Function][]*ssa.Function, fn *ssa.Function, visit func(*ssa.Function) bool) {
	stack := []*ssa.Function{fn}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !visit(f) {
			continue
		}
		stack = append(stack, calls[f]...)
	}
}

// inGoroutine reports whether fn runs in a goroutine the package starts.
func (c *checker) inGoroutine(fn *ssa.Function) bool {
	return len(c.goReach().from[fn]) > 0
}

// sameGoroutines reports whether g runs only inside goroutines that
// also run f: never called outside a goroutine, and started by nothing
// that does not reach f.
func (c *checker) sameGoroutines(f, g *ssa.Function) bool {
	r := c.goReach()
	if r.sync[g] || len(r.from[g]) == 0 {
		return false
	}
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
	// called marks the functions such a call reaches.
	called map[*ssa.Function]bool
	// starts lists, per started function, the go statements starting
	// it; started lists those functions in source order.
	starts  map[*ssa.Function][]*ssa.Go
	started []*ssa.Function
	// startedIn marks, per function, the functions its go statements
	// start.
	startedIn map[*ssa.Function]map[*ssa.Function]bool
}

// callIndex computes c.index on first use.
func (c *checker) callIndex() *callIndex {
	if c.index != nil {
		return c.index
	}
	x := &callIndex{calls: map[*ssa.Function][]*ssa.Function{}, called: map[*ssa.Function]bool{},
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
