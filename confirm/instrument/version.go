package instrument

import (
	"bytes"
	"fmt"
	"go/build/constraint"
	"go/version"
)

// minLang is the language version the rewritten files and the runtime
// need: they call generic functions, and the runtime uses min and max.
const minLang = "go1.21"

// atLeastMinLang reports whether files of a module whose go.mod says goVer
// ("go1.15"; "" when the go line is missing, which the go command takes as
// go1.16) already compile at minLang.
func atLeastMinLang(goVer string) bool {
	return goVer != "" && version.Compare(goVer, minLang) >= 0
}

// upgradeLang makes src, a file of a module at an older language version,
// compile at minLang, through its build constraint (a file's //go:build
// line can raise its language version, and go1.21 changes the meaning of
// no older program): an existing //go:build line becomes
// "//go:build go1.21 && (expr)" on the same line; otherwise the file
// starts with "//go:build go1.21", a blank line and a //line directive
// that gives the original first line its position back, so that every
// position stays what it was. Nothing else changes between those versions
// for a program that compiled before (the loop variable semantics change
// in go1.22), so the program means what it meant.
func upgradeLang(src []byte, filename string) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	for i, line := range lines {
		trimmed := bytes.TrimSpace(line)
		if bytes.HasPrefix(trimmed, []byte("package ")) {
			break // the header ended without a //go:build line
		}
		if !constraint.IsGoBuild(string(trimmed)) {
			continue
		}
		expr, err := constraint.Parse(string(trimmed))
		if err != nil {
			break
		}
		nl := line[len(bytes.TrimRight(line, "\r\n")):]
		lines[i] = []byte(fmt.Sprintf("//go:build %s && (%s)%s", minLang, expr, nl))
		return bytes.Join(lines, nil)
	}
	head := fmt.Sprintf("//go:build %s\n\n//line %s:1:1\n", minLang, filename)
	return append([]byte(head), src...)
}
