package testselect

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
	"golang.org/x/tools/go/ssa"
)

// A funcKey identifies a source function across package variants and
// generic instantiations: the position of its declaration.
type funcKey struct {
	file      string
	line, col int
}

func (p *Program) keyOf(fn *ssa.Function) funcKey {
	if fn.Origin() != nil {
		fn = fn.Origin()
	}
	pos := p.Fset.Position(fn.Pos())
	if !pos.IsValid() {
		return funcKey{file: "<synthetic>" + fn.String()}
	}
	return funcKey{file: filepath.Clean(pos.Filename), line: pos.Line, col: pos.Column}
}

// absName returns the cleaned absolute form of a file name, resolving
// relative names against the directory the program was loaded in.
func (p *Program) absName(name string) string {
	if !filepath.IsAbs(name) {
		name = filepath.Join(p.dir, name)
	}
	return filepath.Clean(name)
}

// TokenPos returns the token.Pos of a file:line:column position in every
// parse of the file (one per package variant), with the syntax of each.
// A zero column means the start of the line.
func (p *Program) TokenPos(at token.Position) ([]token.Pos, []*ast.File, error) {
	variants := p.files[p.absName(at.Filename)]
	if len(variants) == 0 {
		return nil, nil, fmt.Errorf("%s is not a file of the loaded packages", at.Filename)
	}
	var poss []token.Pos
	var files []*ast.File
	for _, v := range variants {
		if at.Line < 1 || at.Line > v.tok.LineCount() {
			return nil, nil, fmt.Errorf("%s: line %d out of range (1..%d)", at.Filename, at.Line, v.tok.LineCount())
		}
		pos := v.tok.LineStart(at.Line)
		if at.Column > 1 {
			off := v.tok.Offset(pos) + at.Column - 1
			if off > v.tok.Size() {
				return nil, nil, fmt.Errorf("%s:%d: column %d out of range", at.Filename, at.Line, at.Column)
			}
			pos = v.tok.Pos(off)
		}
		poss = append(poss, pos)
		files = append(files, v.syntax)
	}
	return poss, files, nil
}

// PathAt returns the syntax nodes enclosing a position, innermost first,
// in the first parse of its file, as astutil.PathEnclosingInterval does.
func (p *Program) PathAt(at token.Position) ([]ast.Node, error) {
	poss, files, err := p.TokenPos(at)
	if err != nil {
		return nil, err
	}
	path, _ := astutil.PathEnclosingInterval(files[0], poss[0], poss[0])
	return path, nil
}

// FuncsAt returns the innermost functions (closures included) whose
// syntax contains the position: one per package variant that compiles
// the file. It returns nil when no function contains it.
func (p *Program) FuncsAt(at token.Position) []*ssa.Function {
	name := p.absName(at.Filename)
	variants := p.files[name]
	if len(variants) == 0 || at.Line < 1 || at.Line > variants[0].tok.LineCount() {
		return nil
	}
	tf := variants[0].tok
	off := tf.Offset(tf.LineStart(at.Line))
	if at.Column > 1 {
		off += at.Column - 1
	}
	best := -1
	var fns []*ssa.Function
	for _, s := range p.spans[name] {
		if off < s.start || off >= s.end {
			continue
		}
		switch size := s.end - s.start; {
		case best < 0 || size < best:
			best, fns = size, []*ssa.Function{s.fn}
		case size == best:
			fns = append(fns, s.fn)
		}
	}
	return fns
}

// FuncsNamed returns the functions whose name matches name, in any of
// the spellings analyzers use: "(*bank.Account).Transfer",
// "(*example.com/bank.Account).Transfer", "(*Account).Transfer",
// "bank.Transfer", and closures as "bank.Transfer$1" or
// "bank.Transfer.func1".
func (p *Program) FuncsNamed(name string) []*ssa.Function {
	want := normalizeName(name)
	var fns []*ssa.Function
	for _, fn := range p.funcs {
		named := fn
		if fn.Origin() != nil {
			named = fn.Origin() // instances go by their generic function's name
		}
		for _, n := range spellings(named) {
			if n == want {
				fns = append(fns, fn)
				break
			}
		}
	}
	return fns
}

var funcLitSuffix = regexp.MustCompile(`\.func(\d+)`)

// normalizeName rewrites the runtime's closure names (F.func1) into
// SSA's (F$1).
func normalizeName(name string) string {
	return funcLitSuffix.ReplaceAllString(strings.TrimSpace(name), "$$$1")
}

// spellings returns the names of fn qualified by import path, by package
// name and unqualified.
func spellings(fn *ssa.Function) []string {
	quals := []types.Qualifier{
		func(p *types.Package) string { return p.Path() },
		func(p *types.Package) string { return p.Name() },
		func(*types.Package) string { return "" },
	}
	var out []string
	for _, q := range quals {
		out = append(out, FuncName(fn, q))
	}
	return out
}

// FuncName returns the name of fn in the form analyzers use, with
// packages written by qualifier: "(*bank.Account).Transfer",
// "bank.Transfer", "bank.Transfer$1".
func FuncName(fn *ssa.Function, q types.Qualifier) string {
	if parent := fn.Parent(); parent != nil {
		for i, anon := range parent.AnonFuncs {
			if anon == fn {
				return fmt.Sprintf("%s$%d", FuncName(parent, q), i+1)
			}
		}
	}
	if recv := fn.Signature.Recv(); recv != nil {
		return "(" + types.TypeString(recv.Type(), q) + ")." + fn.Name()
	}
	if fn.Pkg != nil {
		if pre := q(fn.Pkg.Pkg); pre != "" {
			return pre + "." + fn.Name()
		}
	}
	return fn.Name()
}

// ShortName returns the name of fn qualified by package name, e.g.
// "(*bank.Account).Transfer".
func ShortName(fn *ssa.Function) string {
	return FuncName(fn, func(p *types.Package) string { return p.Name() })
}

// StmtPos returns the position at which an observe point can be placed
// for a call instruction: the start of the call expression for a call,
// the go or defer keyword for a go or defer statement.
func (p *Program) StmtPos(instr ssa.Instruction) token.Position {
	pos := instr.Pos()
	if c, ok := instr.(*ssa.Call); ok {
		if call := p.calls[c.Pos()]; call != nil {
			pos = call.Pos()
		}
	}
	return p.Fset.Position(pos)
}

// CallExprAt returns the call expression at a position: the innermost
// call whose syntax contains it. It returns nil when there is none.
func (p *Program) CallExprAt(at token.Position) *ast.CallExpr {
	path, err := p.PathAt(at)
	if err != nil {
		return nil
	}
	for _, n := range path {
		switch n := n.(type) {
		case *ast.CallExpr:
			return n
		case *ast.FuncLit, *ast.BlockStmt:
			return nil
		}
	}
	return nil
}
