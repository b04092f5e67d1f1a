package lockset_test

import (
	"go/types"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/ssa"
)

// probe reports, at every call of a function named "probe", the locks held
// before the call, and at every call of "class", the class of its
// argument.
var probe = &analysis.Analyzer{
	Name:     "probe",
	Doc:      "report lockset facts at probe() and class() calls (test only)",
	Requires: []*analysis.Analyzer{lockset.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[lockset.Analyzer].(*lockset.Result)
		for _, fn := range res.SSA.SrcFuncs {
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					call, ok := instr.(*ssa.Call)
					if !ok {
						continue
					}
					callee := call.Call.StaticCallee()
					if callee == nil {
						continue
					}
					switch callee.Name() {
					case "probe":
						held := res.HeldBefore(call)
						desc := held.Describe()
						for _, l := range held {
							if l.Assumed {
								desc += " [assumed " + l.Class + "]"
							}
						}
						pass.Reportf(call.Pos(), "held: %s", desc)
					case "class":
						arg := call.Call.Args[0]
						if mi, ok := arg.(*ssa.MakeInterface); ok && !types.IsInterface(mi.X.Type()) {
							arg = mi.X
						}
						r, ok := res.Ref(arg)
						if !ok {
							pass.Reportf(call.Pos(), "class: unknown")
							continue
						}
						pass.Reportf(call.Pos(), "class: %s", r.Class)
					}
				}
			}
		}
		return nil, nil
	},
}

func TestLockset(t *testing.T) {
	analysistest.Run(t, analysistest.TestData(), probe, "a", "b", "c", "rangefunc")
}

// TestSummaryFacts checks the facts exported for lock helpers.
func TestSummaryFacts(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), probe, "b")
	for _, r := range results {
		ls := r.Pass.ResultOf[lockset.Analyzer].(*lockset.Result)
		tests := []struct {
			fn, want string
		}{
			{"LockAll", "lockset{acquires: b.mu; releases: ; holds: b.mu; calls: }"},
			{"UnlockAll", "lockset{acquires: ; releases: b.mu; holds: ; calls: }"},
			{"WithLock", "lockset{acquires: b.mu; releases: ; holds: ; calls: param 0 under [b.mu]}"},
			// Relock leaves its caller's lock as it found it (see
			// neutral); taking it back is an acquisition, ordered
			// after the caller's other locks (see unheld).
			{"Relock", "lockset{acquires: b.rw(r); releases: ; holds: b.rw(r); calls: }"},
		}
		for _, tt := range tests {
			obj, ok := r.Pass.Pkg.Scope().Lookup(tt.fn).(*types.Func)
			if !ok {
				t.Fatalf("no func %s", tt.fn)
			}
			fn := ls.SSA.Pkg.Prog.FuncValue(obj)
			if got := ls.Summary(fn).String(); got != tt.want {
				t.Errorf("summary of %s = %q, want %q", tt.fn, got, tt.want)
			}
		}
	}
}

// TestConditionalSummaries checks the summaries of the helpers of
// channels used as mutexes and of atomic flags used as try-locks: a
// conditional acquisition holds its lock where the function succeeds.
func TestConditionalSummaries(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), probe, "c")
	for _, r := range results {
		ls := r.Pass.ResultOf[lockset.Analyzer].(*lockset.Result)
		tests := []struct {
			fn, want string
		}{
			{"(*Mu).ForceLock", "lockset{acquires: (c.Mu).ch; releases: ; holds: (c.Mu).ch; calls: }"},
			{"(*Mu).TryLock", "lockset{acquires: ; releases: ; holds: ; holds on success: (c.Mu).ch; calls: }"},
			{"(*Mu).Lock", "lockset{acquires: (c.Mu).ch; releases: ; holds: ; holds on success: (c.Mu).ch; calls: }"},
			{"(*Mu).Relay", "lockset{acquires: (c.Mu).ch; releases: ; holds: ; holds on success: (c.Mu).ch; calls: }"},
			{"(*Mu).Unlock", "lockset{acquires: ; releases: (c.Mu).ch; holds: ; calls: }"},
			{"(*Tree).TryRun", "lockset{acquires: ; releases: ; holds: ; holds on success: (c.Tree).running; calls: }"},
			{"(*Tree).run", "lockset{acquires: ; releases: (c.Tree).running; holds: ; calls: }"},
		}
		for _, tt := range tests {
			fn := funcNamed(ls, tt.fn)
			if fn == nil {
				t.Fatalf("no func %s", tt.fn)
			}
			if got := ls.Summary(fn).String(); got != tt.want {
				t.Errorf("summary of %s = %q, want %q", tt.fn, got, tt.want)
			}
			kind := lockset.KindChan
			if strings.Contains(tt.fn, "Tree") {
				kind = lockset.KindFlag
			}
			s := ls.Summary(fn)
			for _, items := range [][]lockset.Item{s.Acquires, s.Releases, s.Holds, s.CondHolds} {
				for _, it := range items {
					if it.Kind != kind {
						t.Errorf("summary of %s: %s is a %s, want a %s", tt.fn, it.Class, it.Kind, kind)
					}
				}
			}
		}
	}
}

// funcNamed returns the source function of the package named name
// ("(*T).M" or "F").
func funcNamed(ls *lockset.Result, name string) *ssa.Function {
	for _, fn := range ls.Funcs {
		if strings.TrimPrefix(lockset.FuncName(fn), "c.") == name || strings.Replace(lockset.FuncName(fn), "c.", "", 1) == name {
			return fn
		}
	}
	return nil
}

func TestHeldBeforeWhen(t *testing.T) {
	results := analysistest.Run(t, analysistest.TestData(), probe, "c")
	for _, r := range results {
		ls := r.Pass.ResultOf[lockset.Analyzer].(*lockset.Result)
		add := funcNamed(ls, "(*Counter).add")
		if add == nil {
			t.Fatal("no func (*Counter).add")
		}
		flags := ls.LockFlags(add)
		if len(flags) != 1 || flags[0].Name() != "lock" {
			t.Fatalf("LockFlags((*Counter).add) = %v, want [lock]", flags)
		}
		if got := ls.LockFlags(funcNamed(ls, "(*Counter).Add")); len(got) != 0 {
			t.Errorf("LockFlags((*Counter).Add) = %v, want none", got)
		}
		var probeCall ssa.Instruction
		for _, b := range add.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(*ssa.Call); ok && call.Call.StaticCallee() != nil && call.Call.StaticCallee().Name() == "probe" {
					probeCall = call
				}
			}
		}
		for _, tt := range []struct {
			want bool
			held string
		}{{true, "(c.Counter).mu"}, {false, ""}} {
			set, ok := ls.HeldBeforeWhen(probeCall, flags[0], tt.want)
			if !ok || set.Describe() != tt.held {
				t.Errorf("HeldBeforeWhen(probe, lock == %v) = %q, %v; want %q, true", tt.want, set.Describe(), ok, tt.held)
			}
		}
	}
}
