package sequence

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/confirm-go/confirm/confirm/testselect"
	"golang.org/x/tools/go/ssa"
)

// TestGuards checks the branches guarding the store to a field: each
// guard is described by the location keys its condition reads and the
// successor taken.
func TestGuards(t *testing.T) {
	prog, err := testselect.Load(context.Background(), "testdata/races", "./...", nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fn, field string
		want      []string
	}{
		{"(*races.Server).Handle", "hits", []string{"then: races.Server.ready"}},
		// An infinite loop: the body is still guarded by its if.
		{"(*races.Worker).Run", "count", []string{"then: races.Worker.enabled"}},
		// Nested: the if inside the loop, then the loop condition
		// (which reads no field: closed is a parameter).
		{"(*races.Worker).Drain", "count", []string{"then: ", "then: ", "else: "}},
		{"(*races.Stats).add", "total", nil},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			fns := prog.FuncsNamed(tt.fn)
			if len(fns) == 0 {
				t.Fatalf("no function %s", tt.fn)
			}
			fn := fns[0]
			b := storeBlock(fn, tt.field)
			if b == nil {
				t.Fatalf("no store to %s in %s", tt.field, tt.fn)
			}
			var got []string
			for _, d := range guards(controlDeps(fn), b) {
				succ := "then: "
				if d.Succ == 1 {
					succ = "else: "
				}
				var keys []string
				for _, u := range condUses(d.Branch.Instrs[len(d.Branch.Instrs)-1].(*ssa.If).Cond) {
					keys = append(keys, keyLabel(u.key))
				}
				got = append(got, succ+strings.Join(keys, ","))
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("guards = %q, want %q", got, tt.want)
			}
		})
	}
}

// storeBlock returns the block of fn that stores to the named field.
func storeBlock(fn *ssa.Function, field string) *ssa.BasicBlock {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			if s, ok := instr.(*ssa.Store); ok {
				if strings.HasSuffix(keyLabel(addrKey(s.Addr)), "."+field) {
					return b
				}
			}
		}
	}
	return nil
}

// TestPostDominatorsTerminate checks that every block gets a
// post-dominator, in functions with and without exits.
func TestPostDominatorsTerminate(t *testing.T) {
	prog, err := testselect.Load(context.Background(), "testdata/races", "./...", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, fn := range prog.Functions() {
		ipdom := postDominators(fn)
		exit := len(fn.Blocks)
		for v := 0; v < exit; v++ {
			// Walking up the tree must reach the exit.
			steps := 0
			for u := v; u != exit; u = ipdom[u] {
				if u < 0 || steps > exit {
					t.Fatalf("%s (%s): block %d has no path to the exit in the post-dominator tree %v",
						fn, prog.Fset.Position(fn.Pos()), v, ipdom)
				}
				steps++
			}
		}
	}
}
