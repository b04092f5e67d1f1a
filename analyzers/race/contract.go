package race

import (
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/warning"
)

// unsafeDoc matches the sentences with which Go documentation says that a
// function or type is not to be used concurrently: "not safe for
// concurrent use", "not thread-safe", "must not be called concurrently".
var unsafeDoc = regexp.MustCompile(`(?i)\bnot\s+(?:(?:thread|goroutine|concurrency)[- ]?safe|safe\s+(?:for\s+(?:concurrent|use\s+by\s+multiple|multiple)|to\s+(?:call|use)\s+(?:(?:this\s+(?:function|method)|it)\s+)?(?:concurrently|from\s+multiple|in\s+parallel|until))|(?:be\s+)?(?:called|used)\s+concurrently)`)

// orderDoc matches the sentences that restrict a function to one moment
// of its object's life, named by a call: "must be called before Run()",
// "should only be called before calling Start", "only valid after
// Connect". Its group is the name of the call.
var orderDoc = regexp.MustCompile(`(?i)\b(?:(?:must|should)\s+(?:only\s+)?be\s+called\s+(?:only\s+)?before|only\s+valid\s+after)\s+(?:calling\s+|the\s+first\s+call\s+to\s+)?(?:\w+\.)?(\w+)`)

// underContract reports whether a finding with these sites breaks a
// contract that the package documents: one side is a call of an exported
// function whose documentation forbids calling it concurrently, or
// allows it only before or after another call (pinger.SetDebug, "not
// thread-safe and must be called before Run()"); or both sides are calls
// of exported methods of a type documented as not safe for concurrent
// use. Like RacerD's @NotThreadSafe, the documentation moves the duty to
// the caller. A goroutine the package starts itself is bound by nothing
// its callers were told, so only the sides made outside such goroutines
// count.
func (c *checker) underContract(sites []warning.Site) bool {
	user := 0
	for _, s := range sites {
		if s.Goroutine != "" {
			continue
		}
		user++
		for _, fn := range c.siteFuncs(s) {
			d := c.docOf(fn)
			// A side that locks is made to run beside others, whatever
			// its documentation says of concurrent callers (paho's
			// ConAckReceived, "should not be called concurrently with
			// others", races with a Publish that the package's own
			// client makes); an order it documents still binds
			// ("must be called before Run()").
			if c.ordersCalls(d) || len(s.Held) == 0 && unsafeDoc.MatchString(d) {
				return true
			}
		}
	}
	if user < len(sites) {
		return false
	}
	for _, s := range sites {
		fns := c.siteFuncs(s)
		if len(fns) == 0 {
			fns = c.entriesTo(s.Func)
		}
		if len(fns) == 0 || !slices.ContainsFunc(fns, c.ofUnsafeType) {
			return false
		}
	}
	return true
}

// entriesTo returns the exported functions of the package whose calls
// reach the function named name, a helper other packages do not call
// themselves (a tree's commit, reached from its Commit), also through
// goroutines their spawners wait for; nil when a way to it starts where
// the package cannot see (a function value stored and called
// elsewhere) or in a goroutine left running.
func (c *checker) entriesTo(name string) []*ssa.Function {
	var fn *ssa.Function
	for _, f := range c.funcs {
		if c.name(f) == name {
			fn = f
			break
		}
	}
	if fn == nil {
		return nil
	}
	idx := c.callIndex()
	var out []*ssa.Function
	seen := map[*ssa.Function]bool{fn: true}
	work := []*ssa.Function{fn}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		if c.exportedEntry(f, c.ctx.invoked) {
			out = append(out, f)
			continue
		}
		callers := idx.callers[f]
		for _, g := range idx.starts[f] {
			// A goroutine its spawner waits for runs within the
			// spawner's call, bound by what the spawner's callers were
			// told.
			if !c.joinedGo(g) {
				return nil
			}
			callers = append(slices.Clip(callers), g.Parent())
		}
		if len(callers) == 0 || c.ctx.unknown[f] {
			return nil
		}
		for _, caller := range callers {
			if !seen[caller] {
				seen[caller] = true
				work = append(work, caller)
			}
		}
	}
	return out
}

// ordersCalls reports whether documentation d restricts its function to
// before or after a call of the package's API. A moment that is not a
// call ("must be called before the program exits") binds nothing about
// the goroutines the package runs.
func (c *checker) ordersCalls(d string) bool {
	for _, m := range orderDoc.FindAllStringSubmatch(d, -1) {
		if c.isAPIName(m[1]) {
			return true
		}
	}
	return false
}

