package branches_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"

	"github.com/confirm-go/confirm/analyzers/internal/branches"
)

const src = `package p

func mark(string) {}

func handOff(h func(), xs []int) {
	var g func()
	for range xs {
		g = h
		if g != nil {
			go g()
			break
		}
	}
	if g == nil {
		mark("released")
	}
	mark("after")
}

func flag(ok bool, h func()) {
	if ok {
		go h()
	}
	if !ok {
		mark("released")
	}
	mark("after")
}

func steadyLoop(ok bool, h func(), xs []int) {
	for range xs {
		if ok {
			go h()
			continue
		}
		mark("released")
	}
}

func manyTests(ok bool, h func(), a, b, c, d, e, f int) {
	if ok {
		go h()
	}
	if a > 0 {
		mark("a")
	}
	if b > 0 {
		mark("b")
	}
	if c > 0 {
		mark("c")
	}
	if d > 0 {
		mark("d")
	}
	if e > 0 {
		mark("e")
	}
	if f > 0 {
		mark("f")
	}
	if !ok {
		mark("released")
	}
	mark("after")
}

func next() func() { return nil }

func redefined() {
	for i := 0; i < 3; i++ {
		v := next()
		if v != nil {
			go v()
		}
		if v == nil {
			mark("released")
		}
	}
}
`

// TestReach checks which marks a path from each function's go statement
// reaches.
func TestReach(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, _, err := ssautil.BuildPackage(&types.Config{Importer: importer.Default()}, fset,
		types.NewPackage("p", ""), []*ast.File{f}, ssa.SanityCheckFunctions)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		fn       string
		released bool // the mark("released") block is reached
	}{
		{"handOff", false},    // g != nil on the way out of the loop
		{"flag", false},       // ok is true after go h()
		{"redefined", true},   // the next round defines v anew
		{"steadyLoop", false}, // ok, tested once, still holds next round
		// Conditions tested once do not tell paths apart: past six
		// of them, ok is still known.
		{"manyTests", false},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			fn := pkg.Func(tt.fn)
			var from ssa.Instruction
			marks := map[string]*ssa.BasicBlock{}
			for _, b := range fn.Blocks {
				for _, instr := range b.Instrs {
					switch x := instr.(type) {
					case *ssa.Go:
						from = x
					case *ssa.Call:
						if len(x.Call.Args) == 1 {
							if k, ok := x.Call.Args[0].(*ssa.Const); ok {
								marks[k.Value.ExactString()] = b
							}
						}
					}
				}
			}
			reach := branches.Reach(from)
			if got := reach[marks[`"released"`].Index]; got != tt.released {
				t.Errorf("released reached = %v, want %v", got, tt.released)
			}
			if b, ok := marks[`"after"`]; ok && !reach[b.Index] {
				t.Errorf("after not reached")
			}
		})
	}
}
