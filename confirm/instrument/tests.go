package instrument

import (
	"go/ast"
	"go/types"
	"strings"
	"unicode"
	"unicode/utf8"
)

// isTestFunc reports whether fd is a top-level test function go test runs:
// func TestX(t *testing.T) with X not starting with a lower-case letter.
func (r *fileRewriter) isTestFunc(fd *ast.FuncDecl) bool {
	if fd.Recv != nil || fd.Body == nil || fd.Type.TypeParams != nil || !strings.HasPrefix(fd.Name.Name, "Test") {
		return false
	}
	if rest := fd.Name.Name[len("Test"):]; rest != "" {
		if c, _ := utf8.DecodeRuneInString(rest); unicode.IsLower(c) {
			return false
		}
	}
	obj, ok := r.info.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := obj.Signature()
	if sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return false
	}
	named, ok := derefNamed(sig.Params().At(0).Type())
	_, isPtr := sig.Params().At(0).Type().(*types.Pointer)
	return ok && isPtr && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "testing" && named.Obj().Name() == "T"
}

// wrapTest rewrites func TestX(t *testing.T) { BODY } to
//
//	func TestX(t *testing.T) { confirmrt.RunTest(t, confirmTestX) }; func confirmTestX(t *testing.T) { BODY }
//
// on the line of the original declaration.
func (r *fileRewriter) wrapTest(fd *ast.FuncDecl) {
	if !r.isTest || !r.isTestFunc(fd) || fd.Name.Name == "TestMain" {
		return
	}
	typ, err := flatten(r.text(fd.Type.Params.List[0].Type))
	if err != nil {
		r.ed.fail(err)
		return
	}
	body := "confirmTest" + fd.Name.Name[len("Test"):]
	if r.names.taken(body) {
		body = r.names.next("Test" + fd.Name.Name[len("Test"):])
	}
	r.usesRT = true
	r.ed.open(r.off(fd.Type.Func), 0,
		"func "+fd.Name.Name+"(t "+typ+") { "+rtName+".RunTest(t, "+body+") }; ")
	r.ed.replace(r.off(fd.Name.Pos()), r.off(fd.Name.End()), 0, body)
	r.tests = append(r.tests, testFunc{name: fd.Name.Name, pos: r.position(fd.Pos())})
}
