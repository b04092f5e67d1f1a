package sequence

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/confirm-go/confirm/confirm/testselect"
	"golang.org/x/tools/go/ssa"
)

// A memory location is named statically by a key: "field T.f" for field
// f of struct type T, "global p.v" for a package-level variable.

// addrKey returns the key of the location an address points to, or "".
// A local variable captured by a closure lives in a heap Alloc: its key is
// "local file:offset", and the closure's free variable leads to it.
func addrKey(addr ssa.Value) string {
	switch a := addr.(type) {
	case *ssa.FieldAddr:
		return fieldKey(deref(a.X.Type()), a.Field)
	case *ssa.Global:
		return "global " + a.Pkg.Pkg.Path() + "." + a.Name()
	case *ssa.Alloc:
		if a.Heap && a.Parent() != nil {
			pos := a.Parent().Prog.Fset.Position(a.Pos())
			return fmt.Sprintf("local %s:%d (%s)", pos.Filename, pos.Offset, a.Comment)
		}
	case *ssa.FreeVar:
		if b := binding(a); b != nil {
			return addrKey(b)
		}
	}
	return ""
}

func fieldKey(t types.Type, i int) string {
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return ""
	}
	return "field " + types.TypeString(t, nil) + "." + st.Field(i).Name()
}

// keyLabel returns the key in reviewer words: the location qualified by
// package name, e.g. "races.Stats.open".
func keyLabel(key string) string {
	if rest, ok := strings.CutPrefix(key, "local "); ok {
		if i := strings.LastIndex(rest, " ("); i >= 0 {
			return "local " + strings.TrimSuffix(rest[i+2:], ")")
		}
	}
	key = strings.TrimPrefix(strings.TrimPrefix(key, "field "), "global ")
	if i := strings.LastIndex(key, "/"); i >= 0 {
		key = key[i+1:]
	}
	return key
}

// A keyUse is a memory location whose loaded value flows into a branch
// condition. polarity is +1 when the condition is the loaded boolean
// itself, -1 when it is its negation, 0 otherwise.
type keyUse struct {
	key      string
	polarity int
}

// maxCallDepth bounds how deep condUses follows a condition into the
// return values of the functions it calls.
const maxCallDepth = 3

// condUses returns the memory locations whose values flow into v, by
// walking its def-use chains backwards: through operators, phis,
// conversions, and the results of calls to functions with bodies, down
// to loads of fields and globals (atomic loads included).
func condUses(v ssa.Value) []keyUse {
	w := &useWalker{seen: map[ssa.Value]bool{}}
	w.walk(v, 1, 0)
	return w.uses
}

type useWalker struct {
	seen map[ssa.Value]bool
	uses []keyUse
}

func (w *useWalker) add(key string, polarity int) {
	if key == "" {
		return
	}
	for _, u := range w.uses {
		if u.key == key {
			return
		}
	}
	w.uses = append(w.uses, keyUse{key: key, polarity: polarity})
}

func (w *useWalker) walk(v ssa.Value, polarity, depth int) {
	if v == nil || w.seen[v] {
		return
	}
	w.seen[v] = true
	switch v := v.(type) {
	case *ssa.UnOp:
		switch v.Op {
		case token.MUL:
			if k := addrKey(v.X); k != "" {
				w.add(k, polarity)
				return
			}
			w.walk(v.X, 0, depth)
		case token.NOT:
			w.walk(v.X, -polarity, depth)
		default:
			w.walk(v.X, 0, depth)
		}
	case *ssa.BinOp:
		w.walk(v.X, 0, depth)
		w.walk(v.Y, 0, depth)
	case *ssa.Phi:
		for _, e := range v.Edges {
			w.walk(e, polarity, depth)
		}
	case *ssa.Field:
		w.add(fieldKey(v.X.Type(), v.Field), polarity)
		w.walk(v.X, 0, depth)
	case *ssa.Call:
		w.walkCall(v, polarity, depth)
	case *ssa.Extract:
		w.walk(v.Tuple, 0, depth)
	case *ssa.Convert, *ssa.ChangeType, *ssa.MakeInterface, *ssa.TypeAssert,
		*ssa.Index, *ssa.Lookup, *ssa.Slice, *ssa.FieldAddr, *ssa.IndexAddr:
		for _, op := range v.(ssa.Instruction).Operands(nil) {
			w.walk(*op, 0, depth)
		}
	}
}

