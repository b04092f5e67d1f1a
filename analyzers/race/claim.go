package race

import (
	"go/token"
	"slices"

	"golang.org/x/tools/go/ssa"
)

// Closing claims what the others give up. The analyzer uses it for the
// shape of a connection that a close-once flag hands to its closer:
//
//	func (c *Conn) Close() error {
//		c.mu.Lock()
//		if c.closed {
//			c.mu.Unlock()
//			return nil
//		}
//		c.closed = true
//		c.mu.Unlock()
//		c.cleanup() // c.buf = nil, without the lock
//		return nil
//	}
//
//	func (c *Conn) Write(b []byte) error {
//		c.mu.Lock()
//		defer c.mu.Unlock()
//		if c.closed {
//			return errClosed
//		}
//		c.buf = append(c.buf, b...)
//		return nil
//	}
//
// closed is a gate: every store sets it, none clears it. Close sets it
// holding mu since a check found it clear, so one call, the claim, owns
// what follows. Write touches buf only holding mu since a check found
// closed clear, so its critical section comes before the claim's in mu's
// order: the cleanup after the claim meets no access of Write's. A
// locked access that does not check the flag (a Reset) is still paired
// with the cleanup.

// A claim is a gate set where, holding lock since a check found it
// clear, the setting function took it for itself.
type claim struct {
	flag string // the gate's field key
	lock string // the lock class held from the check to the set
}

// maxClaimDepth bounds how far up its callers an access is followed to
// the claim it runs after (Close → cleanup → releaseBuffers).
const maxClaimDepth = 2

// claimsBefore returns the claims made on every path to instr, in its
// function or, for a function only the package calls, at every call
// site of it up to maxClaimDepth callers.
func (c *checker) claimsBefore(fn *ssa.Function, instr ssa.Instruction, depth int) []claim {
	out := c.claimsIn(fn, instr)
	sites, ok := c.claimSites(fn, depth)
	if !ok {
		return out
	}
	var common []claim
	for i, s := range sites {
		up := c.claimsBefore(s.caller, s.call, depth+1)
		if i == 0 {
			common = up
			continue
		}
		common = slices.DeleteFunc(common, func(k claim) bool { return !slices.Contains(up, k) })
	}
	return append(out, common...)
}

// claimsIn returns the claims fn makes before instr on every path: a
// store of true into a gate of the package's own that instr follows,
// made where a check of the same gate, on the same value, found it
// clear, with a lock held from the check to the store.
func (c *checker) claimsIn(fn *ssa.Function, instr ssa.Instruction) []claim {
	var out []claim
	gates := c.lazyFacts().gates
	for _, b := range fn.Blocks {
		for _, x := range b.Instrs {
			st, ok := x.(*ssa.Store)
			if !ok || !isTrue(st.Val) || !dominatesInstr(st, instr) {
				continue
			}
			fa, ok := st.Addr.(*ssa.FieldAddr)
			if !ok {
				continue
			}
			key, ok := c.ownField(fa)
			if !ok || !gates[key] {
				continue
			}
			sameGate := func(lfa *ssa.FieldAddr) bool { return lfa.Field == fa.Field && sameValue(lfa.X, fa.X) }
			for _, lock := range c.checkedClear(fn, sameGate, st) {
				out = append(out, claim{flag: key, lock: lock})
			}
		}
	}
	return out
}

// checkedClear returns the lock classes held since a check, found clear,
// of a gate whose address match accepts, that instr can be reached from
// only through the check's clear branch, with no release of the lock in
// between.
func (c *checker) checkedClear(fn *ssa.Function, match func(*ssa.FieldAddr) bool, instr ssa.Instruction) []string {
	var out []string
	for _, b := range fn.Blocks {
		ifi, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		load, setWhenTrue, ok := flagTest(ifi.Cond)
		if !ok {
			continue
		}
		lfa, ok := load.X.(*ssa.FieldAddr)
		if !ok || !match(lfa) {
			continue
		}
		clear := b.Succs[1] // the branch where the gate is clear
		if !setWhenTrue {
			clear = b.Succs[0]
		}
		if len(clear.Preds) != 1 || !clear.Dominates(instr.Block()) {
			continue
		}
		for _, l := range c.heldBefore(load) {
			if l.Assumed || !c.heldBefore(instr).has(l.Class) || c.releasedBetween(fn, clear, instr, l.Class) {
				continue
			}
			out = append(out, l.Class)
		}
	}
	return out
}

