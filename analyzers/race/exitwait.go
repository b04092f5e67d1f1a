package race

import (
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// A goroutine that closes a channel field, or calls Done on a WaitGroup
// field, in a deferred call has finished once that channel is closed or
// that WaitGroup is done: a function that waits on the same field before
// an access (s.stop <- x; <-s.stop; s.flushInputQueue(), with the send
// loop's defer close(s.stop)) is ordered after everything the goroutine
// did. So has a goroutine whose last act before a return is a close of
// a channel field or Done on a WaitGroup field, once a wait on that field
// has returned; and a goroutine whose last act is a send on a channel
// field it sends on nowhere else (w.doneCh <- struct{}{}; return), once
// the waiter has received from that field as many times as there are
// goroutines ending so (a Close that stops two such loops and receives
// twice runs after both; one receive orders neither). Fields are
// compared by their type and name, not by instance.

// How a goroutine signals a field as it exits (see exitSignals).
const (
	exitBroadcast = 1 // a close or Done: every wait on the field returns after it
	exitSend      = 2 // a send: one receive returns after it
)

// exitSignals returns the keys (see checker.fieldKey) of the channel and
// WaitGroup fields that fn closes or calls Done on in a deferred call, or
// signals (a close, Done, a send on a field it sends on nowhere else) as
// the last thing before it returns, with how (exitBroadcast, exitSend).
func (c *checker) exitSignals(fn *ssa.Function) map[string]int {
	if keys, ok := c.exits[fn]; ok {
		return keys
	}
	keys := map[string]int{}
	quietDefers := true
	sends := map[string]int{} // sends per channel field, select cases included
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			switch x := instr.(type) {
			case *ssa.Defer:
				if !signalOnly(&x.Call) {
					quietDefers = false
				}
			case *ssa.Send:
				sends[c.chanKey(x.Chan)]++
			case *ssa.Select:
				for _, st := range x.States {
					if st.Dir == types.SendOnly {
						sends[c.chanKey(st.Chan)]++
					}
				}
			}
		}
	}
	for _, b := range fn.Blocks {
		if v, send := finalSignal(b); v != nil && quietDefers {
			if k := c.syncFieldKey(v); k != "" && (!send || sends[k] == 1) {
				keys[k] = exitBroadcast
				if send {
					keys[k] = exitSend
				}
			}
		}
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok || len(d.Call.Args) != 1 || !isBuiltin(&d.Call, "close") && !isSyncMethod(&d.Call, "WaitGroup", "Done") {
				continue
			}
			if k := c.syncFieldKey(d.Call.Args[0]); k != "" {
				keys[k] = exitBroadcast
			}
		}
	}
	c.exits[fn] = keys
	return keys
}

// exitSenders returns how many goroutines end with a send on the field
// of key k (see exitSignals): the go statements starting a function of
// the package that does, one for such a function no go statement starts
// (a goroutine's callee); more than any count of receives when one of
// those go statements is in a loop.
func (c *checker) exitSenders(k string) int {
	if n, ok := c.senderCount[k]; ok {
		return n
	}
	n := 0
	idx := c.callIndex()
	for _, fn := range c.funcs {
		if c.exitSignals(fn)[k] != exitSend {
			continue
		}
		gos := idx.starts[fn]
		if len(gos) == 0 {
			n++
		}
		for _, g := range gos {
			if goInLoop(g) {
				n = maxWaitCount + 1
				break
			}
			n++
		}
	}
	c.senderCount[k] = n
	return n
}

// finalSignal returns the channel or WaitGroup that b signals last (a
// send, a close, Done), and whether by a send, when only its function's
// return (and the deferred calls it runs) follow in b.
func finalSignal(b *ssa.BasicBlock) (ssa.Value, bool) {
	switch x := lastBeforeReturn(b).(type) {
	case *ssa.Send:
		return x.Chan, true
	case *ssa.Call:
		if len(x.Call.Args) == 1 && (isBuiltin(&x.Call, "close") || isSyncMethod(&x.Call, "WaitGroup", "Done")) {
			return x.Call.Args[0], false
		}
	}
	return nil, false
}

// lastBeforeReturn returns the instruction of b that only its function's
// return (and the deferred calls it runs) follow, or nil when b does not
// return.
func lastBeforeReturn(b *ssa.BasicBlock) ssa.Instruction {
	if len(b.Instrs) == 0 {
		return nil
	}
	if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); !ok {
		return nil
	}
	for i := len(b.Instrs) - 2; i >= 0; i-- {
		switch x := b.Instrs[i].(type) {
		case *ssa.RunDefers, *ssa.DebugRef:
		default:
			return x
		}
	}
	return nil
}

// signalOnly reports whether call, a deferred call, only signals or
// releases (close, WaitGroup.Done, Unlock): it touches no memory that a
// waiter could use after the goroutine's last send.
func signalOnly(call *ssa.CallCommon) bool {
	return isBuiltin(call, "close") || isSyncMethod(call, "WaitGroup", "Done") ||
		isSyncMethod(call, "Mutex", "Unlock") || isSyncMethod(call, "RWMutex", "Unlock") || isSyncMethod(call, "RWMutex", "RUnlock")
}

// waitedBefore returns the keys of the channel and WaitGroup fields that
// instr's function receives from or waits on along every path to instr
// (see mustWaitIn).
func (c *checker) waitedBefore(instr ssa.Instruction) []string {
	fn := instr.Parent()
	if fn == nil || instr.Block() == nil {
		return nil
	}
	in, ok := c.waitIns[fn]
	if !ok {
		in = mustWaitIn(fn, c.syncFieldKey)
		c.waitIns[fn] = in
	}
	return mustWaitsBefore(in, instr, c.syncFieldKey)
}

// syncFieldKey names the channel field that v, a channel, is loaded from,
// or the WaitGroup field v points to; "" for other values.
func (c *checker) syncFieldKey(v ssa.Value) string {
	if k := c.chanKey(v); k != "" {
		return k
	}
	return c.fieldKey(v)
}

// waitedForExit reports whether access b is made only after waiting on a
// field that one of the functions fns signals as it exits: once for a
// close or Done, once per goroutine ending so for a send (see
// exitSenders).
func (c *checker) waitedForExit(b *access, fns []*ssa.Function) bool {
	for _, fn := range fns {
		for k, how := range c.exitSignals(fn) {
			n := 0
			for _, w := range b.waited {
				if w == k {
					n++
				}
			}
			if n > 0 && (how == exitBroadcast || n >= c.exitSenders(k)) {
				return true
			}
		}
	}
	return false
}

// startedFuncs returns the functions that goroutine g runs first: its
// entries, or, for a goroutine a call left running, the started function
// of that name.
func (c *checker) startedFuncs(g *goroutine) []*ssa.Function {
	if len(g.entries) > 0 {
		return g.entries
	}
	x := c.callIndex()
	if x.startedNamed == nil {
		x.startedNamed = map[string][]*ssa.Function{}
		for _, fn := range x.started {
			x.startedNamed[c.name(fn)] = append(x.startedNamed[c.name(fn)], fn)
		}
	}
	return x.startedNamed[g.name]
}
