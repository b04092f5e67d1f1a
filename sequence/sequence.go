// Package sequence derives, from a static warning, sequences of key
// program locations that a failing execution must pass through in order:
// the input of Rungta and Mercer's meta heuristic (§2.1 of "A Meta
// Heuristic for Effectively Detecting Concurrency Errors").
//
// For a lock-order cycle A→B, B→A the sequence is the interleaved
// acquisitions l0 (A, path 1), l9 (B, path 2), l1 (B while holding A,
// path 1), l18 (A while holding B, path 2). For a double lock it is the
// two acquisitions; for a recursive read lock, the first RLock, a
// writer's Lock of the same class, and the second RLock; for a lock leak,
// the acquisition, the return that leaks it and a later acquisition. For
// a data race it is the calls that lead from the test to the racing
// functions, the data definitions that feed the branch conditions
// guarding the accesses (found by control dependence over post-dominators
// and def-use chains, which the paper left to the user), and the two
// accesses. The call paths are chosen so that the two accesses can run at
// the same time (through a go statement when the shortest path would
// finish its access before the other path starts), and each step is
// placed where the test's execution passes it.
//
// Steps are rt.Locations with absolute file names, at the position of the
// operation an observe point goes before: the start of a call expression
// (Lock calls, calls on the path from the test), the go or defer keyword,
// the left-hand side of a store, the access expression of a racing read
// or write, the return keyword. The instrumenter puts an observe point
// before the statement that starts on the step's line, so an observe step
// on a continuation line of a long statement is moved to the start of
// that statement.
//
// The program (SSA, call graph, syntax) comes from
// confirm/testselect.Program, which also selects the test a sequence is
// generated for. Sequence.Indexed gives the steps in the form of
// rt.Config's Locations and Sequence; Parse reads a sequence given by
// the user.
package sequence

import (
	"errors"
	"fmt"
	"go/token"
	"sync"

	"github.com/confirm-go/confirm/analyzers/warning"
	"github.com/confirm-go/confirm/confirm/rt"
	"github.com/confirm-go/confirm/confirm/testselect"
	"golang.org/x/tools/go/ssa"
)

// Kinds of steps, as rt.Location.Kind.
const (
	KindObserve = "observe"
	KindRead    = "read"
	KindWrite   = "write"
)

// A Sequence is an ordered list of key locations for one warning.
type Sequence struct {
	// WarningID is the ID of the warning the sequence is for; "user" for
	// a sequence given on the command line.
	WarningID string `json:"warningID"`
	// Test is the test the sequence was generated for, if any.
	Test string `json:"test,omitempty"`
	// Steps are the key locations in the order a failing execution
	// observes them. Kind is "observe", or "read"/"write" for racing
	// accesses.
	Steps []rt.Location `json:"steps"`
	// Why says, per step, why it is in the sequence.
	Why []string `json:"why"`
}

// add appends a step.
func (s *Sequence) add(pos token.Position, kind, label, why string) {
	if kind == KindObserve && (!pos.IsValid() || pos.Filename == "") {
		// A hint with no place in the source (a function value handed
		// over where the code has no position, such as a store into a
		// map): it cannot be instrumented, and leaving it out only loses
		// the hint. Accesses and lock operations always have positions.
		return
	}
	s.Steps = append(s.Steps, rt.Location{File: pos.Filename, Line: pos.Line, Col: pos.Column, Kind: kind, Label: label})
	s.Why = append(s.Why, why)
}

// String formats the sequence as file:line:col steps separated by " → ".
func (s Sequence) String() string {
	out := ""
	for i, l := range s.Steps {
		if i > 0 {
			out += " → "
		}
		out += fmt.Sprintf("%s:%d:%d", l.File, l.Line, l.Col)
		if l.Kind != KindObserve {
			out += "(" + l.Kind + ")"
		}
	}
	return out
}

// Indexed returns locs with the distinct steps of s appended, and the
// steps as indexes into the returned list: the form of rt.Config's
// Locations and Sequence. A step equal to a location already in the list
// (same file, line, column and kind) reuses it, so a location that the
// sequence visits twice (two goroutines passing one Lock) is instrumented
// once.
func (s Sequence) Indexed(locs []rt.Location) ([]rt.Location, []int) {
	type key struct {
		file      string
		line, col int
		kind      string
	}
	index := map[key]int{}
	for i, l := range locs {
		k := key{l.File, l.Line, l.Col, l.Kind}
		if _, ok := index[k]; !ok {
			index[k] = i
		}
	}
	seq := make([]int, len(s.Steps))
	for i, st := range s.Steps {
		k := key{st.File, st.Line, st.Col, st.Kind}
		j, ok := index[k]
		if !ok {
			j = len(locs)
			locs = append(locs, st)
			index[k] = j
		}
		seq[i] = j
	}
	return locs, seq
}

