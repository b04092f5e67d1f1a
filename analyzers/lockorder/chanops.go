package lockorder

import (
	"cmp"
	"fmt"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"github.com/confirm-go/confirm/analyzers/warning"
)

// A chanOp is a channel operation of the package on a channel it can
// name: a send, a receive (also of a range loop) or a close.
type chanOp struct {
	fn    *ssa.Function
	instr ssa.Instruction
	pos   token.Pos
	class string // the channel's class: "(pkg.T).ch", "pkg.ch"
	name  string // in the words of the source: "p.ch"
	dir   chanDir
	held  lockset.Set
	// sel marks a case of a select: a peer that can complete a blocked
	// operation, never the blocked operation itself.
	sel bool
	// deferred marks a close in a deferred call, made as the function
	// returns: a peer, never the blocked operation itself.
	deferred bool
}

type chanDir int

const (
	dirSend chanDir = iota
	dirRecv
	dirClose
)

// chanOps returns the channel operations of funcs, by channel class, the
// classes of channels made with a buffer (or of unknown size), and those
// whose making it saw.
func (c *checker) chanOps(funcs []*ssa.Function) (ops map[string][]chanOp, buffered, made map[string]bool) {
	ops = map[string][]chanOp{}
	buffered = map[string]bool{}
	made = map[string]bool{}
	// class names the channel of an operation: a field or package-level
	// variable, or a local variable (whose making is seen).
	class := func(fn *ssa.Function, ch ssa.Value) (string, string, bool) {
		if class, name, ok := c.chanClass(fn, ch, false); ok {
			return class, name, true
		}
		class, name, mk, ok := c.localChanClass(ch)
		if !ok {
			return "", "", false
		}
		made[class] = true
		if !unbuffered(mk) {
			buffered[class] = true
		}
		return class, name, true
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var ch ssa.Value
				var dir chanDir
				pos := instr.Pos()
				switch instr := instr.(type) {
				case *ssa.Send:
					ch, dir = instr.Chan, dirSend
				case *ssa.UnOp:
					if instr.Op != token.ARROW {
						continue
					}
					ch, dir = instr.X, dirRecv
				case *ssa.Call:
					if bi, ok := instr.Call.Value.(*ssa.Builtin); !ok || bi.Name() != "close" || len(instr.Call.Args) != 1 {
						continue
					}
					ch, dir = instr.Call.Args[0], dirClose
				case *ssa.Defer:
					if bi, ok := instr.Call.Value.(*ssa.Builtin); ok && bi.Name() == "close" && len(instr.Call.Args) == 1 {
						if class, name, ok := class(fn, instr.Call.Args[0]); ok {
							ops[class] = append(ops[class], chanOp{fn: fn, instr: instr, pos: pos, class: class, name: name, dir: dirClose, held: c.ls.HeldBefore(instr), deferred: true})
						}
					}
					continue
				case *ssa.Select:
					for _, st := range instr.States {
						d := dirRecv
						if st.Dir == types.SendOnly {
							d = dirSend
						}
						if class, name, ok := class(fn, st.Chan); ok {
							ops[class] = append(ops[class], chanOp{fn: fn, instr: instr, pos: st.Pos, class: class, name: name, dir: d, held: c.ls.HeldBefore(instr), sel: true})
						}
					}
					continue
				case *ssa.Store:
					if mk, ok := instr.Val.(*ssa.MakeChan); ok {
						if class, _, ok := c.chanClass(fn, instr.Addr, true); ok {
							made[class] = true
							if !unbuffered(mk) {
								buffered[class] = true
							}
						}
					}
					continue
				default:
					continue
				}
				class, name, ok := class(fn, ch)
				if !ok {
					continue
				}
				ops[class] = append(ops[class], chanOp{fn: fn, instr: instr, pos: pos, class: class, name: name, dir: dir, held: c.heldBefore(instr)})
			}
		}
	}
	return ops, buffered, made
}

