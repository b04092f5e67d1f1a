package testselect_test

import (
	"context"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
)

// loadFixture loads the package pattern of the fixture module in
// testdata/dir.
func loadFixture(t testing.TB, dir, pattern string) *testselect.Program {
	t.Helper()
	prog, err := testselect.Load(context.Background(), filepath.Join("testdata", dir), pattern, nil)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return prog
}

// site returns a warning site at file:line of the bank fixture.
func site(t testing.TB, file string, line int, fn string) warning.Site {
	abs, err := filepath.Abs(filepath.Join("testdata", "selectmod", file))
	if err != nil {
		t.Fatal(err)
	}
	return warning.Site{Position: token.Position{Filename: abs, Line: line, Column: 2}, Func: fn}
}

func TestSelect(t *testing.T) {
	prog := loadFixture(t, "selectmod", "./bank")
	const pkg = "example.com/selectmod/bank"
	tests := []struct {
		name          string
		kind          warning.Kind
		sites         []warning.Site
		pkg           string
		wantTests     []string
		wantUnreached []string
	}{{
		// TestBoth reaches both functions; the others reach one, ranked
		// by steps: TestDeposit and TestSub in one step, then the deeper
		// ones. TestNothing and TestIface reach neither.
		name:      "ranking",
		sites:     []warning.Site{site(t, "bank/bank.go", 16, "(*bank.Account).Deposit"), site(t, "bank/bank.go", 22, "(*bank.Account).Withdraw")},
		pkg:       pkg,
		wantTests: []string{"TestBoth", "TestExternalTransfer", "TestGo", "TestDeposit", "TestDeep", "TestSub"},
	}, {
		// For a race, TestGo comes first: its goroutine runs Deposit and
		// Withdraw (through Transfer) while the test goes on.
		name:      "ranking for a race",
		kind:      warning.Race,
		sites:     []warning.Site{site(t, "bank/bank.go", 16, "(*bank.Account).Deposit"), site(t, "bank/bank.go", 22, "(*bank.Account).Withdraw")},
		pkg:       pkg,
		wantTests: []string{"TestGo", "TestBoth", "TestExternalTransfer", "TestDeposit", "TestDeep", "TestSub"},
	}, {
		// The t.Run closure of TestSub reaches Withdraw in two steps, as
		// TestExternalTransfer does through Transfer.
		name:      "subtest closure",
		sites:     []warning.Site{site(t, "bank/bank.go", 22, "(*bank.Account).Withdraw")},
		pkg:       pkg,
		wantTests: []string{"TestBoth", "TestExternalTransfer", "TestSub", "TestGo"},
	}, {
		// worker runs in a goroutine started by TestGo.
		name:      "goroutine",
		sites:     []warning.Site{site(t, "bank/bank.go", 51, "bank.worker")},
		pkg:       pkg,
		wantTests: []string{"TestGo"},
	}, {
		// VTA resolves s.Put to memStore only.
		name:      "interface dispatch",
		sites:     []warning.Site{site(t, "bank/bank.go", 42, "(*bank.memStore).Put")},
		pkg:       pkg,
		wantTests: []string{"TestIface"},
	}, {
		name:          "unreached",
		sites:         []warning.Site{site(t, "bank/bank.go", 46, "(*bank.diskStore).Put")},
		pkg:           pkg,
		wantUnreached: []string{"(*bank.diskStore).Put"},
	}, {
		// A site without a position is matched by name.
		name:      "by name",
		sites:     []warning.Site{{Func: "bank.depositTwice"}},
		pkg:       pkg,
		wantTests: []string{"TestDeep"},
	}, {
		// A function of a module-local dependency, reached from the
		// tests of bank since audit has none.
		name:      "module dependency",
		sites:     []warning.Site{site(t, "audit/audit.go", 10, "audit.Record")},
		pkg:       "example.com/selectmod/audit",
		wantTests: []string{"TestExternalTransfer", "TestGo"},
	}, {
		// A generic function, reached through its instance.
		name:      "generic",
		sites:     []warning.Site{site(t, "bank/generic.go", 7, "bank.Total")},
		pkg:       pkg,
		wantTests: []string{"TestTotal"},
	}, {
		name:      "generic by name",
		sites:     []warning.Site{{Func: "bank.Total"}},
		pkg:       pkg,
		wantTests: []string{"TestTotal"},
	}, {
		name:          "unknown function",
		sites:         []warning.Site{{Func: "bank.nosuch"}},
		pkg:           pkg,
		wantUnreached: []string{"bank.nosuch"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := &warning.Warning{Kind: tt.kind, Package: tt.pkg, Sites: tt.sites}
			gotTests, gotUnreached := prog.Select(w)
			if !reflect.DeepEqual(gotTests, tt.wantTests) {
				t.Errorf("tests = %q, want %q", gotTests, tt.wantTests)
			}
			if !reflect.DeepEqual(gotUnreached, tt.wantUnreached) {
				t.Errorf("unreached = %q, want %q", gotUnreached, tt.wantUnreached)
			}
		})
	}
}

