package lockorder

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/callgraph/vta"
	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// An exitChan is a channel closed only when one function returns: a
// "done" channel whose receivers wait for that function's goroutine to
// exit (yamux's recvLoop: defer close(s.recvDoneCh); Close: <-s.recvDoneCh
// before locking). It is named by class, like a lock.
type exitChan struct {
	closers []*ssa.Function          // the functions deferring its close
	recvs   map[ssa.Instruction]bool // the plain receives from it
	inside  map[*ssa.Function]bool   // the functions that run only inside closers[0]
}

// exitChans returns the exit channels of funcs by class: unexported fields
// or package-level variables of channel type that are only made (stored
// into a fresh allocation), received from (also in a select or through a
// receive-only conversion), compared, and closed by exactly one deferred
// close registered first in its function (it runs last, whether the
// function returns or panics), that function running only in goroutines
// started by go statements. Nothing can send on such a channel, so a
// receive from it returns only after the closing function has exited.
func (c *checker) exitChans(funcs []*ssa.Function) map[string]*exitChan {
	chans := map[string]*exitChan{}
	bad := map[string]bool{}
	get := func(class string) *exitChan {
		x := chans[class]
		if x == nil {
			x = &exitChan{recvs: map[ssa.Instruction]bool{}}
			chans[class] = x
		}
		return x
	}
	for _, fn := range funcs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				switch instr := instr.(type) {
				case *ssa.FieldAddr:
					if class, ok := c.chanField(instr); ok && !chanAddrUses(instr, get(class)) {
						bad[class] = true
					}
				case *ssa.Field:
					if class, ok := c.chanField(instr); ok && !chanLoadUses(instr, get(class)) {
						bad[class] = true
					}
				default:
					var ops []*ssa.Value
					for _, op := range instr.Operands(ops) {
						g, ok := (*op).(*ssa.Global)
						if !ok {
							continue
						}
						class, ok := c.chanField(g)
						if !ok {
							continue
						}
						load, isLoad := instr.(*ssa.UnOp)
						if !isLoad || load.Op != token.MUL || !chanLoadUses(load, get(class)) {
							bad[class] = true
						}
					}
				}
			}
		}
	}
	var g *callGraph
	for class, x := range chans {
		if bad[class] || len(x.closers) != 1 {
			delete(chans, class)
			continue
		}
		if g == nil {
			g = c.callers(funcs)
		}
		if !g.goBody(x.closers[0], map[*ssa.Function]bool{}) {
			delete(chans, class)
			continue
		}
		x.inside = g.insideOf(x.closers[0])
	}
	return chans
}

// chanField names v, the address of a channel field or package-level
// variable (or a channel field of a struct value), when it is unexported.
func (c *checker) chanField(v ssa.Value) (string, bool) {
	t := v.Type()
	if _, isField := v.(*ssa.Field); !isField {
		p, ok := t.Underlying().(*types.Pointer)
		if !ok {
			return "", false
		}
		t = p.Elem()
	}
	if _, ok := t.Underlying().(*types.Chan); !ok {
		return "", false
	}
	r, ok := c.ls.Classifier.Ref(v)
	if !ok || r.Class == "" {
		return "", false
	}
	name := r.Class[strings.LastIndex(r.Class, ".")+1:]
	return r.Class, !ast.IsExported(name)
}

// chanAddrUses reports whether the address fa of a channel field is only
// loaded, the value used as chanLoadUses allows, or stored a new channel
// into a fresh allocation.
func chanAddrUses(fa *ssa.FieldAddr, x *exitChan) bool {
	for _, r := range *fa.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.MUL || !chanLoadUses(r, x) {
				return false
			}
		case *ssa.Store:
			_, made := r.Val.(*ssa.MakeChan)
			_, fresh := fa.X.(*ssa.Alloc)
			if r.Addr != fa || !made || !fresh {
				return false
			}
		case *ssa.DebugRef:
		default:
			return false
		}
	}
	return true
}

// chanLoadUses reports whether the channel value ch is only received
// from, compared, converted to a receive-only channel, or closed by a
// defer registered first in the entry block; it records the receives and
// the deferred close in x.
func chanLoadUses(ch ssa.Value, x *exitChan) bool {
	for _, r := range *ch.Referrers() {
		switch r := r.(type) {
		case *ssa.UnOp:
			if r.Op != token.ARROW {
				return false
			}
			x.recvs[r] = true
		case *ssa.Select:
			for _, st := range r.States {
				if st.Chan == ch && st.Dir != types.RecvOnly {
					return false
				}
			}
		case *ssa.ChangeType, *ssa.Convert:
			ct, ok := r.(ssa.Value).Type().Underlying().(*types.Chan)
			if !ok || ct.Dir() != types.RecvOnly {
				return false
			}
		case *ssa.BinOp, *ssa.DebugRef:
		case *ssa.Defer:
			if !firstDeferredClose(r, ch) {
				return false
			}
			x.closers = append(x.closers, r.Parent())
		default:
			return false
		}
	}
	return true
}

