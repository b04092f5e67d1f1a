package synth

import (
	"fmt"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/confirm-go/confirm/analyzers/warning"
)

// A builder writes the statements of one warning's harnesses: the
// receivers' set-up and the calls.
type builder struct {
	wr        *Writer
	recv      *types.Named // the receiver's generic origin, nil without one
	recvType  types.Type   // the type of the variable recv (instantiated)
	needOther bool         // a side takes a second value of the receiver's type
	setup     []string
	// durations is set when a call passes a time.Duration (of 1ns): the
	// harness then lets time pass before the concurrent calls, so that
	// what expires after it has expired.
	durations bool
}

// typeArgCands are the type arguments tried for a type parameter, in order.
var typeArgCands = []types.Type{types.Typ[types.String], types.Typ[types.Int]}

// typeArgs chooses a type argument for each of tps: the first of
// typeArgCands that satisfies its constraint.
func typeArgs(tps *types.TypeParamList) ([]types.Type, error) {
	var out []types.Type
	for i := range tps.Len() {
		tp := tps.At(i)
		iface, _ := tp.Constraint().Underlying().(*types.Interface)
		found := false
		for _, c := range typeArgCands {
			if iface == nil || types.Satisfies(c, iface) {
				out = append(out, c)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: no simple type satisfies the constraint %s of %s", ErrCannot, tp.Constraint(), tp.Obj().Name())
		}
	}
	return out, nil
}

// A ctor is a way to make the receiver.
type ctor struct {
	fn     *types.Func
	sig    *types.Signature // instantiated
	targs  []types.Type
	direct bool // returns the receiver's type itself
}

// receiver writes the set-up of recv (and of other, when a side takes a
// second value of the type): the package's constructor that returns a
// value with the sides' methods, with the fewest parameters, or the zero
// value of an exported type.
func (b *builder) receiver(recv *types.Named, sides []side) error {
	b.recv = recv
	for _, s := range sides {
		sig := s.fn.Type().(*types.Signature)
		for i := range sig.Params().Len() {
			if b.isRecv(sig.Params().At(i).Type()) {
				b.needOther = true
			}
		}
	}
	c, err := b.findCtor(recv, sides)
	if err != nil {
		return err
	}
	var expr string
	results, errResult := 1, false
	if c != nil {
		b.recvType = c.sig.Results().At(0).Type()
		args, err := b.args(c.sig, true, "", "")
		if err != nil {
			return fmt.Errorf("%w: constructor %s: %w", ErrCannot, c.fn.Name(), err)
		}
		expr = c.fn.Name() + b.typeArgList(c.targs) + "(" + args + ")"
		results = c.sig.Results().Len()
		errResult = results == 2 && isError(c.sig.Results().At(1).Type())
	} else {
		if !recv.Obj().Exported() {
			// A client cannot make one: only what the package hands out.
			return fmt.Errorf("%w: no exported function of %s returns a %s, and its clients cannot make one", errNoMaker, b.wr.pkgPath, recv.Obj().Name())
		}
		t := types.Type(recv)
		if recv.TypeParams().Len() > 0 {
			targs, err := typeArgs(recv.TypeParams())
			if err != nil {
				return err
			}
			if t, err = types.Instantiate(nil, recv, targs, true); err != nil {
				return fmt.Errorf("%w: instantiating %s: %w", ErrCannot, recv.Obj().Name(), err)
			}
		}
		b.recvType = types.NewPointer(t)
		expr = "new(" + types.TypeString(t, b.qualifier) + ")"
	}
	vars := []string{b.wr.recv}
	if b.needOther {
		vars = append(vars, b.wr.other)
	}
	for _, v := range vars {
		switch {
		case errResult:
			e := b.wr.err
			b.setup = append(b.setup, fmt.Sprintf("%s, %s := %s\nif %s != nil {\nt.Skipf(\"the constructor fails: %%v\", %s)\n}", v, e, expr, e, e))
		default:
			b.setup = append(b.setup, fmt.Sprintf("%s%s := %s", v, strings.Repeat(", _", results-1), expr))
		}
	}
	return nil
}

// findCtor returns the exported function of recv's package whose first
// result has every side's method: one returning the receiver's own type
// first, then the one with the fewest parameters. It returns nil when
// there is none.
func (b *builder) findCtor(recv *types.Named, sides []side) (*ctor, error) {
	pkg := recv.Obj().Pkg()
	var cands []*ctor
	for _, name := range pkg.Scope().Names() {
		fn, ok := pkg.Scope().Lookup(name).(*types.Func)
		if !ok || !fn.Exported() || strings.HasSuffix(b.wr.prog.Fset.Position(fn.Pos()).Filename, "_test.go") {
			continue
		}
		sig := fn.Type().(*types.Signature)
		if sig.Results().Len() == 0 {
			continue
		}
		c := &ctor{fn: fn, sig: sig}
		if sig.TypeParams().Len() > 0 {
			targs, err := typeArgs(sig.TypeParams())
			if err != nil {
				continue
			}
			inst, err := types.Instantiate(nil, sig, targs, true)
			if err != nil {
				continue
			}
			c.sig, c.targs = inst.(*types.Signature), targs
		}
		r := c.sig.Results().At(0).Type()
		if !hasMethods(r, sides) {
			continue
		}
		if n, ok := types.Unalias(deref(r)).(*types.Named); ok && typeKey(n.Origin()) == typeKey(recv) {
			c.direct = true
		}
		cands = append(cands, c)
	}
	if len(cands) == 0 {
		return nil, nil
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, c := cands[i], cands[j]
		if a.direct != c.direct {
			return a.direct
		}
		return a.sig.Params().Len() < c.sig.Params().Len()
	})
	return cands[0], nil
}