// chanClass names the channel ch (or, when addr is set, the channel
// variable ch points to) after the field or package-level variable that
// holds it; it reports false for other channels (locals, parameters,
// results of calls), whose peers cannot be told.
func (c *checker) chanClass(fn *ssa.Function, ch ssa.Value, addr bool) (class, name string, ok bool) {
	if !addr {
		load, isLoad := ch.(*ssa.UnOp)
		if !isLoad || load.Op != token.MUL {
			return "", "", false
		}
		ch = load.X
	}
	switch ch.(type) {
	case *ssa.FieldAddr, *ssa.Global:
	default:
		return "", "", false
	}
	r, ok := c.ls.Classifier.Ref(ch)
	if !ok || r.Class == "" {
		return "", "", false
	}
	name = c.instName(fn, r.Inst)
	if name == "" {
		name = r.Class
	}
	return r.Class, name, true
}

// unbuffered reports whether mk makes a channel without a buffer.
func unbuffered(mk *ssa.MakeChan) bool {
	k, ok := mk.Size.(*ssa.Const)
	return ok && k.Int64() == 0
}

// checkChannels reports the channel operations that block holding a lock
// when every operation that could complete them (the sends and closes a
// receive waits for, the receives a send waits for) is made holding the
// same lock class, in another function: the goroutine blocked on the
// channel holds the lock its peer waits for. Channels made with a buffer
// (or of a size not known) are not considered, nor sends on a channel
// whose making is not seen. The cases of a select are peers (a
// non-blocking send under the lock, select { case ch <- v: default: },
// needs the lock as a plain send would), but a select is not taken for
// the blocked operation.
func (c *checker) checkChannels(funcs []*ssa.Function) {
	ops, buffered, made := c.chanOps(funcs)
	for _, class := range sortedKeys(ops) {
		if buffered[class] {
			continue
		}
		// One warning per channel and lock class: a receive (the usual
		// shape) rather than the send it waits for.
		reported := map[string]bool{}
		for _, dir := range []chanDir{dirRecv, dirSend} {
			for _, op := range ops[class] {
				if op.dir != dir || op.sel || op.deferred || dir == dirSend && !made[class] {
					continue
				}
				for _, l := range op.held {
					if l.Inherited || !l.Pos.IsValid() || reported[l.Class] {
						continue
					}
					if peer, ok := c.lockedPeers(op, l, ops[class]); ok {
						reported[l.Class] = true
						c.reportLockChannel(op, l, peer)
						break
					}
				}
			}
		}
	}
}

// A lockedPeer is an operation that could complete a blocked channel
// operation, and the lock of the blocked operation's class it needs: held
// at the operation, or (after set) acquired, on every path, before the
// peer's goroutine can come back to the operation (a loop receiving from
// the channel that locks in its body).
type lockedPeer struct {
	op    chanOp
	lock  lockset.Lock
	pos   token.Pos // where the peer holds or takes the lock
	after bool
	once  bool // taken on the way to an operation made once
}

// lockedPeers reports whether the peers of op (the operations that could
// complete it) all need a lock of l's class in a mode that excludes l's,
// held at the operation or taken before the next one, and at least one of
// them is in another function; it returns that one.
func (c *checker) lockedPeers(op chanOp, l lockset.Lock, all []chanOp) (lockedPeer, bool) {
	var found lockedPeer
	ok := false
	for _, p := range all {
		if !complements(op.dir, p.dir) {
			continue
		}
		lp, needs := c.peerLock(p, l, op.fn)
		if !needs {
			return lockedPeer{}, false // a peer that can complete op
		}
		if p.fn != op.fn && !ok {
			found, ok = lp, true
		}
	}
	return found, ok
}