// isAPIName reports whether name is the name of an exported function or
// method of the package.
func (c *checker) isAPIName(name string) bool {
	if !token.IsExported(name) {
		return false
	}
	for _, fn := range c.apiFuncs() {
		if fn.Name() == name {
			return true
		}
	}
	return false
}

// siteFuncs returns the exported functions of this package that site s
// is made in or through: its function and the calls of its chain.
func (c *checker) siteFuncs(s warning.Site) []*ssa.Function {
	api := c.apiFuncs()
	var fns []*ssa.Function
	for _, n := range append([]string{s.Func}, s.Chain...) {
		if fn := api[n]; fn != nil {
			fns = append(fns, fn)
		}
	}
	return fns
}

// apiFuncs returns the exported functions and methods of the package, by
// the names reports give them.
func (c *checker) apiFuncs() map[string]*ssa.Function {
	if c.byName == nil {
		c.byName = map[string]*ssa.Function{}
		for _, fn := range c.funcs {
			if fn.Parent() == nil && fn.Object() != nil && fn.Object().Exported() {
				c.byName[c.name(fn)] = fn
			}
		}
	}
	return c.byName
}

// ofUnsafeType reports whether fn is a method of a type whose
// documentation says it is not safe for concurrent use, or implements a
// method of an interface of the package documented so (btree's Tr
// implementing MutableTree, "This interface is not threadsafe").
func (c *checker) ofUnsafeType(fn *ssa.Function) bool {
	recv := fn.Signature.Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() != c.pass.Pkg {
		return false
	}
	if unsafeDoc.MatchString(c.typeDoc(n.Obj())) {
		return true
	}
	for _, iface := range c.interfaces() {
		if _, declared := iface.methods[fn.Name()]; declared && iface.unsafe && types.Implements(recv.Type(), iface.typ) {
			return true
		}
	}
	return false
}

// typeDoc returns the documentation of the package's type tn: the
// comment of its spec, or of the declaration grouping it.
func (c *checker) typeDoc(tn *types.TypeName) string {
	for _, f := range c.pass.Files {
		if f.FileStart > tn.Pos() || tn.Pos() > f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Pos() > tn.Pos() || tn.Pos() > gd.End() {
				continue
			}
			for _, spec := range gd.Specs {
				if ts, ok := spec.(*ast.TypeSpec); ok && ts.Name.Pos() == tn.Pos() {
					return ts.Doc.Text() + gd.Doc.Text()
				}
			}
		}
	}
	return ""
}

// docOf returns the documentation of a declared function: its comment,
// and for a method, the comments of the methods of the package's
// interfaces that it implements (Pinger.SetDebug documents what
// DefaultPinger.SetDebug may be called for).
func (c *checker) docOf(fn *ssa.Function) string {
	var doc []string
	if d, ok := fn.Syntax().(*ast.FuncDecl); ok && d.Doc != nil {
		doc = append(doc, d.Doc.Text())
	}
	if recv := fn.Signature.Recv(); recv != nil {
		for _, iface := range c.interfaces() {
			if types.Implements(recv.Type(), iface.typ) {
				doc = append(doc, iface.methods[fn.Name()])
			}
		}
	}
	return strings.Join(strings.Fields(strings.Join(doc, " ")), " ")
}

// A documentedInterface is an interface type of the package with the
// comments of its methods, by name.
type documentedInterface struct {
	typ     *types.Interface
	methods map[string]string
	// unsafe: the interface's own documentation says it is not safe for
	// concurrent use.
	unsafe bool
}

// interfaces lists the package's interface types whose methods carry
// comments.
func (c *checker) interfaces() []documentedInterface {
	if c.ifaces != nil {
		return *c.ifaces
	}
	var out []documentedInterface
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			ts, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			it, ok := ts.Type.(*ast.InterfaceType)
			obj := c.pass.TypesInfo.Defs[ts.Name]
			if !ok || obj == nil {
				return false
			}
			iface, ok := obj.Type().Underlying().(*types.Interface)
			if !ok || iface.NumMethods() == 0 {
				return false
			}
			d := documentedInterface{typ: iface, methods: map[string]string{}, unsafe: unsafeDoc.MatchString(c.typeDoc(obj.(*types.TypeName)))}
			for _, m := range it.Methods.List {
				for _, name := range m.Names {
					d.methods[name.Name] = m.Doc.Text()
				}
			}
			out = append(out, d)
			return false
		})
	}
	c.ifaces = &out
	return out
}
