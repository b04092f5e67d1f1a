package race

import (
	"golang.org/x/tools/go/ssa"
)

// noReturnFuncs are the functions and methods, by package path and name,
// that never return to their caller: they end the goroutine (t.Fatal,
// t.FailNow, t.Skip, runtime.Goexit) or the program (log.Fatal,
// os.Exit), or panic (log.Panic). go/ssa does not know them: the code
// after such a call goes on to the rest of the function.
var noReturnFuncs = map[string]map[string]bool{
	"testing": {"Fatal": true, "Fatalf": true, "FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true},
	"log":     {"Fatal": true, "Fatalf": true, "Fatalln": true, "Panic": true, "Panicf": true, "Panicln": true},
	"os":      {"Exit": true},
	"runtime": {"Goexit": true},
}

// noReturn reports whether x calls a function that never returns (see
// noReturnFuncs): a function or method of those packages (t.Fatalf on a
// *testing.T, log.Fatal, a *log.Logger's Fatalf), or an interface
// method of package testing (testing.TB's Fatal).
func noReturn(x ssa.Instruction) bool {
	call, ok := x.(*ssa.Call)
	if !ok {
		return false
	}
	common := &call.Call
	if common.IsInvoke() {
		m := common.Method
		return m.Pkg() != nil && m.Pkg().Path() == "testing" && noReturnFuncs["testing"][m.Name()]
	}
	fn := common.StaticCallee()
	if fn == nil {
		return false
	}
	if o := fn.Origin(); o != nil {
		fn = o
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil {
		return false
	}
	return noReturnFuncs[obj.Pkg().Path()][obj.Name()]
}