// maxAlternatives bounds the sequences generated for one warning when
// several program locations can play one role (several writers for a
// recursive read lock, several later acquisitions of a leaked lock).
const maxAlternatives = 3

// Generate returns the sequences of key locations for w, the best first.
// test names the test the sequence is for ("TestX" or
// "import/path.TestX"); it decides the call chains of race sequences and
// which of several candidate locations come first. It may be empty.
// prog must hold the package of w. To generate the sequences of many
// warnings of one program, a Generator saves work.
func Generate(w *warning.Warning, prog *testselect.Program, test string) ([]Sequence, error) {
	return NewGenerator(prog).Generate(w, test)
}

// A Generator generates the sequences of the warnings of one program,
// caching what it computes about the program (its stores, the control
// dependences of its functions) across warnings. It is safe for
// concurrent use.
type Generator struct {
	prog *testselect.Program

	mu          sync.Mutex
	storesByKey map[string][]def
	placedKeys  map[string]bool // keys whose stores have positions
	deps        map[*ssa.Function][][]controlDep
}

// NewGenerator returns a Generator for the warnings of prog.
func NewGenerator(prog *testselect.Program) *Generator {
	return &Generator{prog: prog}
}

// Generate returns the sequences of key locations for w, as the function
// Generate does.
func (gen *Generator) Generate(w *warning.Warning, test string) ([]Sequence, error) {
	if w == nil {
		return nil, errors.New("sequence: nil warning")
	}
	if gen.prog == nil {
		return nil, fmt.Errorf("sequence: warning %s: no program", w.ID)
	}
	if len(w.Sites) == 0 {
		return nil, fmt.Errorf("sequence: warning %s has no sites", w.ID)
	}
	g := &generator{gen: gen, w: w, prog: gen.prog, test: test}
	var seqs []Sequence
	var err error
	switch w.Kind {
	case warning.LockOrderCycle:
		seqs, err = g.lockOrder()
	case warning.DoubleLock:
		seqs, err = g.doubleLock()
	case warning.RWRDeadlock:
		seqs, err = g.rwr()
	case warning.LockLeak:
		seqs, err = g.lockLeak()
	case warning.LockChannel:
		seqs, err = g.lockChannel()
	case warning.Race:
		seqs, err = g.race()
	default:
		return nil, fmt.Errorf("sequence: warning %s: unknown kind %q", w.ID, w.Kind)
	}
	if err != nil {
		return nil, fmt.Errorf("sequence: warning %s (%s): %w", w.ID, w.Kind, err)
	}
	for i := range seqs {
		seqs[i].WarningID = w.ID
		seqs[i].Test = test
		for j, st := range seqs[i].Steps {
			if st.Kind == KindObserve {
				seqs[i].Steps[j] = fitObserve(gen.prog, st)
			}
		}
	}
	return seqs, nil
}

// A generator holds what the sequences of one warning are derived from.
type generator struct {
	gen  *Generator
	w    *warning.Warning
	prog *testselect.Program
	test string
}

// stores returns the stores to the location key in the program, with
// their positions.
func (g *generator) stores(key string) []def {
	gen := g.gen
	gen.mu.Lock()
	defer gen.mu.Unlock()
	if gen.storesByKey == nil {
		gen.storesByKey = storeIndex(gen.prog)
		gen.placedKeys = map[string]bool{}
	}
	defs := gen.storesByKey[key]
	if !gen.placedKeys[key] {
		gen.placedKeys[key] = true
		for i := range defs {
			defs[i].pos = defPos(gen.prog, defs[i])
		}
	}
	return defs
}

// controlDeps returns the control dependences of fn's blocks.
func (g *generator) controlDeps(fn *ssa.Function) [][]controlDep {
	gen := g.gen
	gen.mu.Lock()
	defer gen.mu.Unlock()
	if gen.deps == nil {
		gen.deps = map[*ssa.Function][][]controlDep{}
	}
	d, ok := gen.deps[fn]
	if !ok {
		d = controlDeps(fn)
		gen.deps[fn] = d
	}
	return d
}
