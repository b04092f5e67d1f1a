package lockorder

import (
	"fmt"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// localChan returns the channel that ch, a channel value of a function,
// is when a local variable of the function that makes it holds it: the
// channel made there (done := make(chan bool)), used there or in the
// function literals that capture the variable, and nowhere else (see
// confined). It returns nil for other channels.
func (c *checker) localChan(ch ssa.Value) *ssa.MakeChan {
	for depth := 0; depth < 8; depth++ {
		switch v := ch.(type) {
		case *ssa.MakeChan:
			if !confined(v, map[ssa.Value]bool{}) {
				return nil
			}
			return v
		case *ssa.ChangeType:
			ch = v.X // a conversion to a directional channel
		case *ssa.UnOp:
			// A load of a variable function literals capture, which
			// holds only the channel stored first.
			if v.Op != token.MUL {
				return nil
			}
			a := c.cellOf(v.X)
			if a == nil {
				return nil
			}
			ch = lockset.CellValue(a)
			if ch == nil {
				return nil
			}
		case *ssa.FreeVar:
			b := c.ls.Classifier.Binding(v)
			if b == nil {
				return nil
			}
			ch = b
		default:
			return nil
		}
	}
	return nil
}

// cellOf returns the captured variable v is, or whose address a function
// literal holds as the free variable v.
func (c *checker) cellOf(v ssa.Value) *ssa.Alloc {
	for depth := 0; depth < 8; depth++ {
		switch x := v.(type) {
		case *ssa.Alloc:
			return x
		case *ssa.FreeVar:
			v = c.ls.Classifier.Binding(x)
		default:
			return nil
		}
	}
	return nil
}

// confined reports whether every use of the channel value v is a channel
// operation on it (send, receive, select case, close, len, cap), a
// conversion to a directional channel used so, a capture by a function
// literal whose uses are confined too, or the one store into a variable
// that function literals capture (see lockset.CellValue) whose loads
// are confined: nothing hands the channel to code whose operations on it
// are not seen.
func confined(v ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[v] {
		return true
	}
	seen[v] = true
	refs := v.Referrers()
	if refs == nil {
		return true
	}
	for _, r := range *refs {
		switch r := r.(type) {
		case *ssa.Send:
			if r.Chan != v {
				return false // sent as a value
			}
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
		case *ssa.Select:
			for _, st := range r.States {
				if st.Send == v {
					return false
				}
			}
		case *ssa.Call:
			bi, ok := r.Call.Value.(*ssa.Builtin)
			if !ok || (bi.Name() != "close" && bi.Name() != "len" && bi.Name() != "cap") {
				return false
			}
		case *ssa.Defer:
			bi, ok := r.Call.Value.(*ssa.Builtin)
			if !ok || bi.Name() != "close" {
				return false
			}
		case *ssa.ChangeType:
			if !confined(r, seen) {
				return false
			}
		case *ssa.Store:
			a, ok := r.Addr.(*ssa.Alloc)
			if !ok || r.Val != v || lockset.CellValue(a) != v || !loadsConfined(a, seen) {
				return false
			}
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return false
			}
			for i, b := range r.Bindings {
				if b == v && (i >= len(fn.FreeVars) || !confined(fn.FreeVars[i], seen)) {
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// loadsConfined reports whether the loads of the captured variable a
// (a cell, or a free variable holding its address), in its function and
// in the function literals capturing it, are confined channel values.
func loadsConfined(a ssa.Value, seen map[ssa.Value]bool) bool {
	if seen[a] {
		return true
	}
	seen[a] = true
	for _, r := range *a.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL || !confined(r, seen) {
				return false
			}
		case *ssa.Store:
			// the one store CellValue allows
		case *ssa.MakeClosure:
			fn, ok := r.Fn.(*ssa.Function)
			if !ok {
				return false
			}
			for i, b := range r.Bindings {
				if b == a && (i >= len(fn.FreeVars) || !loadsConfined(fn.FreeVars[i], seen)) {
					return false
				}
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// localChanClass names a channel of a local variable (see localChan):
// its class is the function that makes it and the variable's name, as
// the closures capturing it call it ("pkg.TestRun.done"); without one,
// the line that makes it.
func (c *checker) localChanClass(ch ssa.Value) (class, name string, mk *ssa.MakeChan, ok bool) {
	mk = c.localChan(ch)
	if mk == nil {
		return "", "", nil, false
	}
	name = capturedName(mk)
	if name == "" {
		name = fmt.Sprintf("the channel made at line %d", c.pass.Fset.Position(mk.Pos()).Line)
	}
	return lockset.FuncName(mk.Parent()) + "." + name, name, mk, true
}

// capturedName returns the name of the variable holding mk that a
// function literal captures, or "".
func capturedName(mk *ssa.MakeChan) string {
	vals := []ssa.Value{mk}
	for len(vals) > 0 {
		v := vals[0]
		vals = vals[1:]
		refs := v.Referrers()
		if refs == nil {
			continue
		}
		for _, r := range *refs {
			switch r := r.(type) {
			case *ssa.ChangeType:
				vals = append(vals, r)
			case *ssa.Store:
				if a, ok := r.Addr.(*ssa.Alloc); ok && r.Val == v && a.Comment != "" {
					return a.Comment
				}
			case *ssa.MakeClosure:
				fn, ok := r.Fn.(*ssa.Function)
				if !ok {
					continue
				}
				for i, b := range r.Bindings {
					if b == v && i < len(fn.FreeVars) {
						return fn.FreeVars[i].Name()
					}
				}
			}
		}
	}
	return ""
}
