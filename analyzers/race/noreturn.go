package race

import (
	"golang.org/x/tools/go/ssa"
)

// testingNoReturn are the methods of package testing's TB interface
// that never return to their caller: they end the goroutine.
var testingNoReturn = map[string]bool{"Fatal": true, "Fatalf": true, "FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true}

// noReturn reports whether x calls a function that never returns where
// the control-flow graph does not show it: an interface method of
// package testing (a helper's t testing.TB calling t.Fatalf). A static
// call of such a function (t.Fatalf on a *testing.T, log.Fatal,
// os.Exit, runtime.Goexit) needs no test here: buildssa hands go/ssa
// ctrlflow's account of the functions that never return
// (ctrlflow.CFGs.NoReturn), and go/ssa ends the block at the call.
func noReturn(x ssa.Instruction) bool {
	call, ok := x.(*ssa.Call)
	if !ok || !call.Call.IsInvoke() {
		return false
	}
	m := call.Call.Method
	return m.Pkg() != nil && m.Pkg().Path() == "testing" && testingNoReturn[m.Name()]
}
