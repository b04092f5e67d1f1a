package lockset

import (
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// printed applies, at a call of one of the standard library's printing
// functions (fmt.Printf, log.Println, t.Logf...), the calls it makes of
// the Error or String methods of its operands: each operand of a
// concrete type with such a method, formatted with a verb that calls it
// (%v, %s, %q, %x, %X, %w; every operand of Print and Println), is taken
// for a call of that method at the printing call. A String method that
// read-locks the value it prints, called by fmt under the same read lock,
// is a recursive read lock (cockroach6181).
func (e *engine) printed(st *state, common *ssa.CallCommon, instr ssa.Instruction, pos token.Pos, obs *observer) {
	fn := common.StaticCallee()
	if fn == nil || common.IsInvoke() {
		return
	}
	formatted, ok := printFunc(fn)
	if !ok || len(common.Args) == 0 {
		return
	}
	args := varargs(common.Args[len(common.Args)-1])
	if len(args) == 0 {
		return
	}
	use := make([]bool, len(args))
	for i := range use {
		use[i] = true
	}
	if formatted && len(common.Args) >= 2 {
		if k, ok := common.Args[len(common.Args)-2].(*ssa.Const); ok && k.Value != nil && k.Value.Kind() == constant.String {
			if u, ok := formatUses(constant.StringVal(k.Value), len(args)); ok {
				use = u
			}
		}
	}
	name := FuncName(fn)
	for i, a := range args {
		if !use[i] {
			continue
		}
		mi, ok := a.(*ssa.MakeInterface)
		if !ok {
			continue
		}
		m := e.printMethod(mi.X.Type())
		if m == nil {
			continue
		}
		call := &ssa.CallCommon{Value: m, Args: []ssa.Value{mi.X}}
		e.call(st, call, instr, pos, viaPrint(obs, name))
	}
}

// printMethod returns the method fmt calls to print a value of type t:
// Error when t is an error, else String when t is a fmt.Stringer; nil
// when t formats itself (a Format method) or has neither.
func (e *engine) printMethod(t types.Type) *ssa.Function {
	if types.IsInterface(t) {
		return nil
	}
	prog := e.pkg.Prog
	ms := prog.MethodSets.MethodSet(t)
	if ms.Lookup(nil, "Format") != nil {
		return nil
	}
	for _, name := range []string{"Error", "String"} {
		sel := ms.Lookup(nil, name)
		if sel == nil {
			continue
		}
		sig, ok := sel.Type().(*types.Signature)
		if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.String]) {
			continue
		}
		return prog.MethodValue(sel)
	}
	return nil
}

// viaPrint returns obs with the acquisitions and releases it reports
// made through the printing function name.
func viaPrint(obs *observer, name string) *observer {
	if obs == nil {
		return nil
	}
	out := *obs
	if obs.acquire != nil {
		out.acquire = func(a Acquisition) {
			a.Lock.Chain = append([]string{name}, a.Lock.Chain...)
			obs.acquire(a)
		}
	}
	if obs.release != nil {
		out.release = func(r Release) {
			r.Item.Chain = append([]string{name}, r.Item.Chain...)
			obs.release(r)
		}
	}
	return &out
}

// printFunc reports whether fn is a printing function of fmt, log or
// testing that formats its variadic operands, and whether it takes a
// format (Printf) rather than printing them with %v (Print, Println).
func printFunc(fn *ssa.Function) (formatted, ok bool) {
	obj, isFunc := fn.Object().(*types.Func)
	if !isFunc || obj.Pkg() == nil {
		return false, false
	}
	sig, isSig := obj.Type().(*types.Signature)
	if !isSig || !sig.Variadic() {
		return false, false
	}
	name := obj.Name()
	switch obj.Pkg().Path() {
	case "fmt":
		switch name {
		case "Print", "Println", "Sprint", "Sprintln", "Fprint", "Fprintln", "Append", "Appendln":
			return false, true
		case "Printf", "Sprintf", "Fprintf", "Errorf", "Appendf":
			return true, true
		}
	case "log", "testing":
		switch name {
		case "Print", "Println", "Fatal", "Fatalln", "Panic", "Panicln", "Log", "Error", "Skip":
			return false, true
		case "Printf", "Fatalf", "Panicf", "Logf", "Errorf", "Skipf":
			return true, true
		}
	}
	return false, false
}

// varargs returns the operands packed into the slice v of a variadic
// call (new [n]any, stores of each operand, slice), in order; nil when v
// is not such a slice (a slice passed on with ...).
func varargs(v ssa.Value) []ssa.Value {
	sl, ok := v.(*ssa.Slice)
	if !ok {
		return nil
	}
	alloc, ok := sl.X.(*ssa.Alloc)
	if !ok {
		return nil
	}
	arr, ok := alloc.Type().Underlying().(*types.Pointer)
	if !ok {
		return nil
	}
	at, ok := arr.Elem().Underlying().(*types.Array)
	if !ok {
		return nil
	}
	out := make([]ssa.Value, at.Len())
	for _, r := range *alloc.Referrers() {
		ia, ok := r.(*ssa.IndexAddr)
		if !ok {
			continue
		}
		k, ok := ia.Index.(*ssa.Const)
		if !ok || k.Value == nil {
			continue
		}
		i, exact := constant.Int64Val(k.Value)
		if !exact || i < 0 || int(i) >= len(out) {
			continue
		}
		for _, u := range *ia.Referrers() {
			if st, ok := u.(*ssa.Store); ok && st.Addr == ia {
				out[i] = st.Val
			}
		}
	}
	return out
}

// formatUses reports, for a format and its n operands, which operands a
// verb that calls String or Error formats (%v, %s, %q, %x, %X, %w); ok is
// false for a format it does not follow (explicit argument indexes).
func formatUses(format string, n int) (use []bool, ok bool) {
	use = make([]bool, n)
	arg := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		for i < len(format) && strings.IndexByte("+-# 0", format[i]) >= 0 {
			i++
		}
		// width and precision, either of which may be * (an operand)
		for part := 0; part < 2 && i < len(format); part++ {
			if part == 1 {
				if format[i] != '.' {
					break
				}
				i++
			}
			if i < len(format) && format[i] == '*' {
				arg++
				i++
				continue
			}
			for i < len(format) && format[i] >= '0' && format[i] <= '9' {
				i++
			}
		}
		if i >= len(format) {
			break
		}
		switch verb := format[i]; verb {
		case '%':
		case '[':
			return nil, false
		default:
			if arg < n {
				use[arg] = strings.IndexByte("vsqxXw", verb) >= 0
			}
			arg++
		}
	}
	return use, true
}