// flagTest returns the load a branch condition tests, and whether the
// condition is true when the loaded flag is set: if c.closed, if
// !c.closed.
func flagTest(cond ssa.Value) (*ssa.UnOp, bool, bool) {
	set := true
	if not, ok := cond.(*ssa.UnOp); ok && not.Op == token.NOT {
		cond, set = not.X, false
	}
	load, ok := cond.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil, false, false
	}
	return load, set, true
}

// sameValue reports whether a and b are the same value, or loads of the
// same variable (a receiver captured by reference, loaded twice).
func sameValue(a, b ssa.Value) bool {
	if a == b {
		return true
	}
	la, ok1 := a.(*ssa.UnOp)
	lb, ok2 := b.(*ssa.UnOp)
	return ok1 && ok2 && la.Op == token.MUL && lb.Op == token.MUL && la.X == lb.X
}

// releasedBetween reports whether a release of the lock class may run
// on a path from the start of block from to instr.
func (c *checker) releasedBetween(fn *ssa.Function, from *ssa.BasicBlock, instr ssa.Instruction, class string) bool {
	t := c.locks.Trace(fn)
	if t == nil {
		return true
	}
	for _, r := range t.Releases {
		if r.Item.Class != class || r.Instr == nil || r.Instr.Parent() != fn {
			continue
		}
		if r.Instr == instr {
			return true
		}
		if reachesAvoiding(from.Instrs[0], 0, r.Instr, func(ssa.Instruction) bool { return false }) &&
			reachesAvoiding(r.Instr, slices.Index(r.Instr.Block().Instrs, r.Instr)+1, instr, func(ssa.Instruction) bool { return false }) {
			return true
		}
	}
	return false
}

// checkedAccess reports whether o, an access holding the claim's lock,
// is made only where, holding that lock since, a check of the claim's
// gate on the value o reaches found it clear: in o's function, or at
// every call site of it up to maxClaimDepth callers.
func (c *checker) checkedAccess(o *access, k claim) bool {
	if o.instr == nil || o.instr.Parent() != o.fn {
		return false
	}
	return c.checkedAt(o.fn, o.instr, k, 0)
}

// checkedAt reports whether instr is reached only where, holding k's
// lock since, a check of k's gate found it clear (see checkedAccess).
func (c *checker) checkedAt(fn *ssa.Function, instr ssa.Instruction, k claim, depth int) bool {
	theGate := func(lfa *ssa.FieldAddr) bool {
		key, ok := c.ownField(lfa)
		return ok && key == k.flag
	}
	if slices.Contains(c.checkedClear(fn, theGate, instr), k.lock) {
		return true
	}
	sites, ok := c.claimSites(fn, depth)
	if !ok {
		return false
	}
	for _, s := range sites {
		if !c.checkedAt(s.caller, s.call, k, depth+1) {
			return false
		}
	}
	return true
}

// claimSites returns the call sites of fn, depth callers up from an
// access, when they are all the ways fn runs and the walk may go on up:
// fn is a declared function other packages cannot call, the package
// calls it directly (no callback), and depth is below maxClaimDepth.
func (c *checker) claimSites(fn *ssa.Function, depth int) ([]entrySite, bool) {
	if depth >= maxClaimDepth || exported(fn) || fn.Parent() != nil || c.ctx.unknown[fn] {
		return nil, false
	}
	sites := c.ctx.sites[fn]
	if len(sites) == 0 || slices.ContainsFunc(sites, func(s entrySite) bool { return s.call == nil || s.common == nil }) {
		return nil, false
	}
	return sites, true
}

// notClaimed leaves out of others the accesses that a's claims order
// before a: a is made after a claim, and the other access only where
// the claim's gate was checked clear under the claim's lock.
func (c *checker) notClaimed(a *access, others []*access) []*access {
	if a.instr == nil || a.instr.Parent() != a.fn {
		return others
	}
	claims := c.claimsBefore(a.fn, a.instr, 0)
	if len(claims) == 0 {
		return others
	}
	var out []*access
	for _, o := range others {
		if !slices.ContainsFunc(claims, func(k claim) bool { return o.held.has(k.lock) && c.checkedAccess(o, k) }) {
			out = append(out, o)
		}
	}
	return out
}
