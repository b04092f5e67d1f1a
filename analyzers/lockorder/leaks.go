package lockorder

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// releasedByOthers returns the locks (keyed by class and mode) that some
// function of funcs releases without having acquired them itself: a lock
// it was called with (an unlock helper, a function only called under the
// lock), or one a callee acquired for it (a lock helper's, released by
// its caller after the call, also where the helper holds it on success
// only and the release follows the error check), or whose Unlock method
// value it makes (see unlockValues). A function returning with such a
// lock held may be a lock helper whose callers release it;
// one returning with a lock nothing in the package ever releases that
// way has leaked it. A release not matched by a held lock in a function
// that acquires the class itself (if lock { mu.Lock() } ... if lock {
// mu.Unlock() }, a TryLock tested twice) is that function's own.
func (c *checker) releasedByOthers(funcs []*ssa.Function) map[string]bool {
	out := map[string]bool{}
	for _, fn := range funcs {
		for _, key := range c.unlockValues(fn) {
			out[key] = true
		}
		t := c.traces[fn]
		own := map[string]bool{}
		for _, a := range t.Acquisitions {
			if len(a.Lock.Chain) == 0 {
				own[classMode(a.Lock.Item)] = true
			}
		}
		for _, r := range t.Releases {
			key := classMode(r.Item)
			if r.Matched && (r.Lock.Inherited || len(r.Lock.Chain) > 0) || !r.Matched && !own[key] {
				out[key] = true
			}
		}
	}
	return out
}

// unlockValues returns the locks (by class and mode) whose Unlock or
// RUnlock method value fn makes (return lf.lock.RUnlock, the release
// callback handed to whoever called the lock helper): whoever calls the
// value releases the lock, not having acquired it.
func (c *checker) unlockValues(fn *ssa.Function) []string {
	var out []string
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			mc, ok := instr.(*ssa.MakeClosure)
			if !ok || !isUnlockValue(mc) {
				continue
			}
			mode := lockset.Write
			if mc.Fn.Name() == "RUnlock$bound" {
				mode = lockset.Read
			}
			r, ok := c.ls.Ref(mc.Bindings[0])
			if !ok || r.Class == "" {
				continue
			}
			out = append(out, classMode(lockset.Item{Class: r.Class, Mode: mode}))
		}
	}
	return out
}

// unreleased reports whether l, held by fn on a return, is one that no
// caller can release: fn acquired it itself, nothing in the package
// releases a lock of its class and mode that it did not acquire itself,
// other packages cannot reach it (see publicLock), and fn does not
// return the mutex.
func (c *checker) unreleased(fn *ssa.Function, l lockset.Lock) bool {
	return len(l.Chain) == 0 && !c.freed[classMode(l.Item)] && !c.publicLock(l.Class) && !returnsLocker(fn)
}

// publicLock reports whether a lock of the class may be released by
// another package: its field or variable is exported (an embedded
// sync.Mutex is), and the package can be imported (it is not a main
// package, a test-only package or an external test package).
func (c *checker) publicLock(class string) bool {
	name := strings.TrimSuffix(strings.TrimSuffix(class, "()"), "[]")
	name = name[strings.LastIndex(name, ".")+1:]
	if !ast.IsExported(name) {
		return false
	}
	pkg := c.pass.Pkg
	if pkg.Name() == "main" || strings.HasSuffix(pkg.Name(), "_test") {
		return false
	}
	for _, f := range c.pass.Files {
		if !strings.HasSuffix(c.pass.Fset.Position(f.Pos()).Filename, "_test.go") {
			return true
		}
	}
	return false
}

// returnsLocker reports whether fn returns a mutex or a sync.Locker: its
// caller may release what it holds through the result.
func returnsLocker(fn *ssa.Function) bool {
	res := fn.Signature.Results()
	for i := 0; i < res.Len(); i++ {
		t := res.At(i).Type()
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "sync" {
			switch n.Obj().Name() {
			case "Mutex", "RWMutex", "Locker":
				return true
			}
		}
	}
	return false
}

