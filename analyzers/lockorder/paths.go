package lockorder

import (
	"fmt"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"github.com/confirm-go/confirm/analyzers/warning"
)

// checkJoins reports the locks held on only some of the paths into a
// block that a path from there acquires again before releasing them: a
// lock taken in a loop and still held where the loop continues (a
// continue, or a branch that skips the Unlock) is locked again by the
// next iteration; one held on a break out of a loop, by the code after
// it. The must-held analysis drops such a lock at the join, so the second
// Lock is not seen as a double lock otherwise. A re-acquisition guarded by
// a flag (if !locked { mu.Lock(); locked = true }) is the flag's business
// and is not reported.
func (c *checker) checkJoins(fn *ssa.Function, t *lockset.Trace) {
	if len(t.Joins) == 0 {
		return
	}
	acquires := map[ssa.Instruction][]lockset.Acquisition{}
	for _, a := range t.Acquisitions {
		if !a.Try && !a.Wait && !relocks(a) {
			acquires[a.Instr] = append(acquires[a.Instr], a)
		}
	}
	releases := map[ssa.Instruction][]lockset.Item{}
	for _, r := range t.Releases {
		releases[r.Instr] = append(releases[r.Instr], r.Item)
	}
	reported := map[token.Pos]bool{}
	for _, j := range t.Joins {
		for _, l := range j.Held {
			if l.Inherited || l.Inst == "" || !l.Pos.IsValid() {
				continue
			}
			a, ok := reacquired(j.To, branches.On(j.From, j.To).Steady(), l, acquires, releases)
			if !ok || reported[a.Pos] || flagGuarded(j.To, a.Instr.Block()) {
				continue
			}
			if l.Mode == lockset.Read && a.Lock.Mode == lockset.Read {
				continue // a recursive read lock along a path: too weak a claim
			}
			reported[a.Pos] = true
			c.reportPathDouble(fn, l, a, j)
		}
	}
}

// relocks reports whether a is a callee taking back a lock it released
// first (unlock, wait, lock again, as Cond.Wait does): not a second
// acquisition of a lock held when it is called.
func relocks(a lockset.Acquisition) bool {
	for _, u := range a.Lock.Unheld {
		if u.Class == a.Lock.Class && u.Mode == a.Lock.Mode {
			return true
		}
	}
	return false
}

// reacquired finds, on a path from block from that the facts of the
// path holding l do not rule out, an acquisition of the instance of l
// that no release of its class precedes.
func reacquired(from *ssa.BasicBlock, facts branches.Facts, l lockset.Lock, acquires map[ssa.Instruction][]lockset.Acquisition, releases map[ssa.Instruction][]lockset.Item) (lockset.Acquisition, bool) {
	seen := map[*ssa.BasicBlock]bool{from: true}
	work := []*ssa.BasicBlock{from}
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		released := false
	instrs:
		for _, instr := range b.Instrs {
			for _, a := range acquires[instr] {
				if a.Lock.Class == l.Class && sameInstance(l, a.Lock) {
					return a, true
				}
			}
			for _, it := range releases[instr] {
				if it.Class == l.Class {
					released = true
					break instrs
				}
			}
		}
		if released {
			continue
		}
		for si, s := range b.Succs {
			if !seen[s] && !facts.Excludes(b, si) {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return lockset.Acquisition{}, false
}

// flagGuarded reports whether block b runs only when a boolean variable
// (a parameter, a loaded variable or field, a value merged from branches)
// is tested, between block top (which dominates it) and b; it also
// reports true when top does not dominate b and a flag is tested on the
// way from b's immediate dominators.
func flagGuarded(top, b *ssa.BasicBlock) bool {
	for d := b; d != nil; d = d.Idom() {
		if d != b {
			if ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok && isFlag(ifi.Cond) {
				return true
			}
		}
		if d == top {
			if ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If); ok && isFlag(ifi.Cond) {
				return true
			}
			return false
		}
	}
	return false
}

// isFlag reports whether cond tests a boolean variable rather than
// computing a condition: locked, !locked, s.held.
func isFlag(cond ssa.Value) bool {
	if u, ok := cond.(*ssa.UnOp); ok && u.Op == token.NOT {
		cond = u.X
	}
	if b, ok := cond.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Bool {
		return false
	}
	switch v := cond.(type) {
	case *ssa.Phi, *ssa.Parameter, *ssa.FreeVar, *ssa.Field:
		return true
	case *ssa.UnOp:
		return v.Op == token.MUL
	}
	return false
}

// reportPathDouble reports l, held along the edge of j but not on every
// path into its block, acquired again by a.
func (c *checker) reportPathDouble(fn *ssa.Function, l lockset.Lock, a lockset.Acquisition, j lockset.Join) {
	name := lockset.FuncName(fn)
	inst := c.instName(fn, l.Inst)
	where := "a path"
	if p := branchPos(j.From); p.IsValid() {
		where = fmt.Sprintf("the path through line %d", c.pass.Fset.Position(p).Line)
	}
	w := &warning.Warning{
		Kind:    warning.DoubleLock,
		Objects: []string{l.Class},
		Message: fmt.Sprintf("double lock: %s %s %s%s again while %s still holds it (a continue, break or branch that skips the %s?); Go mutexes are not reentrant",
			name, lockWord(a.Lock.Mode), inst, via(a.Lock.Chain), where, unlockWord(l.Mode)),
	}
	w.Sites = []warning.Site{
		{
			Pos: l.Pos, Role: fmt.Sprintf("%s %s%s", verb(l.Mode), l.Class, via(l.Chain)), Access: access(l.Mode),
			Object: l.Class, Func: name, Chain: l.Chain, FuncLine: c.funcLine(fn, l.Pos), Goroutine: c.goroutine(fn),
		},
		{
			Pos: a.Pos, Role: fmt.Sprintf("%s %s%s again while holding it", verb(a.Lock.Mode), a.Lock.Class, via(a.Lock.Chain)),
			Access: access(a.Lock.Mode), Object: a.Lock.Class, Held: []string{l.Class}, Func: name,
			Chain: a.Lock.Chain, FuncLine: c.funcLine(fn, a.Pos), Goroutine: c.goroutine(fn),
		},
	}
	warning.Report(c.pass, c.res, w)
}

func unlockWord(m lockset.Mode) string {
	if m == lockset.Read {
		return "RUnlock"
	}
	return "Unlock"
}

// branchPos returns the position of the last instruction of b, or of the
// nearest block dominating it, that has one: where the path leaves.
func branchPos(b *ssa.BasicBlock) token.Pos {
	for ; b != nil; b = b.Idom() {
		for i := len(b.Instrs) - 1; i >= 0; i-- {
			if p := b.Instrs[i].Pos(); p.IsValid() {
				return p
			}
		}
	}
	return token.NoPos
}