// peerLock reports whether channel operation p needs a lock of l's class
// in a mode that excludes l's: held at p, or acquired on every path from
// p back to p (p in a loop; a peer that does not come back is not
// counted).
func (c *checker) peerLock(p chanOp, l lockset.Lock, blocked *ssa.Function) (lockedPeer, bool) {
	excludes := func(m lockset.Mode) bool { return m == lockset.Write || l.Mode == lockset.Write }
	for _, h := range p.held {
		if h.Class == l.Class && excludes(h.Mode) {
			return lockedPeer{op: p, lock: h, pos: h.Pos}, true
		}
	}
	acq := map[ssa.Instruction]lockset.Acquisition{}
	if t := c.traces[p.fn]; t != nil {
		for _, a := range t.Acquisitions {
			if a.Lock.Class == l.Class && excludes(a.Lock.Mode) && !a.Try && !a.Wait {
				if _, isDefer := a.Instr.(*ssa.Defer); !isDefer {
					acq[a.Instr] = a
				}
			}
		}
	}
	if len(acq) == 0 {
		return lockedPeer{}, false
	}
	if p.deferred {
		// A deferred close runs as the function returns, after every
		// lock it took on the way (a loop locking for each update, with
		// defer close(donec)).
		a := byPos(acq)[0]
		return lockedPeer{op: p, lock: a.Lock, pos: a.Pos, once: true}, true
	}
	if a, ok := acquiredBefore(p.instr, acq); ok && !inLoop(p.instr) {
		// A peer made once, that takes the lock on its way to the
		// operation (a loop taking it for each update before
		// close(donec), or Lock and Unlock first), cannot get past it
		// while the blocked goroutine holds it. A peer in a loop needs
		// the lock before its next round on every path (below).
		if !lockedAfterHandoff(blocked, p.instr, acq) {
			// The blocked operation is in a function literal the
			// peer's function hands over only after it took the
			// lock there: mu.Lock(); publish(callback);
			// mu.Unlock(); <-done. The callback cannot hold the
			// lock before the peer has passed its acquisition.
			return lockedPeer{}, false
		}
		return lockedPeer{op: p, lock: a.Lock, pos: a.Pos, once: true}, true
	}
	var first *lockset.Acquisition
	stop := func(x ssa.Instruction) bool {
		a, ok := acq[x]
		if ok && first == nil {
			first = &a
		}
		return ok
	}
	back, avoided := loopsAvoiding(p.instr, stop)
	if !back && c.calledInLoops(p.fn) {
		// The function runs again in its caller's loop (for { s.syncBatch() },
		// syncBatch receiving, then locking): the way back to p is
		// through its return.
		first = nil
		back, avoided = returnsAvoiding(p.instr, stop)
	}
	if !back || avoided || first == nil {
		return lockedPeer{}, false
	}
	return lockedPeer{op: p, lock: first.Lock, pos: first.Pos, after: true}, true
}

// calledInLoops reports whether fn is only ever called directly, by the
// package (see lockset.Result.CallSites), and each call is in a loop of
// its caller: once one call returns, the next comes.
func (c *checker) calledInLoops(fn *ssa.Function) bool {
	sites := c.ls.CallSites(fn)
	if len(sites) == 0 {
		return false
	}
	for _, s := range sites {
		if !inLoop(s) {
			return false
		}
	}
	return true
}

// returnsAvoiding walks the paths from just after instr within its
// function: back reports whether one reaches a return (not the one after
// a recovered panic), avoided whether one does without passing an
// instruction for which stop is true.
func returnsAvoiding(instr ssa.Instruction, stop func(ssa.Instruction) bool) (back, avoided bool) {
	return pathsAvoiding(instr, stop, func(x ssa.Instruction) bool {
		_, ok := x.(*ssa.Return)
		return ok && x.Block() != x.Parent().Recover
	})
}

