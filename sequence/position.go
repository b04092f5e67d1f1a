package sequence

import (
	"fmt"
	"go/ast"
	"go/token"
	"path/filepath"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/testselect"
	"golang.org/x/tools/go/ssa"
)

// sitePosition checks that a site has a position in a file of the
// program and returns it with an absolute file name.
func sitePosition(prog *testselect.Program, i int, s warning.Site) (token.Position, error) {
	at := s.Position
	if !at.IsValid() {
		return at, fmt.Errorf("site %d (%s) has no position", i, s.Role)
	}
	if !filepath.IsAbs(at.Filename) {
		at.Filename = filepath.Join(prog.Dir(), at.Filename)
	}
	at.Filename = filepath.Clean(at.Filename)
	if _, _, err := prog.TokenPos(at); err != nil {
		return at, fmt.Errorf("site %d (%s): %w", i, s.Role, err)
	}
	return at, nil
}

// callStart returns the start of the innermost call expression that
// contains at, and the call. It returns at itself and nil when at is not
// inside a call.
func callStart(prog *testselect.Program, at token.Position) (token.Position, *ast.CallExpr) {
	call := prog.CallExprAt(at)
	if call == nil {
		return at, nil
	}
	return prog.Fset.Position(call.Pos()), call
}

// stmtStart returns the start of the innermost statement of type T that
// contains at, or at itself when there is none.
func returnStart(prog *testselect.Program, at token.Position) token.Position {
	path, err := prog.PathAt(at)
	if err != nil {
		return at
	}
	for _, n := range path {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			return prog.Fset.Position(n.Pos())
		case *ast.FuncLit, *ast.FuncDecl:
			return at
		}
	}
	return at
}

// exprAt returns the largest expression that starts at at, and whether
// it is a call (the position of an access reached through a call).
func exprAt(prog *testselect.Program, at token.Position) (ast.Expr, bool) {
	path, err := prog.PathAt(at)
	if err != nil || len(path) == 0 {
		return nil, false
	}
	var expr ast.Expr
	isCall := false
	for _, n := range path {
		e, ok := n.(ast.Expr)
		if !ok {
			break
		}
		if expr != nil && e.Pos() != expr.Pos() {
			// An identifier that is the selector of x.f starts the
			// access x.f only through its parent.
			if sel, ok := e.(*ast.SelectorExpr); !ok || sel.Sel != expr {
				break
			}
		}
		expr = e
		if _, ok := e.(*ast.CallExpr); ok {
			isCall = true
		}
	}
	return expr, isCall
}

// instrsIn returns the instructions of fn whose position lies within
// [start, end) of the file of start, in block order.
func instrsIn(prog *testselect.Program, fn *ssa.Function, start, end token.Position) []ssa.Instruction {
	var out []ssa.Instruction
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			p := prog.Fset.Position(instr.Pos())
			if p.Filename == start.Filename && p.Offset >= start.Offset && p.Offset < end.Offset {
				out = append(out, instr)
			}
		}
	}
	return out
}

// spanOf returns the resolved start and end of a syntax node.
func spanOf(prog *testselect.Program, n ast.Node) (token.Position, token.Position) {
	return prog.Fset.Position(n.Pos()), prog.Fset.Position(n.End())
}

// before reports whether a is before b in the same file.
func before(a, b token.Position) bool {
	if a.Filename != b.Filename {
		return false
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}

// samePos reports whether a and b name the same file, line and column.
func samePos(a, b token.Position) bool {
	return a.Filename == b.Filename && a.Line == b.Line && a.Column == b.Column
}

// short formats a position as base-name:line:col for reviewer words.
func short(p token.Position) string {
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// fitObserve moves an observe step on a line where no statement starts
// (an operation on a continuation line of a long statement) to the start
// of the innermost statement containing it: observe points go before
// statements, which the instrumenter finds by their first line.
func fitObserve(prog *testselect.Program, l rt.Location) rt.Location {
	path, err := prog.PathAt(token.Position{Filename: l.File, Line: l.Line, Column: l.Col})
	if err != nil {
		return l
	}
	for _, n := range path {
		switch n.(type) {
		case *ast.BlockStmt:
			continue
		case *ast.FuncLit, *ast.FuncDecl:
			return l
		}
		if _, ok := n.(ast.Stmt); !ok {
			continue
		}
		start := prog.Fset.Position(n.Pos())
		if start.Line != l.Line {
			l.Line, l.Col = start.Line, start.Column
		}
		return l
	}
	return l
}
