package testselect_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/testselect"
)

// BenchmarkLoad measures loading the fixture module with its tests: go
// list, type checking, SSA, the VTA call graph and the reachability of
// every test.
func BenchmarkLoad(b *testing.B) {
	dir := filepath.Join("testdata", "selectmod")
	for b.Loop() {
		if _, err := testselect.Load(context.Background(), dir, "./...", nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSelect measures ranking the tests for one warning.
func BenchmarkSelect(b *testing.B) {
	prog := loadFixture(b, "selectmod", "./bank")
	w := &warning.Warning{Sites: []warning.Site{
		site(b, "bank/bank.go", 16, "(*bank.Account).Deposit"),
		site(b, "bank/bank.go", 22, "(*bank.Account).Withdraw"),
	}}
	for b.Loop() {
		if tests, _ := prog.Select(w); len(tests) == 0 {
			b.Fatal("no test")
		}
	}
}
