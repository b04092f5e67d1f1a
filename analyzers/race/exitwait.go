package race

import (
	"golang.org/x/tools/go/ssa"
)

// A goroutine that closes a channel field, or calls Done on a WaitGroup
// field, in a deferred call has finished once that channel is closed or
// that WaitGroup is done: a function that waits on the same field before
// an access (s.stop <- x; <-s.stop; s.flushInputQueue(), with the send
// loop's defer close(s.stop)) is ordered after everything the goroutine
// did. Fields are compared by their type and name, not by instance.

// exitSignals returns the keys (see checker.fieldKey) of the channel and
// WaitGroup fields that fn closes or calls Done on in a deferred call.
func (c *checker) exitSignals(fn *ssa.Function) map[string]bool {
	if keys, ok := c.exits[fn]; ok {
		return keys
	}
	keys := map[string]bool{}
	for _, b := range fn.Blocks {
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

// waitedBefore returns the keys of the channel and WaitGroup fields that
// instr's function receives from or waits on before instr, on every path
// (a wait that dominates it).
func (c *checker) waitedBefore(instr ssa.Instruction) []string {
	fn := instr.Parent()
	if fn == nil || instr.Block() == nil {
		return nil
	}
	var keys []string
	for _, b := range fn.Blocks {
		if !b.Dominates(instr.Block()) {
			continue
		}
		for _, w := range b.Instrs {
			if w == instr {
				break
			}
			obj := waitedOn(w)
			if obj == nil {
				continue
			}
			k := c.chanKey(obj) // a channel field, received from
			if k == "" {
				k = c.fieldKey(obj) // a WaitGroup field, waited on
			}
			if k != "" {
				keys = append(keys, k)
			}
		}
	}
	return keys
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
		if funcName(fn) == g.name {
			out = append(out, fn)
		}
	}
	return out
}