// lockedAfterHandoff reports whether, when fn is a function literal that
// the function of instr makes, one of the acquisitions of acq before
// instr can run after the literal is handed over (passed to a call,
// started, stored): the literal may then hold the lock while the peer
// waits for it. It reports true for other functions, whose running the
// peer's function does not order.
func lockedAfterHandoff(fn *ssa.Function, instr ssa.Instruction, acq map[ssa.Instruction]lockset.Acquisition) bool {
	peer := instr.Parent()
	if fn == nil || fn.Parent() != peer {
		return true
	}
	var uses []ssa.Instruction
	for _, b := range peer.Blocks {
		for _, x := range b.Instrs {
			mc, ok := x.(*ssa.MakeClosure)
			if !ok || mc.Fn != fn {
				continue
			}
			for _, r := range *mc.Referrers() {
				if _, ok := r.(*ssa.DebugRef); !ok {
					uses = append(uses, r)
				}
			}
		}
	}
	if len(uses) == 0 {
		return true
	}
	for _, u := range uses {
		for x := range acq {
			if x.Parent() == peer && runsAfter(u, x) && runsAfter(x, instr) {
				return true
			}
		}
	}
	return false
}

// runsAfter reports whether y can run after x in one call of their
// function.
func runsAfter(x, y ssa.Instruction) bool {
	xb, yb := x.Block(), y.Block()
	if xb == yb && slices.Index(xb.Instrs, x) < slices.Index(xb.Instrs, y) {
		return true
	}
	return branches.Reachable(xb)[yb.Index]
}

// acquiredBefore returns an acquisition of acq that can run before instr
// in its function, on a path from the entry that goes on to instr (for
// an instr in a loop, also one after it in its block).
func acquiredBefore(instr ssa.Instruction, acq map[ssa.Instruction]lockset.Acquisition) (lockset.Acquisition, bool) {
	blk := instr.Block()
	for _, a := range byPos(acq) {
		x := a.Instr
		xb := x.Block()
		if xb == nil || xb.Parent() != blk.Parent() {
			continue
		}
		if runsAfter(x, instr) {
			return a, true
		}
	}
	return lockset.Acquisition{}, false
}

// byPos returns the acquisitions of acq in source order.
func byPos(acq map[ssa.Instruction]lockset.Acquisition) []lockset.Acquisition {
	out := make([]lockset.Acquisition, 0, len(acq))
	for _, a := range acq {
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b lockset.Acquisition) int { return cmp.Compare(a.Pos, b.Pos) })
	return out
}

// inLoop reports whether instr can run again in the same call.
func inLoop(instr ssa.Instruction) bool {
	b := instr.Block()
	return branches.Reachable(b)[b.Index]
}

// loopsAvoiding walks the paths from just after instr within its
// function: back reports whether one reaches instr again, avoided whether
// one does without passing an instruction for which stop is true.
func loopsAvoiding(instr ssa.Instruction, stop func(ssa.Instruction) bool) (back, avoided bool) {
	return pathsAvoiding(instr, stop, func(x ssa.Instruction) bool { return x == instr })
}

// pathsAvoiding walks the paths from just after instr within its
// function: back reports whether one reaches an instruction for which
// end is true, avoided whether one does without passing, before it, an
// instruction for which stop is true.
func pathsAvoiding(instr ssa.Instruction, stop, end func(ssa.Instruction) bool) (back, avoided bool) {
	start := instr.Block()
	idx := slices.Index(start.Instrs, instr)
	// seen[b] records the states a block was entered with: 1 clean
	// (no stop passed yet), 2 after a stop.
	seen := make([]uint8, len(start.Parent().Blocks))
	var walk func(b *ssa.BasicBlock, from int, stopped bool)
	walk = func(b *ssa.BasicBlock, from int, stopped bool) {
		for _, x := range b.Instrs[from:] {
			if end(x) {
				back = true
				avoided = avoided || !stopped
				return
			}
			if !stopped && stop(x) {
				stopped = true
			}
		}
		bit := uint8(1)
		if stopped {
			bit = 2
		}
		for _, s := range b.Succs {
			if seen[s.Index]&bit == 0 {
				seen[s.Index] |= bit
				walk(s, 0, stopped)
			}
		}
	}
	walk(start, idx+1, false)
	return back, avoided
}

