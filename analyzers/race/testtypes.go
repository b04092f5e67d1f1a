package race

import (
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// testTypes records which test functions make values of the types test
// files declare, and which test functions reach which functions: a
// type-flow view of the test program, one test at a time.
type testTypes struct {
	// makers lists, per type declared in a test file, the functions
	// that make a value of it or convert one to an interface.
	makers map[*types.TypeName][]*ssa.Function
	// calls lists, per function, the functions it calls, starts or
	// makes closures of.
	calls map[*ssa.Function][]*ssa.Function
	// callers is calls reversed.
	callers map[*ssa.Function][]*ssa.Function
	// reach memoizes, per test root, the functions it reaches.
	reach map[*ssa.Function]map[*ssa.Function]bool
}

// testTypeAbsent reports whether access a, made beside goroutines that
// spawner starts, touches a value of a type declared in a test file that
// no test reaching spawner makes: the package's code reaches the type's
// methods through an interface (a store, a sampler, a reporter), but
// the tests that drive spawner hand it other implementations, and tests
// run one at a time.
func (c *checker) testTypeAbsent(spawner *ssa.Function, a *access) bool {
	tn := c.testTypeOf(a)
	if tn == nil || spawner == nil {
		return false
	}
	tt := c.testTypeFlow()
	makers := tt.makers[tn]
	for _, m := range makers {
		if m.Synthetic == "package initializer" || strings.HasPrefix(m.Name(), "init") && m.Parent() == nil {
			return false // a package variable's value: in every test
		}
	}
	for _, r := range tt.roots(c, spawner) {
		reach := tt.reached(r)
		for _, m := range makers {
			if reach[m] {
				return false
			}
		}
	}
	return true
}

// testTypeOf returns the type declared in a test file whose field a
// touches, when a's object is the test program's own (object.test); nil
// for other accesses.
func (c *checker) testTypeOf(a *access) *types.TypeName {
	if !a.obj.test {
		return nil
	}
	return c.fieldTestType(a)
}

// testTypeFlow computes c.tests on first use.
func (c *checker) testTypeFlow() *testTypes {
	if c.tests != nil {
		return c.tests
	}
	tt := &testTypes{makers: map[*types.TypeName][]*ssa.Function{}, calls: map[*ssa.Function][]*ssa.Function{},
		callers: map[*ssa.Function][]*ssa.Function{}, reach: map[*ssa.Function]map[*ssa.Function]bool{}}
	c.tests = tt
	made := func(fn *ssa.Function, t types.Type) {
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := t.(*types.Named); ok && c.declaredInTest(n.Obj()) {
			tt.makers[n.Obj()] = append(tt.makers[n.Obj()], fn)
		}
	}
	var ops []*ssa.Value
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch x := instr.(type) {
				case *ssa.Alloc:
					made(fn, x.Type())
				case *ssa.MakeInterface:
					made(fn, x.X.Type())
				case ssa.CallInstruction:
					tt.calls[fn] = append(tt.calls[fn], c.callees(x)...)
				}
				ops = instr.Operands(ops[:0])
				for _, op := range ops {
					if lit := funcValue(*op); lit != nil {
						tt.calls[fn] = append(tt.calls[fn], lit)
					}
				}
			}
		}
	}
	for fn, callees := range tt.calls {
		for _, callee := range callees {
			tt.callers[callee] = append(tt.callers[callee], fn)
		}
	}
	return tt
}

// roots returns the functions of test files that no function calls (the
// tests, benchmarks and examples) from which fn is reached.
func (tt *testTypes) roots(c *checker, fn *ssa.Function) []*ssa.Function {
	var out []*ssa.Function
	seen := firstVisit(map[*ssa.Function]bool{})
	callersOf := func(f *ssa.Function) []*ssa.Function { return tt.callers[f] }
	walkCalls(callersOf, fn, func(f *ssa.Function) bool {
		if !seen(f) {
			return false
		}
		if len(tt.callers[f]) == 0 && c.inTestFile(f) {
			out = append(out, f)
		}
		return true
	})
	return out
}

// reached returns the functions root reaches.
func (tt *testTypes) reached(root *ssa.Function) map[*ssa.Function]bool {
	if r, ok := tt.reach[root]; ok {
		return r
	}
	r := map[*ssa.Function]bool{}
	walkCalls(func(f *ssa.Function) []*ssa.Function { return tt.calls[f] }, root, firstVisit(r))
	tt.reach[root] = r
	return r
}

// soloTest reports whether fn is a test function that runs alone: it
// starts no goroutine, nor does anything it calls, and it does not call
// t.Parallel. Tests run one at a time, so what it does races
// with nothing (a test reading its mock's fields after the calls it
// made on it).
func (c *checker) soloTest(fn *ssa.Function) bool {
	if fn.Parent() != nil || !strings.HasPrefix(fn.Name(), "Test") || !c.inTestFile(fn) || fn.Signature.Recv() != nil {
		return false
	}
	if r, ok := c.solo[fn]; ok {
		return r
	}
	solo := c.runsAlone(fn)
	if c.solo == nil {
		c.solo = map[*ssa.Function]bool{}
	}
	c.solo[fn] = solo
	return solo
}

// runsAlone reports whether fn, and what it reaches by calls and the
// function literals it makes, start no goroutine and call no
// t.Parallel. (Only the call graph is asked: summaries are computed in
// an order of their own.)
func (c *checker) runsAlone(fn *ssa.Function) bool {
	idx := c.callIndex()
	alone := true
	seen := firstVisit(map[*ssa.Function]bool{})
	next := func(f *ssa.Function) []*ssa.Function { return append(slices.Clone(idx.calls[f]), f.AnonFuncs...) }
	walkCalls(next, fn, func(f *ssa.Function) bool {
		if !alone || !seen(f) {
			return false
		}
		if len(idx.startedIn[f]) > 0 || f.Name() == "Parallel" && f.Signature.Recv() != nil {
			alone = false
		}
		return alone
	})
	return alone
}
