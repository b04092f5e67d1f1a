package race

import (
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/warning"
)

// reportKey identifies a reported finding: one warning per primary
// position and object.
type reportKey struct {
	pos token.Pos
	obj string
}

// siteOf describes access a as a warning site.
func siteOf(a *access, role, goroutine string) warning.Site {
	s := warning.Site{
		Pos:       a.pos,
		Role:      role,
		Access:    warning.AccessRead,
		Object:    a.obj.name,
		Held:      a.held.classes(),
		Func:      funcName(a.fn),
		Chain:     a.chain.names(),
		Goroutine: goroutine,
	}
	if a.write {
		s.Access = warning.AccessWrite
	}
	s.FuncLine = funcLine(a.fn, a.pos)
	return s
}

// funcLine returns the line of pos relative to the line where fn is
// declared, or 0 when either is unknown.
func funcLine(fn *ssa.Function, pos token.Pos) int {
	if fn == nil || !pos.IsValid() || !fn.Pos().IsValid() {
		return 0
	}
	fset := fn.Prog.Fset
	return fset.Position(pos).Line - fset.Position(fn.Pos()).Line
}

// report emits a race warning with the given sites unless one was
// already reported at the same primary position for the same object.
func (c *checker) report(msg string, obj object, sites ...warning.Site) {
	k := reportKey{pos: sites[0].Pos, obj: obj.key}
	if obj.whole != nil {
		k.obj = obj.whole.key
	}
	if c.reported[k] || !sites[0].Pos.IsValid() || c.underContract(sites) {
		return
	}
	c.reported[k] = true
	w := &warning.Warning{
		Kind:    warning.Race,
		Message: msg,
		Sites:   sites,
		Objects: objectNames(obj),
	}
	warning.Report(c.pass, c.res, w)
}

// objectNames returns the names of the memory a finding on obj is
// about: obj, and the whole struct-typed field it was reached through.
func objectNames(obj object) []string {
	if obj.whole != nil {
		return []string{obj.name, obj.whole.name}
	}
	return []string{obj.name}
}