// hasMethods reports whether a variable of type t has the methods of the
// sides that have receivers.
func hasMethods(t types.Type, sides []side) bool {
	for _, s := range sides {
		if s.recv == nil {
			continue
		}
		obj, _, _ := types.LookupFieldOrMethod(t, true, s.fn.Pkg(), s.fn.Name())
		m, ok := obj.(*types.Func)
		if !ok || m.Origin().Pos() != s.fn.Pos() {
			return false
		}
	}
	return true
}

// defCall returns the call that makes the store at pos: a call of the
// exported method or function that reaches it, other than the sides and
// the constructors.
func (b *builder) defCall(pos token.Position, sides []side) (string, bool) {
	e, err := b.wr.entry(warning.Site{Position: pos}, true)
	if err != nil {
		return "", false
	}
	for _, s := range sides {
		if s.fn.Pos() == e.fn.Pos() {
			return "", false
		}
	}
	if e.recv == nil {
		sig := e.fn.Type().(*types.Signature)
		for i := range sig.Results().Len() {
			if b.isRecv(sig.Results().At(i).Type()) {
				return "", false // a constructor
			}
		}
	} else if b.recv == nil || typeKey(e.recv) != typeKey(b.recv) {
		return "", false
	}
	call, err := b.call(e.fn, b.wr.recv, b.wr.other)
	return call, err == nil
}

// call returns the call of fn: a method on self, with other for the
// parameters of the receiver's type; or a function.
func (b *builder) call(fn *types.Func, self, other string) (string, error) {
	sig := fn.Type().(*types.Signature)
	prefix := fn.Name()
	if sig.Recv() != nil {
		obj, _, _ := types.LookupFieldOrMethod(b.recvType, true, fn.Pkg(), fn.Name())
		m, ok := obj.(*types.Func)
		if !ok {
			return "", fmt.Errorf("%w: %s has no method %s", ErrCannot, b.recvType, fn.Name())
		}
		sig = m.Type().(*types.Signature)
		prefix = self + "." + fn.Name()
	} else if sig.TypeParams().Len() > 0 {
		targs, err := typeArgs(sig.TypeParams())
		if err != nil {
			return "", err
		}
		inst, err := types.Instantiate(nil, sig, targs, true)
		if err != nil {
			return "", fmt.Errorf("%w: instantiating %s: %w", ErrCannot, fn.Name(), err)
		}
		sig = inst.(*types.Signature)
		prefix += b.typeArgList(targs)
	}
	args, err := b.args(sig, false, self, other)
	if err != nil {
		return "", fmt.Errorf("%w: calling %s: %w", ErrCannot, fn.Name(), err)
	}
	return prefix + "(" + args + ")", nil
}

