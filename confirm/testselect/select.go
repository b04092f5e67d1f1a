package testselect

import (
	"sort"
	"strings"

	"github.com/confirm-go/confirm/analyzers/warning"
	"golang.org/x/tools/go/ssa"
)

// A Candidate is a test that reaches some of a warning's functions.
type Candidate struct {
	// Test is the name of the top-level test function.
	Test string
	// Package is the import path of the package under test.
	Package string
	// Reached and Missing name the warning's functions the test reaches
	// and does not reach.
	Reached, Missing []string
	// Steps is the sum over the reached functions of the fewest
	// call-graph steps from the test to each.
	Steps int
	// Concurrent reports whether the test reaches one of the functions
	// inside a goroutine it starts, so that the warning's operations can
	// run at the same time.
	Concurrent bool
}

// A target is one function of a warning: the name the warning uses and
// the SSA functions it resolved to.
type target struct {
	name string
	fns  []*ssa.Function
}

// targets resolves the functions of a warning: for each site, the
// innermost function containing its position (or, without a position,
// the function named by Site.Func); then the names of Warning.Funcs no
// site resolved. A name that resolves to nothing is kept with no
// functions, so that it is reported as unreached. Each function and each
// name appears once.
func (p *Program) targets(w *warning.Warning) []target {
	var out []target
	seenFunc := map[funcKey]bool{}
	seenName := map[string]bool{}
	add := func(name string, fns []*ssa.Function) {
		if len(fns) > 0 {
			k := p.keyOf(fns[0])
			if seenFunc[k] {
				return
			}
			seenFunc[k] = true
			if name == "" || seenName[name] {
				// Another function goes by this name (a closure named
				// after its enclosing function): use its own.
				name = ShortName(fns[0])
			}
		}
		if seenName[name] {
			return
		}
		seenName[name] = true
		out = append(out, target{name: name, fns: fns})
	}
	for _, s := range w.Sites {
		var fns []*ssa.Function
		if s.Position.IsValid() {
			fns = p.FuncsAt(s.Position)
		}
		if len(fns) == 0 && s.Func != "" {
			fns = p.FuncsNamed(s.Func)
		}
		if len(fns) == 0 && s.Func == "" {
			continue
		}
		add(s.Func, fns)
	}
	for _, name := range w.Funcs {
		add(name, p.FuncsNamed(name))
	}
	return out
}

// Rank returns the tests that reach at least one of the warning's
// functions, best first: those reaching all of them; among those, for a
// race, a lock-order cycle or a recursive read lock, the tests that reach
// one of them in a goroutine they start (see Candidate.Concurrent); then
// those reaching the most, then those with the fewest call-graph steps,
// then by name.
// When the warning names a package, the tests of that package are
// considered, or all tests when none of those reaches a function (the
// package may have no tests of its own). unreached names the warning's functions that no test
// reaches.
func (p *Program) Rank(w *warning.Warning) (cands []Candidate, unreached []string) {
	targets := p.targets(w)
	concurrent := needsConcurrency(w.Kind)
	cands = p.candidates(targets, w.Package)
	if len(cands) == 0 && w.Package != "" {
		cands = p.candidates(targets, "")
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if (len(a.Missing) == 0) != (len(b.Missing) == 0) {
			return len(a.Missing) == 0
		}
		if concurrent && a.Concurrent != b.Concurrent {
			return a.Concurrent
		}
		if len(a.Reached) != len(b.Reached) {
			return len(a.Reached) > len(b.Reached)
		}
		if a.Steps != b.Steps {
			return a.Steps < b.Steps
		}
		return a.Test < b.Test
	})
	reachedBy := map[string]bool{}
	for _, c := range cands {
		for _, name := range c.Reached {
			reachedBy[name] = true
		}
	}
	for _, tg := range targets {
		if !reachedBy[tg.name] {
			unreached = append(unreached, tg.name)
		}
	}
	return cands, unreached
}

// candidates returns the tests of package pkg (all tests if pkg is
// empty) that reach at least one target.
func (p *Program) candidates(targets []target, pkg string) []Candidate {
	var cands []Candidate
	for _, t := range p.tests {
		if !samePackage(pkg, t.Package) {
			continue
		}
		c := Candidate{Test: t.Name, Package: t.Package}
		for _, tg := range targets {
			if steps, ok := t.reachesAny(p, tg.fns); ok {
				c.Reached = append(c.Reached, tg.name)
				c.Steps += steps
				c.Concurrent = c.Concurrent || t.spawnsAny(p, tg.fns)
			} else {
				c.Missing = append(c.Missing, tg.name)
			}
		}
		if len(c.Reached) > 0 {
			cands = append(cands, c)
		}
	}
	return cands
}

// Select returns the names of the tests that reach the warning's
// functions, best first (see Rank), and the names of the functions no
// test reaches. With no test returned, the warning has no test to be
// confirmed with.
func (p *Program) Select(w *warning.Warning) (tests []string, unreached []string) {
	cands, unreached := p.Rank(w)
	for _, c := range cands {
		tests = append(tests, c.Test)
	}
	return tests, unreached
}

// needsConcurrency reports whether a warning of kind k shows only when
// its operations run in different goroutines: a race, a lock-order
// cycle, a reader and a writer, a channel operation and its peer.
func needsConcurrency(k warning.Kind) bool {
	return k == warning.Race || k == warning.LockOrderCycle || k == warning.RWRDeadlock || k == warning.LockChannel
}

func (t *Test) spawnsAny(p *Program, fns []*ssa.Function) bool {
	for _, fn := range fns {
		if t.spawned[p.keyOf(fn)] {
			return true
		}
	}
	return false
}

func (t *Test) reachesAny(p *Program, fns []*ssa.Function) (int, bool) {
	best, found := 0, false
	for _, fn := range fns {
		if steps, ok := t.reach[p.keyOf(fn)]; ok && (!found || steps < best) {
			best, found = steps, true
		}
	}
	return best, found
}

// samePackage reports whether a test of package testPkg can run code of
// the warning's package pkg; an empty pkg matches every test.
func samePackage(pkg, testPkg string) bool {
	return pkg == "" || strings.TrimSuffix(pkg, "_test") == testPkg
}
