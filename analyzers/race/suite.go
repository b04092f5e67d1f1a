package race

import (
	"go/types"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// isSuite reports whether n is a test suite: a type a test file declares
// with a method named like a test (testify's suite.Suite, gocheck). A
// suite runner calls its test methods one at a time, each after the
// suite's set-up, as the testing package calls test functions.
func (c *checker) isSuite(n *types.Named) bool {
	if !c.declaredInTest(n.Obj()) {
		return false
	}
	ms := types.NewMethodSet(types.NewPointer(n))
	for i := 0; i < ms.Len(); i++ {
		if name := ms.At(i).Obj().Name(); strings.HasPrefix(name, "Test") && ms.At(i).Obj().Pkg() == c.pass.Pkg {
			return true
		}
	}
	return false
}

// inSuite reports whether fn is a method of a test suite, or a function
// literal in one.
func (c *checker) inSuite(fn *ssa.Function) bool {
	for fn.Parent() != nil {
		fn = fn.Parent()
	}
	n, ok := receiverNamed(fn)
	return ok && c.isSuite(n)
}