// args returns the arguments of a call of sig: a simple valid value of
// each parameter's type (see value), other for a value of the receiver's
// type, and none for a variadic parameter.
func (b *builder) args(sig *types.Signature, ctor bool, self, other string) (string, error) {
	var out []string
	n := sig.Params().Len()
	if sig.Variadic() {
		n--
	}
	for i := range n {
		t := sig.Params().At(i).Type()
		if b.isRecv(t) && other != "" {
			v := other
			if !b.needOther {
				v = self
			}
			if _, ptr := types.Unalias(t).(*types.Pointer); !ptr {
				v = "*" + v
			}
			out = append(out, v)
			continue
		}
		v, err := b.value(t, ctor)
		if err != nil {
			return "", err
		}
		out = append(out, v)
	}
	return strings.Join(out, ", "), nil
}

// isRecv reports whether t is the receiver's type or a pointer to it.
func (b *builder) isRecv(t types.Type) bool {
	if b.recv == nil {
		return false
	}
	n, ok := types.Unalias(deref(t)).(*types.Named)
	return ok && typeKey(n.Origin()) == typeKey(b.recv)
}

// value returns a Go expression of type t that a harness passes: simple,
// valid, and non-nil where nil would stop the code early: "k" for
// strings, 1 for integers (16 in a constructor: a size), true, a function
// that does nothing, an empty map, a buffered channel, a new struct,
// context.Background(), t for *testing.T; the zero value of a named basic
// type of another package in a constructor (a time.Duration of 0: the
// default, no background work), nil for slices and for interfaces other
// than the empty one, which gets 1.
func (b *builder) value(t types.Type, ctor bool) (string, error) {
	if !b.nameable(t) {
		return "", fmt.Errorf("a parameter has type %s, which a test of %s cannot name", t, b.wr.pkgPath)
	}
	ts := func(t types.Type) string { return types.TypeString(t, b.qualifier) }
	named, _ := types.Unalias(t).(*types.Named)
	foreign := named != nil && (named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != b.wr.pkgPath)
	switch u := t.Underlying().(type) {
	case *types.Basic:
		info := u.Info()
		switch {
		case foreign && info&types.IsString != 0:
			return `""`, nil
		case foreign && info&types.IsBoolean != 0:
			return "false", nil
		case foreign && info&types.IsNumeric != 0 && ctor:
			return "0", nil
		case foreign && named.Obj().Pkg().Path() == "time" && named.Obj().Name() == "Duration":
			b.durations = true
			return "1", nil
		case info&types.IsString != 0:
			return `"k"`, nil
		case info&types.IsBoolean != 0:
			return "true", nil
		case info&types.IsInteger != 0 && ctor:
			return "16", nil
		case info&types.IsNumeric != 0:
			return "1", nil
		}
		return "nil", nil // unsafe.Pointer
	case *types.Pointer:
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" && n.Obj().Name() == "T" {
			return "t", nil
		}
		if named != nil {
			return "nil", nil
		}
		if _, ok := u.Elem().Underlying().(*types.Struct); ok {
			return "&" + ts(u.Elem()) + "{}", nil
		}
		return "new(" + ts(u.Elem()) + ")", nil
	case *types.Signature:
		return b.funcLit(u), nil
	case *types.Slice:
		return "nil", nil
	case *types.Map, *types.Struct, *types.Array:
		return ts(t) + "{}", nil
	case *types.Chan:
		return "make(" + ts(t) + ", 1)", nil
	case *types.Interface:
		switch {
		case named != nil && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "context" && named.Obj().Name() == "Context":
			return b.wr.importName("context", "context") + ".Background()", nil
		case named != nil && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "testing" && named.Obj().Name() == "TB":
			return "t", nil
		case u.Empty():
			return "1", nil
		}
		return "nil", nil
	}
	return "", fmt.Errorf("a parameter has type %s, for which Confirm has no value", t)
}

