package pfsm

import (
	"fmt"
	"strconv"
	"strings"
)

// A Target is the source position of a key location. Distances are
// computed to the line: every instruction of the line is a target
// instruction. Col is carried into the tables but not used for matching,
// because SSA positions of calls and operators are not the column a
// diagnostic names.
type Target struct {
	File string
	Line int
	Col  int
}

func (t Target) String() string {
	if t.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", t.File, t.Line, t.Col)
	}
	return fmt.Sprintf("%s:%d", t.File, t.Line)
}

// ParseTarget parses a target written as file:line or file:line:col.
func ParseTarget(s string) (Target, error) {
	file, rest, ok := cutLastNumber(s)
	if !ok {
		return Target{}, fmt.Errorf("pfsm: target %q: want file:line[:col]", s)
	}
	if f2, line, ok := cutLastNumber(file); ok {
		col := rest
		if line <= 0 || col <= 0 {
			return Target{}, fmt.Errorf("pfsm: target %q: line and column must be positive", s)
		}
		return Target{File: f2, Line: line, Col: col}, nil
	}
	if rest <= 0 {
		return Target{}, fmt.Errorf("pfsm: target %q: line must be positive", s)
	}
	return Target{File: file, Line: rest}, nil
}

// cutLastNumber splits "prefix:N" into prefix and N.
func cutLastNumber(s string) (string, int, bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(s[i+1:])
	if err != nil {
		return "", 0, false
	}
	return s[:i], n, true
}

// sameFile reports whether two paths name the same file: equal, or one a
// suffix of the other at a path boundary.
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	return strings.HasSuffix(a, "/"+b)
}
