package lockorder

import (
	"go/token"
	"strconv"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// ordered reports whether the acquisition instr of inner, made while outer
// (another instance of its class) is held, runs only after an ordering
// comparison between the two instances: in fn itself, or at every call
// site of fn when fn is only called directly in the package (lockBoth(a,
// b) called in both orders under "if a.id < b.id").
func (c *checker) ordered(fn *ssa.Function, instr ssa.Instruction, outer, inner lockset.Lock) bool {
	ro, ri := lockRoots(fn, outer), lockRoots(fn, inner)
	if orderedByComparison(instr, ro, ri) {
		return true
	}
	sites := c.ls.CallSites(fn)
	if len(sites) == 0 {
		return false
	}
	for _, call := range sites {
		if !orderedByComparison(call, atCall(call, ro), atCall(call, ri)) {
			return false
		}
	}
	return true
}

// orderedByComparison reports whether instr only runs after an ordering
// comparison (<, <=, >, >=) was tested whose operands are computed from
// both instances, the values in a and in b: the usual way to lock two
// instances of one class in a consistent order ("lower id first"). A
// comparison of one instance's state with anything else (a balance
// checked before the second lock) orders nothing. When either instance's
// values are unknown (nil), any ordering comparison counts.
func orderedByComparison(instr ssa.Instruction, a, b []ssa.Value) bool {
	blk := instr.Block()
	for d := blk.Idom(); d != nil; d = d.Idom() {
		ifi, ok := d.Instrs[len(d.Instrs)-1].(*ssa.If)
		if !ok {
			continue
		}
		bin, ok := ifi.Cond.(*ssa.BinOp)
		if !ok {
			continue
		}
		switch bin.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
		default:
			continue
		}
		if a == nil || b == nil {
			return true
		}
		from := sources(bin)
		if from.any(a) && from.any(b) {
			return true
		}
	}
	return false
}

// lockRoots returns the values of fn an instance of a lock hangs off: the
// variables its mutex is reached from (a parameter, a free variable, a
// local, a package-level variable). It returns nil when they are not
// known.
func lockRoots(fn *ssa.Function, l lockset.Lock) []ssa.Value {
	if l.Value != nil {
		var out []ssa.Value
		for v := range sources(l.Value) {
			out = append(out, v)
		}
		return out
	}
	inst := root(l.Inst)
	if len(inst) < 2 {
		return nil
	}
	i, err := strconv.Atoi(inst[1:])
	switch {
	case err != nil:
		return nil
	case inst[0] == '$' && i < len(fn.Params):
		return []ssa.Value{fn.Params[i]}
	case inst[0] == '^' && i < len(fn.FreeVars):
		return []ssa.Value{fn.FreeVars[i]}
	}
	return nil
}

// atCall maps roots that are parameters of the function call calls to the
// values computed from its arguments at the call. It returns nil when a
// root is not a parameter.
func atCall(call *ssa.Call, roots []ssa.Value) []ssa.Value {
	var out []ssa.Value
	for _, r := range roots {
		p, ok := r.(*ssa.Parameter)
		if !ok {
			return nil
		}
		i := paramIndex(p)
		args := call.Common().Args
		if i < 0 || i >= len(args) {
			return nil
		}
		for v := range sources(args[i]) {
			out = append(out, v)
		}
	}
	return out
}

func paramIndex(p *ssa.Parameter) int {
	for i, q := range p.Parent().Params {
		if q == p {
			return i
		}
	}
	return -1
}

// A valueSet is a set of SSA values.
type valueSet map[ssa.Value]bool

func (s valueSet) any(vs []ssa.Value) bool {
	for _, v := range vs {
		if s[v] {
			return true
		}
	}
	return false
}

// sources returns the variables v is computed from: the parameters, free
// variables, package-level variables, allocations and call results its
// operands lead back to, following field and element selections, loads,
// conversions and the arguments of calls (a.ID() < b.ID()).
func sources(v ssa.Value) valueSet {
	out := valueSet{}
	seen := map[ssa.Value]bool{}
	var walk func(v ssa.Value, depth int)
	walk = func(v ssa.Value, depth int) {
		if v == nil || seen[v] || depth > 12 {
			return
		}
		seen[v] = true
		switch v := v.(type) {
		case *ssa.Parameter, *ssa.FreeVar, *ssa.Global, *ssa.Alloc:
			out[v] = true
		case *ssa.Const, *ssa.Function:
		case *ssa.Call:
			out[v] = true
			walk(v.Call.Value, depth+1)
			for _, a := range v.Call.Args {
				walk(a, depth+1)
			}
		case *ssa.Phi:
			out[v] = true
			for _, e := range v.Edges {
				walk(e, depth+1)
			}
		case ssa.Instruction:
			var ops []*ssa.Value
			for _, op := range v.Operands(ops) {
				walk(*op, depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}

// root returns the variable an instance path starts from: "$1" of
// "$1.mu".
func root(inst string) string {
	if i := strings.IndexAny(inst, ".*["); i > 0 {
		return inst[:i]
	}
	return inst
}