// funcLit returns a function literal of signature sig that does nothing
// and returns zero values.
func (b *builder) funcLit(sig *types.Signature) string {
	var params, results []string
	for i := range sig.Params().Len() {
		t := sig.Params().At(i).Type()
		s := types.TypeString(t, b.qualifier)
		if sig.Variadic() && i == sig.Params().Len()-1 {
			s = "..." + types.TypeString(t.(*types.Slice).Elem(), b.qualifier)
		}
		params = append(params, s)
	}
	for i := range sig.Results().Len() {
		results = append(results, "_ "+types.TypeString(sig.Results().At(i).Type(), b.qualifier))
	}
	lit := "func(" + strings.Join(params, ", ") + ")"
	if len(results) > 0 {
		return lit + " (" + strings.Join(results, ", ") + ") { return }"
	}
	return lit + " {}"
}

// nameable reports whether a test file of the package can spell t: every
// named type in it is exported, or the package's own, and importable.
func (b *builder) nameable(t types.Type) bool {
	seen := make(map[types.Type]bool)
	var ok func(t types.Type) bool
	ok = func(t types.Type) bool {
		if seen[t] {
			return true
		}
		seen[t] = true
		switch t := types.Unalias(t).(type) {
		case *types.Basic:
			return t.Kind() != types.Invalid && t.Info()&types.IsUntyped == 0
		case *types.Named:
			if p := t.Obj().Pkg(); p != nil && p.Path() != b.wr.pkgPath {
				if !t.Obj().Exported() || !importable(p.Path(), b.wr.pkgPath) {
					return false
				}
			}
			for i := range t.TypeArgs().Len() {
				if !ok(t.TypeArgs().At(i)) {
					return false
				}
			}
			return true
		case *types.Pointer:
			return ok(t.Elem())
		case *types.Slice:
			return ok(t.Elem())
		case *types.Array:
			return ok(t.Elem())
		case *types.Chan:
			return ok(t.Elem())
		case *types.Map:
			return ok(t.Key()) && ok(t.Elem())
		case *types.Signature:
			return ok(t.Params()) && ok(t.Results())
		case *types.Tuple:
			for i := range t.Len() {
				if !ok(t.At(i).Type()) {
					return false
				}
			}
			return true
		case *types.Struct:
			for i := range t.NumFields() {
				if !t.Field(i).Exported() && t.Field(i).Pkg() != nil && t.Field(i).Pkg().Path() != b.wr.pkgPath {
					return false
				}
				if !ok(t.Field(i).Type()) {
					return false
				}
			}
			return true
		case *types.Interface:
			for i := range t.NumMethods() {
				if !ok(t.Method(i).Type()) {
					return false
				}
			}
			return true
		}
		return false
	}
	return ok(t)
}

// importable reports whether package from may import path: not an
// internal package of another tree.
func importable(path, from string) bool {
	i := strings.LastIndex(path, "/internal")
	if i < 0 {
		return !strings.HasPrefix(path, "internal/") && path != "internal"
	}
	if rest := path[i+len("/internal"):]; rest != "" && rest[0] != '/' {
		return true // "…/internalx"
	}
	parent := path[:i]
	return from == parent || strings.HasPrefix(from, parent+"/")
}

// qualifier names packages in types: the package itself unqualified, the
// others by the name the file imports them under.
func (b *builder) qualifier(p *types.Package) string {
	if p.Path() == b.wr.pkgPath {
		return ""
	}
	return b.wr.importName(p.Path(), p.Name())
}

func (b *builder) typeArgList(targs []types.Type) string {
	if len(targs) == 0 {
		return ""
	}
	var s []string
	for _, t := range targs {
		s = append(s, types.TypeString(t, b.qualifier))
	}
	return "[" + strings.Join(s, ", ") + "]"
}

func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