// firstDeferredClose reports whether d is defer close(ch) in the entry
// block of its function, with no defer before it: it runs when the
// function exits, after every other deferred call.
func firstDeferredClose(d *ssa.Defer, ch ssa.Value) bool {
	bi, ok := d.Call.Value.(*ssa.Builtin)
	if !ok || bi.Name() != "close" || len(d.Call.Args) != 1 || d.Call.Args[0] != ch || d.Block().Index != 0 {
		return false
	}
	for _, instr := range d.Block().Instrs {
		if instr == d {
			return true
		}
		if _, ok := instr.(*ssa.Defer); ok {
			return false
		}
	}
	return false
}

// A callGraph lists the calls that may invoke each function of the
// package (see callers), and the functions that may be called from
// elsewhere.
type callGraph struct {
	sites map[*ssa.Function][]ssa.CallInstruction
	open  map[*ssa.Function]bool
	taken map[types.Object]bool // methods used as values outside the initializer
}

// callers returns the calls, go statements and defers that may invoke
// each function of funcs: static callees, and dynamic ones as VTA
// resolves them over funcs and the package initializer (whose tables of
// functions, var handlers = []func(){...}, the lockset call graph does not
// see).
func (c *checker) callers(funcs []*ssa.Function) *callGraph {
	set := map[*ssa.Function]bool{}
	inInit := map[*ssa.Function]bool{}
	var queue []*ssa.Function
	var add func(fn *ssa.Function, init bool)
	add = func(fn *ssa.Function, init bool) {
		if set[fn] {
			return
		}
		set[fn], inInit[fn] = true, init
		queue = append(queue, fn)
		for _, anon := range fn.AnonFuncs {
			add(anon, init)
		}
	}
	for _, fn := range funcs {
		add(fn, false)
	}
	if init := c.ls.SSA.Pkg.Func("init"); init != nil {
		add(init, true)
	}
	g := &callGraph{sites: map[*ssa.Function][]ssa.CallInstruction{}, open: map[*ssa.Function]bool{}, taken: map[types.Object]bool{}}
	invoked := map[string]bool{}
	tables := exportedTables(c.ls.SSA.Pkg)
	var ops []*ssa.Value
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				call, isCall := instr.(ssa.CallInstruction)
				if isCall && call.Common().IsInvoke() {
					invoked[call.Common().Method.Name()] = true
				}
				if isCall {
					if callee := call.Common().StaticCallee(); callee != nil {
						g.sites[callee] = append(g.sites[callee], call)
					}
				}
				ops = instr.Operands(ops[:0])
				for i, op := range ops {
					f, ok := (*op).(*ssa.Function)
					if !ok || isCall && i == 0 && call.Common().Value == f {
						continue
					}
					if valueWrapper(f) {
						add(f, false) // the method it calls is called from there
					}
					if mc, ok := instr.(*ssa.MakeClosure); ok && i == 0 && f.Parent() != nil && calledOnly(mc) {
						continue // a closure called where it is made
					}
					if inInit[fn] && !tables && storedOnly(instr, f) {
						continue // an entry of a table of the package
					}
					g.open[f] = true
					if obj := f.Object(); obj != nil {
						g.taken[obj] = true
					}
				}
			}
		}
	}
	vtaSet := map[*ssa.Function]bool{}
	for fn := range set {
		if !parameterizedFn(fn) {
			vtaSet[fn] = true
		}
	}
	for fn, n := range vta.CallGraph(vtaSet, nil).Nodes {
		if fn == nil || !vtaSet[fn] {
			continue
		}
		for _, e := range n.Out {
			if e.Site != nil && e.Site.Common().StaticCallee() == nil {
				g.sites[e.Callee.Func] = append(g.sites[e.Callee.Func], e.Site)
			}
		}
	}
	for fn := range g.sites {
		if g.opens(fn, invoked) {
			g.open[fn] = true
		}
	}
	return g
}

// opens reports whether fn may be called from outside the functions of
// the package: it is exported, an entry point, a wrapper, a method with
// the name of an interface method called in the package, or a method used
// as a value.
func (g *callGraph) opens(fn *ssa.Function, invoked map[string]bool) bool {
	if fn.Synthetic != "" && !valueWrapper(fn) {
		return true
	}
	if obj := fn.Object(); obj != nil && g.taken[obj] {
		return true
	}
	if fn.Parent() != nil {
		return false
	}
	name := fn.Name()
	return ast.IsExported(name) || name == "main" || name == "init" || strings.HasPrefix(name, "init#") ||
		fn.Signature.Recv() != nil && invoked[name]
}

// valueWrapper reports whether fn is the wrapper of a method expression
// or a method value, (*T).m or x.m.
func valueWrapper(fn *ssa.Function) bool {
	return fn.Parent() == nil && len(fn.Blocks) > 0 &&
		(strings.HasPrefix(fn.Synthetic, "thunk ") || strings.HasPrefix(fn.Synthetic, "bound "))
}

// calledOnly reports whether the closure mc is only called.
func calledOnly(mc *ssa.MakeClosure) bool {
	for _, r := range *mc.Referrers() {
		call, ok := r.(ssa.CallInstruction)
		if !ok || call.Common().Value != mc {
			return false
		}
	}
	return true
}

