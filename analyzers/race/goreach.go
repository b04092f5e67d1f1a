package race

import (
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
	calls := map[*ssa.Function][]*ssa.Function{}
	called := map[*ssa.Function]bool{}
	var starts []*ssa.Function
	var ops []*ssa.Value
	for _, fn := range c.funcs {
		started := map[*ssa.Function]bool{}
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if g, ok := instr.(*ssa.Go); ok {
					for _, callee := range c.callees(g) {
						started[callee] = true
						starts = append(starts, callee)
					}
					continue
				}
				if call, ok := instr.(ssa.CallInstruction); ok {
					calls[fn] = append(calls[fn], c.callees(call)...)
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
			if !started[f] || f.Parent() == nil {
				kept = append(kept, f)
			}
		}
		calls[fn] = kept
		for _, f := range calls[fn] {
			called[f] = true
		}
	}
	for _, s := range starts {
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
	isStart := map[*ssa.Function]bool{}
	for _, s := range starts {
		isStart[s] = true
	}
	for _, fn := range c.funcs {
		if called[fn] || isStart[fn] {
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
