package sequence

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Parse parses a sequence given by the user, as with
// -seq file.go:LINE[:COL],file.go:LINE[:COL],...: file names are relative
// to wd unless absolute. Every location must be on a line holding a
// statement of a function body, where an observe point can go; without
// a column, the step is at the first statement starting on the line (or
// the first non-blank character of a line inside a longer statement).
// The steps are observe points; the WarningID is "user".
func Parse(spec, wd string) (Sequence, error) {
	seq := Sequence{WarningID: "user"}
	if strings.TrimSpace(spec) == "" {
		return seq, errors.New("sequence: empty -seq: want file.go:LINE[,file.go:LINE...]")
	}
	files := map[string]*parsedFile{}
	for i, elem := range strings.Split(spec, ",") {
		elem = strings.TrimSpace(elem)
		loc, err := parseElem(elem, wd, files)
		if err != nil {
			return Sequence{}, fmt.Errorf("sequence: -seq step %d %q: %w", i+1, elem, err)
		}
		seq.add(loc, KindObserve, "user step "+strconv.Itoa(i+1), "given by the user")
	}
	return seq, nil
}

// A parsedFile is a source file read for Parse.
type parsedFile struct {
	fset  *token.FileSet
	file  *ast.File
	tok   *token.File
	lines []string
}

func parseElem(elem, wd string, files map[string]*parsedFile) (token.Position, error) {
	if elem == "" {
		return token.Position{}, errors.New("empty step")
	}
	name, line, col, err := splitElem(elem)
	if err != nil {
		return token.Position{}, err
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(wd, name)
	}
	name = filepath.Clean(name)
	pf := files[name]
	if pf == nil {
		if pf, err = readGoFile(name); err != nil {
			return token.Position{}, err
		}
		files[name] = pf
	}
	if line < 1 || line > len(pf.lines) {
		return token.Position{}, fmt.Errorf("line %d out of range: %s has %d lines", line, filepath.Base(name), len(pf.lines))
	}
	text := pf.lines[line-1]
	if col != 0 && (col < 1 || col > len(text)) {
		return token.Position{}, fmt.Errorf("column %d out of range: line %d has %d columns", col, line, len(text))
	}
	first, ok := pf.stmtOnLine(line)
	if !ok {
		return token.Position{}, fmt.Errorf("line %d of %s holds no statement of a function body: %q", line, filepath.Base(name), strings.TrimSpace(text))
	}
	if col == 0 {
		col = first
	}
	return token.Position{Filename: name, Line: line, Column: col}, nil
}

// splitElem splits file:LINE[:COL], reading the numbers from the right
// so that file names may hold colons.
func splitElem(elem string) (name string, line, col int, err error) {
	i := strings.LastIndex(elem, ":")
	if i < 0 {
		return "", 0, 0, errors.New("want file.go:LINE or file.go:LINE:COL")
	}
	last, err := strconv.Atoi(elem[i+1:])
	if err != nil {
		return "", 0, 0, fmt.Errorf("bad line %q: want a number", elem[i+1:])
	}
	name, line = elem[:i], last
	if j := strings.LastIndex(name, ":"); j >= 0 {
		if n, err := strconv.Atoi(name[j+1:]); err == nil {
			name, line, col = name[:j], n, last
		}
	}
	if name == "" {
		return "", 0, 0, errors.New("missing file name")
	}
	if !strings.HasSuffix(name, ".go") {
		return "", 0, 0, fmt.Errorf("%s is not a .go file", name)
	}
	return name, line, col, nil
}

func readGoFile(name string) (*parsedFile, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("reading source: %w", err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, fmt.Errorf("parsing source: %w", err)
	}
	return &parsedFile{fset: fset, file: f, tok: fset.File(f.Pos()), lines: strings.Split(string(src), "\n")}, nil
}

// stmtOnLine reports whether an observe point can go on line: a
// statement of a function body starts there, or the line lies inside a
// simple statement spanning several lines (a long call). It returns the
// column of the first statement starting on the line, or else of the
// line's first non-blank character. A line holding only a brace, a case
// clause, a comment or a declaration outside functions is refused.
func (pf *parsedFile) stmtOnLine(line int) (col int, ok bool) {
	inside := false
	ast.Inspect(pf.file, func(n ast.Node) bool {
		if n == nil || col != 0 {
			return false
		}
		start, end := pf.fset.Position(n.Pos()), pf.fset.Position(n.End())
		if start.Line > line || end.Line < line {
			return false
		}
		switch n.(type) {
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause, *ast.LabeledStmt:
			return true
		case *ast.ExprStmt, *ast.AssignStmt, *ast.ReturnStmt, *ast.GoStmt, *ast.DeferStmt,
			*ast.SendStmt, *ast.IncDecStmt, *ast.DeclStmt:
			if start.Line == line {
				col = start.Column
				return false
			}
			inside = true
			return true
		case ast.Stmt:
			if start.Line == line {
				col = start.Column
				return false
			}
			return true
		}
		return true
	})
	if col != 0 {
		return col, true
	}
	if inside {
		text := pf.lines[line-1]
		return len(text) - len(strings.TrimLeft(text, " \t")) + 1, true
	}
	return 0, false
}