func complements(a, b chanDir) bool {
	if a == dirRecv {
		return b == dirSend || b == dirClose
	}
	return a == dirSend && b == dirRecv
}

func (d chanDir) verb() string {
	switch d {
	case dirSend:
		return "sends on"
	case dirRecv:
		return "receives from"
	}
	return "closes"
}

func (d chanDir) noun() string {
	if d == dirSend {
		return "send"
	}
	return "receive"
}

func (d chanDir) access() warning.Access {
	if d == dirSend || d == dirClose {
		return warning.AccessSend
	}
	return warning.AccessRecv
}

// reportLockChannel reports op, blocking while it holds l, and its peer,
// an operation that could complete it, which needs l's class.
func (c *checker) reportLockChannel(op chanOp, l lockset.Lock, lp lockedPeer) {
	peer, pl := lp.op, lp.lock
	name := lockset.FuncName(op.fn)
	lockName := c.instName(op.fn, l.Inst)
	if lockName == "" {
		lockName = l.Class
	}
	peerName := lockset.FuncName(peer.fn)
	peerOps := "every " + peer.dir.noun()
	if peer.dir == dirClose || op.dir == dirRecv {
		peerOps = "every send and close"
	}
	needs := "holds " + l.Class + " too"
	switch {
	case lp.after:
		needs = "locks " + l.Class + " before the next one"
	case lp.once:
		needs = "locks " + l.Class + " on its way to it"
	}
	w := &warning.Warning{
		Kind:    warning.LockChannel,
		Objects: []string{l.Class, op.class},
		Message: fmt.Sprintf("lock held across a channel %s: %s %s %s holding %s, and %s on %s (%s) %s: each goroutine waits for the other (deadlock); release the lock before the %s",
			op.dir.noun(), name, op.dir.verb(), op.name, lockName, peerOps, op.class, peerName, needs, op.dir.noun()),
	}
	peerLockPos := lp.pos
	if !peerLockPos.IsValid() {
		peerLockPos = peer.pos
	}
	peerRole := fmt.Sprintf("%s %s holding %s", peer.dir.verb(), peer.name, l.Class)
	switch {
	case lp.after:
		peerRole = fmt.Sprintf("%s %s, then locks %s before the next %s", peer.dir.verb(), peer.name, l.Class, peer.dir.noun())
	case lp.once:
		peerRole = fmt.Sprintf("%s %s after locking %s", peer.dir.verb(), peer.name, l.Class)
	}
	w.Sites = []warning.Site{
		{
			Pos: l.Pos, Role: fmt.Sprintf("%s %s%s", verb(l.Mode), l.Class, via(l.Chain)), Access: access(l.Mode),
			Object: l.Class, Func: name, Chain: l.Chain, FuncLine: c.funcLine(op.fn, l.Pos), Goroutine: c.goroutine(op.fn),
		},
		{
			Pos: op.pos, Role: fmt.Sprintf("%s %s holding %s", op.dir.verb(), op.name, l.Class), Access: op.dir.access(),
			Object: op.class, Held: op.held.Classes(), Func: name, FuncLine: c.funcLine(op.fn, op.pos), Goroutine: c.goroutine(op.fn),
		},
		{
			Pos: peerLockPos, Role: fmt.Sprintf("%s %s%s", verb(pl.Mode), l.Class, via(pl.Chain)), Access: access(pl.Mode),
			Object: l.Class, Func: peerName, Chain: pl.Chain, FuncLine: c.funcLine(peer.fn, peerLockPos), Goroutine: c.goroutine(peer.fn),
		},
		{
			Pos: peer.pos, Role: peerRole, Access: peer.dir.access(),
			Object: op.class, Held: peer.held.Classes(), Func: peerName, FuncLine: c.funcLine(peer.fn, peer.pos), Goroutine: c.goroutine(peer.fn),
		},
	}
	warning.Report(c.pass, c.res, w)
}
