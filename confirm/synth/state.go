package synth

import (
	"go/token"
	"go/types"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// maxWriters bounds the harnesses that add one state-building call each.
const maxWriters = 3

// writers returns the exported methods of the receiver, other than the
// sides, that store into a field the sides read (a map they range over, a
// flag they test): calls that give the sides state to work on. They come
// in name order.
func (b *builder) writers(sides []side) []*types.Func {
	if b.recvType == nil {
		return nil
	}
	reads := make(map[string]bool)
	for _, s := range sides {
		b.fields(s.fn, 2, reads, nil)
	}
	var out []*types.Func
	ms := types.NewMethodSet(b.recvType)
	for i := range ms.Len() {
		m, ok := ms.At(i).Obj().(*types.Func)
		if !ok || !m.Exported() {
			continue
		}
		side := false
		for _, s := range sides {
			if m.Origin().Pos() == s.fn.Pos() {
				side = true
			}
		}
		if side {
			continue
		}
		writes := make(map[string]bool)
		b.fields(m.Origin(), 2, nil, writes)
		for k := range writes {
			if reads[k] {
				out = append(out, m.Origin())
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// fields adds the fields fn reads to reads and those it writes to writes
// (either may be nil), following static calls within the package depth
// levels deep. A map's contents count as its field.
func (b *builder) fields(obj *types.Func, depth int, reads, writes map[string]bool) {
	fn := b.wr.prog.SSA.FuncValue(obj)
	if fn == nil {
		return
	}
	seen := make(map[*ssa.Function]bool)
	var walk func(fn *ssa.Function, depth int)
	walk = func(fn *ssa.Function, depth int) {
		if seen[fn] {
			return
		}
		seen[fn] = true
		for _, blk := range fn.Blocks {
			for _, instr := range blk.Instrs {
				switch instr := instr.(type) {
				case *ssa.UnOp:
					if k := fieldKey(instr.X); k != "" && instr.Op == token.MUL && reads != nil {
						reads[k] = true
					}
				case *ssa.Store:
					if k := fieldKey(instr.Addr); k != "" && writes != nil {
						writes[k] = true
					}
				case *ssa.MapUpdate:
					if k := loadedField(instr.Map); k != "" && writes != nil {
						writes[k] = true
					}
				case ssa.CallInstruction:
					c := instr.Common()
					if bi, ok := c.Value.(*ssa.Builtin); ok && bi.Name() == "delete" && len(c.Args) > 0 && writes != nil {
						if k := loadedField(c.Args[0]); k != "" {
							writes[k] = true
						}
					}
					if callee := c.StaticCallee(); callee != nil && depth > 0 && callee.Pkg != nil && fn.Pkg != nil &&
						callee.Pkg.Pkg.Path() == fn.Pkg.Pkg.Path() {
						walk(callee, depth-1)
					}
				}
			}
		}
		for _, anon := range fn.AnonFuncs {
			walk(anon, depth)
		}
	}
	walk(fn, depth)
}

// fieldKey names the field addr points to, or "".
func fieldKey(addr ssa.Value) string {
	fa, ok := addr.(*ssa.FieldAddr)
	if !ok {
		return ""
	}
	st := deref(fa.X.Type())
	n, ok := types.Unalias(st).(*types.Named)
	if !ok {
		return ""
	}
	s, ok := n.Underlying().(*types.Struct)
	if !ok || fa.Field >= s.NumFields() {
		return ""
	}
	return typeKey(n.Origin()) + "." + s.Field(fa.Field).Name()
}

// loadedField names the field v was loaded from, or "".
func loadedField(v ssa.Value) string {
	if u, ok := v.(*ssa.UnOp); ok && u.Op == token.MUL {
		return fieldKey(u.X)
	}
	return ""
}
