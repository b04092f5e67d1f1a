package lockorder

import (
	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// maxLinkDepth bounds how deep links follows the calls that pass both
// instances.
const maxLinkDepth = 2

// links reports whether fn links one of two instances of a class into the
// other's structure: stores b (the pointer itself) into a field of
// a, appends it to a slice field of a, or puts it into a map field of a
// (or the reverse), itself or through a package function it passes both
// to. Such a function builds a hierarchy (r.AddRouter(child) taking the
// parent's lock, then the child's, and making the child's parent r): the
// two instances are locked in the hierarchy's order, and the call with
// them swapped would make a node its own ancestor.
func links(fn *ssa.Function, a, b []ssa.Value) bool {
	return len(a) > 0 && len(b) > 0 && (linksInto(fn, a, b, 0) || linksInto(fn, b, a, 0))
}

// linksInto reports whether fn stores b into the structure of a (see
// links).
func linksInto(fn *ssa.Function, a, b []ssa.Value, depth int) bool {
	for _, blk := range fn.Blocks {
		for _, instr := range blk.Instrs {
			switch instr := instr.(type) {
			case *ssa.Store:
				if _, field := instr.Addr.(*ssa.FieldAddr); field && sources(instr.Addr).any(a) &&
					(isInstance(instr.Val, b) || appends(instr.Val, b)) {
					return true
				}
			case *ssa.MapUpdate:
				if sources(instr.Map).any(a) && isInstance(instr.Value, b) {
					return true
				}
			case *ssa.Call:
				callee := instr.Call.StaticCallee()
				if callee == nil || callee.Blocks == nil || depth >= maxLinkDepth || callee.Pkg != fn.Pkg {
					continue
				}
				var pa, pb []ssa.Value
				for i, arg := range instr.Call.Args {
					if i >= len(callee.Params) {
						break
					}
					if isInstance(arg, a) {
						pa = append(pa, callee.Params[i])
					}
					if isInstance(arg, b) {
						pb = append(pb, callee.Params[i])
					}
				}
				if len(pa) > 0 && len(pb) > 0 && (linksInto(callee, pa, pb, depth+1) || linksInto(callee, pb, pa, depth+1)) {
					return true
				}
			}
		}
	}
	return false
}

// appends reports whether v is the result of append whose added elements
// include b (append(r.children, child)).
func appends(v ssa.Value, b []ssa.Value) bool {
	for _, x := range lockset.Appended(v) {
		if isInstance(x, b) {
			return true
		}
	}
	return false
}

// isInstance reports whether v is one of the instances vs itself, as a
// pointer or converted to an interface, not a value read from it.
func isInstance(v ssa.Value, vs []ssa.Value) bool {
	for {
		switch x := v.(type) {
		case *ssa.MakeInterface:
			v = x.X
			continue
		case *ssa.ChangeType:
			v = x.X
			continue
		}
		break
	}
	for _, w := range vs {
		if v == w {
			return true
		}
	}
	return false
}