func (w *useWalker) walkCall(call *ssa.Call, polarity, depth int) {
	common := call.Common()
	if _, ok := common.Value.(*ssa.Builtin); ok {
		for _, a := range common.Args {
			w.walk(a, 0, depth)
		}
		return
	}
	callee := common.StaticCallee()
	if callee == nil {
		return
	}
	if isAtomic(callee, "Load") && len(common.Args) > 0 {
		w.add(addrKey(common.Args[0]), polarity)
		return
	}
	if callee.Blocks == nil || depth >= maxCallDepth {
		return
	}
	for _, b := range callee.Blocks {
		if ret, ok := b.Instrs[len(b.Instrs)-1].(*ssa.Return); ok {
			for _, r := range ret.Results {
				w.walk(r, polarity, depth+1)
			}
		}
	}
}

// isAtomic reports whether fn is a sync/atomic function or method whose
// name starts with one of the prefixes.
func isAtomic(fn *ssa.Function, prefixes ...string) bool {
	if fn.Pkg == nil && fn.Object() == nil {
		return false
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return false
	}
	for _, p := range prefixes {
		if strings.HasPrefix(obj.Name(), p) {
			return true
		}
	}
	return false
}

// A def is a store to a memory location.
type def struct {
	key   string
	fn    *ssa.Function
	instr ssa.Instruction
	// pos is where an observe point before the store goes; it is
	// computed only for the stores a sequence may use (see
	// generator.stores).
	pos token.Position
	// value is the stored value, when known.
	value ssa.Value
}

// storeIndex returns the stores of the program's functions by key, one
// per source position (package variants share positions), in position
// order.
func storeIndex(prog *testselect.Program) map[string][]def {
	index := map[string][]def{}
	seen := map[token.Position]bool{}
	for _, fn := range prog.Functions() {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				d, ok := storeOf(instr)
				if !ok {
					continue
				}
				raw := prog.Fset.Position(instr.Pos())
				if seen[raw] {
					continue
				}
				seen[raw] = true
				d.fn = fn
				index[d.key] = append(index[d.key], d)
			}
		}
	}
	return index
}

// storeOf describes instr as a store, if it is one: a Store, an update of
// a map held in a field or global, or an atomic store, add, swap or
// compare-and-swap.
func storeOf(instr ssa.Instruction) (def, bool) {
	switch s := instr.(type) {
	case *ssa.Store:
		if k := addrKey(s.Addr); k != "" {
			return def{key: k, instr: s, value: s.Val}, true
		}
	case *ssa.MapUpdate:
		if load, ok := s.Map.(*ssa.UnOp); ok && load.Op == token.MUL {
			if k := addrKey(load.X); k != "" {
				return def{key: k, instr: s}, true
			}
		}
	case *ssa.Call:
		callee := s.Call.StaticCallee()
		if callee == nil || !isAtomic(callee, "Store", "Add", "Swap", "CompareAndSwap", "And", "Or") || len(s.Call.Args) < 2 {
			return def{}, false
		}
		if k := addrKey(s.Call.Args[0]); k != "" {
			return def{key: k, instr: s, value: s.Call.Args[len(s.Call.Args)-1]}, true
		}
	}
	return def{}, false
}

// defPos returns where an observe point before the store d goes.
func defPos(prog *testselect.Program, d def) token.Position {
	if c, ok := d.instr.(*ssa.Call); ok {
		return prog.StmtPos(c)
	}
	return storePos(prog, d.instr.Pos())
}

// storePos returns where an observe point goes for a store at pos: the
// start of the assigned expression of an assignment, or the start of the
// innermost statement.
func storePos(prog *testselect.Program, pos token.Pos) token.Position {
	at := prog.Fset.Position(pos)
	path, err := prog.PathAt(at)
	if err != nil {
		return at
	}
	for _, n := range path {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, lhs := range n.Lhs {
				if start, end := spanOf(prog, lhs); start.Offset <= at.Offset && at.Offset < end.Offset {
					return start
				}
			}
			return prog.Fset.Position(n.Pos())
		case ast.Stmt:
			return prog.Fset.Position(n.Pos())
		}
	}
	return at
}

// contradicts reports whether storing d's value makes a condition that
// uses d's location with the given polarity take the other successor
// than succ (0: true, 1: false). Only constant booleans are judged.
func contradicts(d def, polarity, succ int) bool {
	c, ok := d.value.(*ssa.Const)
	if !ok || polarity == 0 || c.Value == nil || c.Value.Kind() != constant.Bool {
		return false
	}
	cond := constant.BoolVal(c.Value)
	if polarity < 0 {
		cond = !cond
	}
	return cond != (succ == 0)
}