// storedOnly reports whether instr uses the function f only as the value
// it stores (an element of a table being built).
func storedOnly(instr ssa.Instruction, f *ssa.Function) bool {
	switch instr := instr.(type) {
	case *ssa.Store:
		return instr.Val == f && instr.Addr != f
	case *ssa.MapUpdate:
		return instr.Value == f && instr.Key != f
	}
	return false
}

// exportedTables reports whether the package has an exported package-level
// variable that may hold functions: a function stored in a table by the
// initializer may then be called from other packages.
func exportedTables(pkg *ssa.Package) bool {
	for _, m := range pkg.Members {
		if g, ok := m.(*ssa.Global); ok && ast.IsExported(g.Name()) && holdsFuncs(g.Type(), 0) {
			return true
		}
	}
	return false
}

func holdsFuncs(t types.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch t := t.Underlying().(type) {
	case *types.Signature:
		return true
	case *types.Interface:
		return t.NumMethods() == 0
	case *types.Pointer:
		return holdsFuncs(t.Elem(), depth+1)
	case *types.Slice:
		return holdsFuncs(t.Elem(), depth+1)
	case *types.Array:
		return holdsFuncs(t.Elem(), depth+1)
	case *types.Map:
		return holdsFuncs(t.Key(), depth+1) || holdsFuncs(t.Elem(), depth+1)
	case *types.Chan:
		return holdsFuncs(t.Elem(), depth+1)
	case *types.Struct:
		for i := 0; i < t.NumFields(); i++ {
			if holdsFuncs(t.Field(i).Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

func parameterizedFn(fn *ssa.Function) bool {
	for f := fn; f != nil; f = f.Parent() {
		if f.TypeParams().Len() > 0 {
			return true
		}
	}
	return false
}

// goBody reports whether fn runs only in goroutines started by go
// statements: it is started by them, or called only directly by such
// functions, and cannot be called from elsewhere.
func (g *callGraph) goBody(fn *ssa.Function, seen map[*ssa.Function]bool) bool {
	if seen[fn] || g.open[fn] || len(g.sites[fn]) == 0 {
		return false
	}
	seen[fn] = true
	for _, call := range g.sites[fn] {
		if _, isGo := call.(*ssa.Go); isGo {
			continue
		}
		if !g.goBody(call.Parent(), seen) {
			return false
		}
	}
	return true
}

// insideOf returns the functions that run only inside a call of closer
// (closer included): the greatest set of functions not open whose every
// caller is a call or defer (not a go statement) in the set.
func (g *callGraph) insideOf(closer *ssa.Function) map[*ssa.Function]bool {
	in := map[*ssa.Function]bool{closer: true}
	for fn, sites := range g.sites {
		if !g.open[fn] && len(sites) > 0 {
			in[fn] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for fn := range in {
			if fn == closer {
				continue
			}
			for _, call := range g.sites[fn] {
				if _, isGo := call.(*ssa.Go); isGo || !in[call.Parent()] {
					delete(in, fn)
					changed = true
					break
				}
			}
		}
	}
	return in
}

// exitOrder returns the exit channels a receive from which precedes, on
// every path through fn, both acquisitions of the edge h→a (the edge is
// made only after the channel's closer has returned), and the exit
// channels whose closer fn runs only inside of (the edge is made only
// before the channel is closed). An edge between locks of package-level
// variables is never made "after": every instance of the closer's
// goroutine shares them.
func (c *checker) exitOrder(fn *ssa.Function, t *lockset.Trace, h lockset.Lock, a lockset.Acquisition) (after, inside []string) {
	for _, class := range sortedKeys(c.exits) {
		x := c.exits[class]
		if x.inside[fn] {
			inside = append(inside, class)
		}
		if !strings.HasPrefix(h.Class, "(") || !strings.HasPrefix(a.Lock.Class, "(") {
			continue
		}
		var held ssa.Instruction
		for _, b := range t.Acquisitions {
			if b.Pos == h.Pos && b.Lock.Class == h.Class && !b.Try {
				held = b.Instr
				break
			}
		}
		received := func(i ssa.Instruction) bool { return x.recvs[i] }
		if held != nil && passedFirst(held, received) && passedFirst(a.Instr, received) {
			after = append(after, class)
		}
	}
	return after, inside
}

// passedFirst reports whether every path from the entry of instr's
// function to instr passes an instruction for which pass is true.
func passedFirst(instr ssa.Instruction, pass func(ssa.Instruction) bool) bool {
	fn := instr.Parent()
	if fn == nil || len(fn.Blocks) == 0 {
		return false
	}
	seen := make([]bool, len(fn.Blocks))
	work := []*ssa.BasicBlock{fn.Blocks[0]}
	seen[0] = true
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		blocked := false
		for _, x := range b.Instrs {
			if x == instr {
				return false
			}
			if pass(x) {
				blocked = true
				break
			}
		}
		if blocked {
			continue
		}
		for _, s := range b.Succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return true
}
