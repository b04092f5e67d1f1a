package race

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// Closing a channel orders what was written before it with what is read
// after a receive from it returns. The analyzer uses it for the shape of
// a session that records why it ended and then closes its done channel:
//
//	func (s *Session) Close() {
//		s.errMu.Lock()
//		if s.err == nil {
//			s.err = errClosed
//		}
//		s.errMu.Unlock()
//		close(s.done)
//	}
//
//	func (s *Session) Wait() error {
//		<-s.done
//		return s.err
//	}
//
// Every write of err is made only while err is nil, under a lock held
// since the check (a set-once write), and every close of done comes after
// such a check on the same value: once done is closed, err is set and is
// never written again, so a read after a receive from done meets no
// write. The channel must be one only ever closed, and only through the
// field: nothing sends on it, and it is not handed to other code.
//
// A write followed in its block by the close (h.closeErr = err;
// close(h.closed)) is set once as well: a second run of it closes the
// channel again, which panics.

// closeFacts is what the package's code tells about its channel fields
// and the fields set once before they are closed.
type closeFacts struct {
	// setOnce marks the fields whose every store in the package is a
	// set-once write.
	setOnce map[string]bool
	// setBefore maps a channel field to the fields that are set (a
	// set-once check made, storing a value that is not nil) before every
	// close of the channel.
	setBefore map[string][]string
	// unsafe marks the channel fields that something else than a close,
	// a receive or a comparison uses: a send, or the channel handed to a
	// call or stored, where it may be sent on or closed.
	unsafe map[string]bool
}

// A setOnceWrite is a store into a field made only where a check under
// the same lock found the field nil, or a closing write: a store
// followed in its block by the close of a channel field of the same
// value (h.closeErr = err; close(h.closed)). A second closing write would
// close the channel again, which panics: the field is set once too.
type setOnceWrite struct {
	store *ssa.Store
	check *ssa.BasicBlock // the block whose if checks the field
	close *ssa.Call       // the close after a closing write
}

// closingWrite returns the close of a channel field of the value store
// writes a field of that follows the store in its block, with no other
// store between, or nil.
func closingWrite(store *ssa.Store) *ssa.Call {
	fa, ok := store.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	b := store.Block()
	after := false
	for _, instr := range b.Instrs {
		if instr == store {
			after = true
			continue
		}
		if !after {
			continue
		}
		switch x := instr.(type) {
		case *ssa.Store:
			if y, ok := x.Addr.(*ssa.FieldAddr); ok && y.X == fa.X && y.Field == fa.Field {
				return nil // written again before the close
			}
		case *ssa.Call:
			if !isBuiltin(x.Common(), "close") || len(x.Call.Args) != 1 {
				continue
			}
			load, ok := x.Call.Args[0].(*ssa.UnOp)
			if !ok || load.Op != token.MUL {
				continue
			}
			if ch, ok := load.X.(*ssa.FieldAddr); ok && ch.X == fa.X {
				return x
			}
		}
	}
	return nil
}

// closesAfterSet returns the channels that, closed, publish the write a:
// a set-once write of a field that every write sets once and every close
// of the channel comes after.
func (c *checker) closesAfterSet(instr ssa.Instruction, addr ssa.Value) []string {
	store, ok := instr.(*ssa.Store)
	if !ok {
		return nil
	}
	if _, ok := c.setOnceCheck(store); !ok && closingWrite(store) == nil {
		return nil
	}
	key, ok := fieldKey(addr)
	f := c.closeFacts()
	if !ok || !f.setOnce[key] {
		return nil
	}
	var chans []string
	for ch, fields := range f.setBefore {
		for _, k := range fields {
			if k == key && !f.unsafe[ch] {
				chans = append(chans, ch)
			}
		}
	}
	sort.Strings(chans)
	return chans
}

// closeFacts returns the package's closeFacts, computing them on first
// use.
func (c *checker) closeFacts() *closeFacts {
	if c.closes != nil {
		return c.closes
	}
	f := &closeFacts{setOnce: map[string]bool{}, setBefore: map[string][]string{}, unsafe: map[string]bool{}}
	c.closes = f
	notOnce := map[string]bool{}
	var sets []setOnceWrite
	type closeSite struct {
		call *ssa.Call
		base ssa.Value
	}
	closes := map[string][]closeSite{}
	for _, fn := range c.funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.Store:
					key, ok := fieldKey(instr.Addr)
					if !ok {
						continue
					}
					if isChan(instr.Val.Type()) && !freshChan(instr.Val) {
						f.unsafe[key] = true // another's channel: it may send on it
					}
					if check, ok := c.setOnceCheck(instr); ok {
						f.setOnce[key] = true
						sets = append(sets, setOnceWrite{store: instr, check: check})
					} else if cl := closingWrite(instr); cl != nil {
						f.setOnce[key] = true
						sets = append(sets, setOnceWrite{store: instr, close: cl})
					} else {
						notOnce[key] = true
					}
				case *ssa.UnOp:
					if instr.Op != token.MUL {
						continue
					}
					key, ok := fieldKey(instr.X)
					if !ok || !isChan(instr.Type()) {
						continue
					}
					if exportedField(instr.X) || !closedOrReceived(instr) {
						f.unsafe[key] = true
					}
					for _, r := range *instr.Referrers() {
						if call, ok := r.(*ssa.Call); ok && isBuiltin(call.Common(), "close") {
							closes[key] = append(closes[key], closeSite{call: call, base: instr.X.(*ssa.FieldAddr).X})
						}
					}
				}
			}
		}
	}
	for key := range notOnce {
		delete(f.setOnce, key)
	}
	for ch, sites := range closes {
		var common []string
		for i, s := range sites {
			var here []string
			for _, w := range sets {
				fa := w.store.Addr.(*ssa.FieldAddr)
				switch {
				case w.close != nil:
					if w.close != s.call {
						continue
					}
				case fa.X != s.base || isNilConst(w.store.Val) || !w.check.Dominates(s.call.Block()) || w.check == s.call.Block():
					continue
				}
				k, _ := fieldKey(fa)
				here = append(here, k)
			}
			if i == 0 {
				common = here
			} else {
				common = intersectStrings(common, here)
			}
		}
		f.setBefore[ch] = common
	}
	return f
}