func TestCallChain(t *testing.T) {
	prog := loadFixture(t, "selectmod", "./bank")
	tests := []struct {
		test, fn string
		want     []string // file:line:col relative to the fixture
	}{
		{"TestGo", "audit.Record", []string{"bank/bank_test.go:37:2", "bank/bank.go:51:2", "bank/bank.go:29:2"}},
		{"TestSub", "(*bank.Account).Withdraw", []string{"bank/bank_test.go:28:2", "bank/bank_test.go:30:3"}},
		{"TestDeep", "(*Account).Deposit", []string{"bank/bank_test.go:12:2", "bank/bank.go:33:2"}},
		{"TestIface", "(*bank.memStore).Put", []string{"bank/bank_test.go:42:2", "bank/bank.go:48:22"}},
		{"TestNothing", "(*bank.Account).Deposit", nil},
		{"example.com/selectmod/bank.TestDeep", "bank.depositTwice", []string{"bank/bank_test.go:12:2"}},
		{"example.com/other.TestDeep", "bank.depositTwice", nil},
	}
	root, _ := filepath.Abs(filepath.Join("testdata", "selectmod"))
	for _, tt := range tests {
		t.Run(tt.test, func(t *testing.T) {
			var got []string
			for _, p := range prog.CallChain(tt.test, tt.fn) {
				rel, _ := filepath.Rel(root, p.Filename)
				got = append(got, strings.Join([]string{filepath.ToSlash(rel), itoa(p.Line), itoa(p.Column)}, ":"))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("CallChain(%s, %s) = %q, want %q", tt.test, tt.fn, got, tt.want)
			}
		})
	}
}

func TestCallPathVia(t *testing.T) {
	prog := loadFixture(t, "selectmod", "./bank")
	deposit := prog.FuncsNamed("(*bank.Account).Deposit")
	if len(deposit) == 0 {
		t.Fatal("no Deposit")
	}
	// TestGo reaches Deposit only in the goroutine it starts.
	path, err := prog.CallPathVia("TestGo", deposit[0], testselect.EdgeGo)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range path {
		kinds = append(kinds, string(e.Kind)+" "+testselect.ShortName(e.Callee))
	}
	want := []string{"go bank.worker", "call bank.Transfer", "call (*bank.Account).Deposit"}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("path = %q, want %q", kinds, want)
	}
	// TestDeposit calls it directly: there is no path through a go.
	if _, err := prog.CallPathVia("TestDeposit", deposit[0], testselect.EdgeGo); err == nil {
		t.Error("TestDeposit reaches Deposit through a go statement")
	}
	if !prog.Spawns("TestGo", deposit[0]) || prog.Spawns("TestDeposit", deposit[0]) {
		t.Errorf("Spawns(TestGo) = %v, Spawns(TestDeposit) = %v; want true, false",
			prog.Spawns("TestGo", deposit[0]), prog.Spawns("TestDeposit", deposit[0]))
	}
}

func itoa(i int) string { return strconv.Itoa(i) }
