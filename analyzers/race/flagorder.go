package race

import (
	"go/constant"
	"go/types"

	"golang.org/x/tools/go/ssa"
)

// publishOrdered reports whether accesses a and b are ordered by what one
// publishes and the other acquires. An atomic flag: one writes and then
// sets the flag (c.start = now; c.ready.Store(true)), the other reads
// only after seeing it set (if c.ready.Load() { use(c.start) }); the
// Store releases what was written before it and the Load that sees it
// acquires it (the double-checked initialization of a lazily started
// clock or pool). A closed channel: see closeorder.go.
func publishOrdered(a, b *access) bool {
	return shareKey(a.publishes(), b.acquires()) || shareKey(b.publishes(), a.acquires())
}

func shareKey(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// appendKey appends key to keys unless it is "".
func appendKey(keys []string, key string) []string {
	if key == "" {
		return keys
	}
	return append(keys, key)
}

// flagStoredAfter returns the atomic flag that instr's block sets to a
// non-zero value after instr (flag.Store(true)), or "".
func flagStoredAfter(instr ssa.Instruction) string {
	b := instr.Block()
	if b == nil {
		return ""
	}
	after := false
	for _, x := range b.Instrs {
		if x == instr {
			after = true
			continue
		}
		call, ok := x.(*ssa.Call)
		if !after || !ok {
			continue
		}
		if key, ok := atomicFlagCall(call, "Store"); ok && len(call.Call.Args) == 2 && nonZeroConst(call.Call.Args[1]) {
			return key
		}
	}
	return ""
}

// flagLoadedTrue returns the atomic flag that must have been loaded as
// non-zero for instr to run: a block dominating it is entered only from
// the true side of if flag.Load() (or the false side of if
// !flag.Load()); "" if none.
func flagLoadedTrue(instr ssa.Instruction) string {
	var key string
	branchConds(instr, func(cond ssa.Value, want bool) bool {
		if call, ok := cond.(*ssa.Call); ok && want {
			if k, ok := atomicFlagCall(call, "Load"); ok {
				key = k
				return false
			}
		}
		return true
	})
	return key
}

// atomicFlagCall recognizes a call of method name of a sync/atomic type
// (Bool, Int32, Uint32, ...) on a field, and returns the field's key.
func atomicFlagCall(call *ssa.Call, name string) (string, bool) {
	fn := call.Call.StaticCallee()
	if fn == nil || fn.Name() != name || fn.Signature.Recv() == nil || len(call.Call.Args) == 0 {
		return "", false
	}
	n, ok := types.Unalias(derefType(fn.Signature.Recv().Type())).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "sync/atomic" {
		return "", false
	}
	return fieldKey(call.Call.Args[0])
}

// nonZeroConst reports whether v is a constant true, non-zero number or
// non-empty string.
func nonZeroConst(v ssa.Value) bool {
	k, ok := v.(*ssa.Const)
	if !ok || k.Value == nil {
		return false
	}
	switch k.Value.Kind() {
	case constant.Bool:
		return constant.BoolVal(k.Value)
	case constant.Int, constant.Float:
		return constant.Sign(k.Value) != 0
	case constant.String:
		return constant.StringVal(k.Value) != ""
	}
	return false
}