// checkJoinLeaks reports the locks held on some of the paths into a join
// and not on others (Clang's "mutex is not held on every path through
// here") that a path from the join then carries to a return, when
// nothing reached from the join releases a lock of the class: a lock
// taken in a loop and still held on a break out of it, when the paths
// merge before the one return (the must-held analysis drops the lock at
// the merge, so no return holds it). A lock released somewhere after the
// merge (if lock { mu.Lock() } ... if lock { mu.Unlock() }, a TryLock
// tested twice) is not reported, nor is one a TryLock took (a lock
// type's own TryLock and Unlock are not always seen as one lock: xsync's
// RBMutex), nor one locked again after it (a
// double lock, see checkJoins), one a deferred call releases, one that
// may be a lock helper's (see unreleased), or one in a function exempted
// from leak checks (see checkLeaks).
func (c *checker) checkJoinLeaks(fn *ssa.Function, t *lockset.Trace, reported map[string]bool) {
	if len(t.Joins) == 0 || len(t.Returns) == 0 || lockset.IsLoopBody(fn) || lastResultIsBool(fn) || returnsFunc(fn) || c.hasOpaqueDefer(fn) || isLockMethod(fn) {
		return
	}
	sum := c.summary(fn)
	neutral := map[string]bool{}
	for _, it := range sum.Neutral {
		neutral[classMode(it)] = true
	}
	touches := map[ssa.Instruction][]string{} // classes released by each instruction
	acquires := map[ssa.Instruction][]lockset.Acquisition{}
	tried := map[token.Pos]bool{} // TryLocks: the lock held where they succeed
	for _, a := range t.Acquisitions {
		if a.Try {
			tried[a.Pos] = true
		}
		if !a.Try && !a.Wait && !relocks(a) {
			acquires[a.Instr] = append(acquires[a.Instr], a)
		}
	}
	releases := map[ssa.Instruction][]lockset.Item{}
	for _, r := range t.Releases {
		touches[r.Instr] = append(touches[r.Instr], r.Item.Class)
		releases[r.Instr] = append(releases[r.Instr], r.Item)
	}
	for _, j := range t.Joins {
		for _, l := range j.Held {
			key := classMode(l.Item)
			if l.Inherited || l.Assumed || l.Relocked || !l.Pos.IsValid() || tried[l.Pos] || reported[key] || neutral[key] {
				continue
			}
			if !c.unreleased(fn, l) || c.handedOff(fn)[l.Class] || c.away[l.Class] || c.defersRelease(fn, l.Class) {
				continue
			}
			facts := branches.On(j.From, j.To).Steady()
			ret, ok := returnWithout(j.To, facts, l.Class, touches)
			if !ok {
				continue
			}
			if _, again := reacquired(j.To, facts, l, acquires, releases); again {
				continue // a double lock along the path (see checkJoins)
			}
			reported[key] = true
			c.reportJoinLeak(fn, l, j, ret)
		}
	}
}

// returnWithout finds a return reached from block from when no block
// reached from there, on the paths the facts of the path holding the
// lock do not rule out, releases a lock of the class: a release anywhere
// further on may be the one meant for the path holding it (a lock taken
// and released under the same condition, a TryLock tested twice).
func returnWithout(from *ssa.BasicBlock, facts branches.Facts, class string, touches map[ssa.Instruction][]string) (*ssa.Return, bool) {
	seen := map[*ssa.BasicBlock]bool{from: true}
	work := []*ssa.BasicBlock{from}
	var ret *ssa.Return
	for len(work) > 0 {
		b := work[0]
		work = work[1:]
		for _, instr := range b.Instrs {
			if slices.Contains(touches[instr], class) {
				return nil, false
			}
			if r, ok := instr.(*ssa.Return); ok && ret == nil && b != b.Parent().Recover {
				ret = r
			}
		}
		for si, s := range b.Succs {
			if !seen[s] && !facts.Excludes(b, si) {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return ret, ret != nil
}

// defersRelease reports whether fn defers a call that releases a lock of
// the class: the must-held analysis drops a defer registered on some
// paths only at the join, but it runs.
func (c *checker) defersRelease(fn *ssa.Function, class string) bool {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok {
				continue
			}
			if op, ok := c.op(d); ok {
				if op.Kind == lockset.OpRelease && op.Ref.Class == class {
					return true
				}
				continue
			}
			for _, callee := range c.ls.Callees(d) {
				s := c.summary(callee)
				for _, it := range append(append([]lockset.Item(nil), s.Releases...), s.Neutral...) {
					if it.Class == class || it.Param > 0 {
						return true
					}
				}
			}
		}
	}
	return false
}

// reportJoinLeak reports l, held on the edge of j into a join but not on
// every path into it, carried from there to the return ret.
func (c *checker) reportJoinLeak(fn *ssa.Function, l lockset.Lock, j lockset.Join, ret *ssa.Return) {
	where := "one path"
	if p := branchPos(j.From); p.IsValid() {
		where = fmt.Sprintf("the path through line %d", c.pass.Fset.Position(p).Line)
	}
	merge := "where the paths merge"
	if p := firstPos(j.To); p.IsValid() {
		merge = fmt.Sprintf("at line %d, where the paths merge", c.pass.Fset.Position(p).Line)
	}
	msg := fmt.Sprintf("lock leak: %s returns with %s still held on %s but not on others: it is not held on every path through here (%s before the return; missing %s?)",
		lockset.FuncName(fn), l.Class, where, merge, unlockWord(l.Mode))
	r := lockset.Return{Instr: ret, Held: lockset.Set{l}}
	c.reportLeakMsg(fn, l, r, msg)
}

// firstPos returns the position of the first instruction of b that has
// one.
func firstPos(b *ssa.BasicBlock) token.Pos {
	for _, instr := range b.Instrs {
		if p := instr.Pos(); p.IsValid() {
			return p
		}
	}
	return token.NoPos
}