// closedOrReceived reports whether every use of load, a load of a
// channel field, closes it, receives from it (also in a select), takes
// its length, compares it or converts it to a receive-only channel.
func closedOrReceived(load *ssa.UnOp) bool {
	for _, r := range *load.Referrers() {
		switch r := r.(type) {
		case *ssa.Call:
			if !isBuiltin(r.Common(), "close") && !isBuiltin(r.Common(), "len") && !isBuiltin(r.Common(), "cap") {
				return false
			}
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
		case *ssa.Select:
			for _, st := range r.States {
				if st.Chan == load && st.Dir != types.RecvOnly {
					return false
				}
			}
		case *ssa.ChangeType:
			// Handed out as <-chan T: the holder can only receive.
			if ch, ok := r.Type().Underlying().(*types.Chan); !ok || ch.Dir() != types.RecvOnly {
				return false
			}
		case *ssa.BinOp:
			// ch == nil
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// setOnceCheck reports whether store writes a field only where an if
// found the field nil (if x.err == nil { x.err = err }), with a lock held
// from the check to the store, and returns the block of that if.
func (c *checker) setOnceCheck(store *ssa.Store) (*ssa.BasicBlock, bool) {
	fa, ok := store.Addr.(*ssa.FieldAddr)
	if !ok {
		return nil, false
	}
	var check *ssa.BasicBlock
	branchConds(store, func(cond ssa.Value, want bool) bool {
		bin, ok := cond.(*ssa.BinOp)
		isNil := ok && (bin.Op == token.EQL && want || bin.Op == token.NEQ && !want)
		if !isNil {
			return true
		}
		load, ok := bin.X.(*ssa.UnOp)
		if !ok || !isNilConst(bin.Y) {
			load, ok = bin.Y.(*ssa.UnOp)
			if !ok || !isNilConst(bin.X) {
				return true
			}
		}
		la, ok := load.X.(*ssa.FieldAddr)
		if load.Op != token.MUL || !ok || la.X != fa.X || la.Field != fa.Field {
			return true
		}
		if c.heldBefore(load).protects(c.heldBefore(store)) {
			check = bin.Block()
		}
		return false
	})
	return check, check != nil
}

// receivedFrom returns the channel fields of base that a receive, plain
// or in a select case, has returned from on every path to instr.
func receivedFrom(instr ssa.Instruction, base ssa.Value) []string {
	var chans []string
	recv := func(ch ssa.Value) {
		if load, ok := ch.(*ssa.UnOp); ok && load.Op == token.MUL {
			if fa, ok := load.X.(*ssa.FieldAddr); ok && fa.X == base {
				if k, ok := fieldKey(fa); ok {
					chans = append(chans, k)
				}
			}
		}
	}
	for d := instr.Block(); d != nil; d = d.Idom() {
		for _, x := range d.Instrs {
			if x == instr {
				break
			}
			if u, ok := x.(*ssa.UnOp); ok && u.Op == token.ARROW {
				recv(u.X)
			}
		}
	}
	branchConds(instr, func(cond ssa.Value, want bool) bool {
		bin, ok := cond.(*ssa.BinOp)
		if !ok || bin.Op != token.EQL || !want {
			return true
		}
		ext, ok := bin.X.(*ssa.Extract)
		i, isInt := intConst(bin.Y)
		if !ok || !isInt || ext.Index != 0 {
			return true
		}
		sel, ok := ext.Tuple.(*ssa.Select)
		if !ok || i < 0 || int(i) >= len(sel.States) || sel.States[i].Dir != types.RecvOnly {
			return true
		}
		recv(sel.States[i].Chan)
		return true
	})
	return chans
}

// fieldKey returns the key of the field addr selects: its struct type and
// name.
func fieldKey(addr ssa.Value) (string, bool) {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return "", false
	}
	st := derefType(fa.X.Type())
	f := structField(st, fa.Field)
	if f == nil {
		return "", false
	}
	return typeKey(st) + "." + f.Name(), true
}

// freshChan reports whether v is a channel made only to be stored (the
// field of a composite literal, make(chan T) assigned to the field).
func freshChan(v ssa.Value) bool {
	mc, ok := v.(*ssa.MakeChan)
	if !ok {
		return isNilConst(v)
	}
	for _, r := range *mc.Referrers() {
		if _, ok := r.(*ssa.Store); !ok {
			return false
		}
	}
	return true
}

// exportedField reports whether addr selects an exported field, one that
// other packages may use.
func exportedField(addr ssa.Value) bool {
	fa := addr.(*ssa.FieldAddr)
	f := structField(derefType(fa.X.Type()), fa.Field)
	return f != nil && f.Exported()
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

func isNilConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	return ok && k.IsNil()
}

func intersectStrings(a, b []string) []string {
	var out []string
	for _, x := range a {
		for _, y := range b {
			if x == y {
				out = append(out, x)
				break
			}
		}
	}
	return out
}
