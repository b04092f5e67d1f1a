package race

import (
	"go/constant"
	"go/token"

	"golang.org/x/tools/go/ssa"

	"github.com/confirm-go/confirm/analyzers/internal/lockset"
)

// A loop may wait by a flag rather than on every path: it polls two
// channels and leaves only once both flags, set from what it received,
// are true.
//
//	for !aReady || !bReady {
//		select {
//		case aReady = <-aDone:
//		case bReady = <-bDone:
//		default:
//		}
//	}
//
// The exit is reached only along the edges on which aReady and bReady are
// true, and each is true only after its receive: those edges pass a wait
// as surely as the receive itself.

// flagReceives returns the receives that must have completed, earlier on
// the path, for the boolean v to be true: v is a value received (from a
// receive or a select's receive case), the constant false (never true),
// or a phi of such values. ok is false when v may be true otherwise.
// seen holds the phis being followed (nil at first).
func flagReceives(v ssa.Value, seen map[*ssa.Phi]bool) (recvs []ssa.Instruction, ok bool) {
	switch v := v.(type) {
	case *ssa.Const:
		if v.Value != nil && v.Value.Kind() == constant.Bool && !constant.BoolVal(v.Value) {
			return nil, true // never true
		}
	case *ssa.UnOp:
		if v.Op == token.ARROW {
			return []ssa.Instruction{v}, true
		}
	case *ssa.Extract:
		switch t := v.Tuple.(type) {
		case *ssa.UnOp: // x, ok := <-ch
			if t.Op == token.ARROW {
				return []ssa.Instruction{t}, true
			}
		case *ssa.Select: // the value of a receive case
			if v.Index >= 2 {
				return []ssa.Instruction{t}, true
			}
		}
	case *ssa.Phi:
		if seen[v] {
			return nil, true // the flag keeping its value round a loop
		}
		if seen == nil {
			seen = map[*ssa.Phi]bool{}
		}
		seen[v] = true
		for i, e := range v.Edges {
			r, ok := flagReceives(e, seen)
			if !ok {
				// done = true in a case body: set after its receive.
				recv := receiveDominating(v.Block().Preds[i], v.Block())
				if recv == nil {
					return nil, false
				}
				r = []ssa.Instruction{recv}
			}
			recvs = append(recvs, r...)
		}
		return recvs, true
	}
	return nil, false
}

// receiveDominating returns the receive that every path to block b
// passes after header: a receive in b or a block dominating it, or the
// receive case of a select whose body b is in; nil when there is none.
func receiveDominating(b, header *ssa.BasicBlock) ssa.Instruction {
	for depth := 0; b != nil && b != header && depth < maxReceiveDepth; depth++ {
		for _, x := range b.Instrs {
			if u, ok := x.(*ssa.UnOp); ok && u.Op == token.ARROW {
				return u
			}
		}
		if len(b.Preds) == 1 {
			if sel, _, ok := recvCaseInto(b.Preds[0], b); ok {
				return sel
			}
		}
		b = b.Idom()
	}
	return nil
}

// maxReceiveDepth bounds the blocks receiveDominating walks up.
const maxReceiveDepth = 8

// flagEdgeReceives returns the receives that the edge from p to s
// implies have completed: p ends in an If on a flag (or its negation)
// that the edge finds true (see flagReceives).
func flagEdgeReceives(p, s *ssa.BasicBlock) ([]ssa.Instruction, bool) {
	ifi, ok := p.Instrs[len(p.Instrs)-1].(*ssa.If)
	if !ok || len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
		return nil, false
	}
	cond, negated := lockset.Unnegated(ifi.Cond)
	if truth := s == p.Succs[0]; truth == negated {
		return nil, false // the edge on which the flag is false
	}
	return flagReceives(cond, nil)
}

// reachesAvoidingFlags is reachesAvoiding, with the edges that imply
// completed receives, each one for which waited is true, cut as well.
func reachesAvoidingFlags(from ssa.Instruction, i int, to ssa.Instruction, stop, waited func(ssa.Instruction) bool) bool {
	return reachesAvoidingEdges(from, i, to, stop, func(b, s *ssa.BasicBlock) bool {
		recvs, ok := flagEdgeReceives(b, s)
		return ok && allWaited(recvs, waited)
	})
}

// allWaited reports whether waited is true for every receive of recvs
// (vacuously when recvs is empty: the edge is never taken).
func allWaited(recvs []ssa.Instruction, waited func(ssa.Instruction) bool) bool {
	for _, r := range recvs {
		if !waited(r) {
			return false
		}
	}
	return true
}
