package race

import (
	"golang.org/x/tools/go/ssa"
)

// A goroutine that closes a channel field, or calls Done on a WaitGroup
// field, in a deferred call has finished once that channel is closed or
// that WaitGroup is done: a function that waits on the same field before
// an access (s.stop <- x; <-s.stop; s.flushInputQueue(), with the send
// loop's defer close(s.stop)) is ordered after everything the goroutine
// did. So has a goroutine whose last act before a return is a send on a
// channel field (w.doneCh <- struct{}{}; return), a close of one or Done
// on a WaitGroup field, once a wait on that field has returned: a Close
// that stops two such loops and receives twice runs after both. Fields are compared by their type and
// name, not by instance.

// exitSignals returns the keys (see checker.fieldKey) of the channel and
// WaitGroup fields that fn closes or calls Done on in a deferred call, or
// signals (a send, close, Done) as the last thing before it returns.
func (c *checker) exitSignals(fn *ssa.Function) map[string]bool {
	if keys, ok := c.exits[fn]; ok {
		return keys
	}
	keys := map[string]bool{}
	quietDefers := true
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if d, ok := instr.(*ssa.Defer); ok && !signalOnly(&d.Call) {
				quietDefers = false
			}
		}
	}
	for _, b := range fn.Blocks {
		if v := finalSignal(b); v != nil && quietDefers {
			if k := c.chanKey(v); k != "" {
				keys[k] = true
			} else if k := c.fieldKey(v); k != "" {
				keys[k] = true
			}
		}
		for _, instr := range b.Instrs {
			d, ok := instr.(*ssa.Defer)
			if !ok || len(d.Call.Args) != 1 {
				continue
			}
			switch {
			case isBuiltin(&d.Call, "close"):
				if k := c.chanKey(d.Call.Args[0]); k != "" {
					keys[k] = true
				}
			case isSyncMethod(&d.Call, "WaitGroup", "Done"):
				if k := c.fieldKey(d.Call.Args[0]); k != "" {
					keys[k] = true
				}
			}
		}
	}
	c.exits[fn] = keys
	return keys
}

// finalSignal returns the channel or WaitGroup that b signals last (a
// send, a close, Done), when only its function's return (and the
// deferred calls it runs) follow in b.
func finalSignal(b *ssa.BasicBlock) ssa.Value {
	if len(b.Instrs) == 0 {
		return nil
	}
	if _, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); !ok {
		return nil
	}
	for i := len(b.Instrs) - 2; i >= 0; i-- {
		switch x := b.Instrs[i].(type) {
		case *ssa.Send:
			return x.Chan
		case *ssa.Call:
			if len(x.Call.Args) == 1 && (isBuiltin(&x.Call, "close") || isSyncMethod(&x.Call, "WaitGroup", "Done")) {
				return x.Call.Args[0]
			}
			return nil
		case *ssa.RunDefers, *ssa.DebugRef:
		default:
			return nil
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
	key := func(v ssa.Value) string {
		if k := c.chanKey(v); k != "" {
			return k // a channel field, received from
		}
		return c.fieldKey(v) // a WaitGroup field, waited on
	}
	in, ok := c.waitIns[fn]
	if !ok {
		in = mustWaitIn(fn, key)
		c.waitIns[fn] = in
	}
	return mustWaitsBefore(in, instr, key)
}

// waitedForExit reports whether access b is made only after waiting on a
// field that one of the functions fns signals as it exits.
func (c *checker) waitedForExit(b *access, fns []*ssa.Function) bool {
	for _, fn := range fns {
		exits := c.exitSignals(fn)
		for _, k := range b.waited {
			if exits[k] {
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
	var out []*ssa.Function
	for _, fn := range c.callIndex().started {
		if c.name(fn) == g.name {
			out = append(out, fn)
		}
	}
	return out
}
