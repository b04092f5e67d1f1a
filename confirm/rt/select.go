package rt

import "reflect"

// Select replaces a select statement whose channel operands and send
// values were evaluated, in source order, into cases. It returns the index
// of the chosen case, or -1 for default. Which of several ready cases is
// taken is a scheduling decision. Select(false) blocks forever.
func Select(hasDefault bool, cases ...Case) int {
	pc := callerPC()
	e, g, md := enter()
	switch md {
	case modeReal:
		return realSelect(hasDefault, cases)
	case modeDying:
		if !hasDefault {
			// The rewritten switch has no -1 case without a default:
			// end the exiting goroutine here instead.
			g.kill()
		}
		return -1
	}
	g.op = op{kind: opSelect, pc: pc, cases: cases, hasDefault: hasDefault, choice: -1}
	e.prepChanLocked(&g.op)
	e.point(g)
	g.op.finishChan()
	return g.op.choice
}

// realSelect is Select outside a controlled execution.
func realSelect(hasDefault bool, cases []Case) int {
	sc := make([]reflect.SelectCase, 0, len(cases)+1)
	for i := range cases {
		c := &cases[i]
		if c.ops == nil {
			sc = append(sc, reflect.SelectCase{Dir: reflect.SelectRecv})
			continue
		}
		sc = append(sc, c.ops.selectCase(c))
	}
	if hasDefault {
		sc = append(sc, reflect.SelectCase{Dir: reflect.SelectDefault})
	}
	i, v, ok := reflect.Select(sc)
	if i == len(cases) {
		return -1
	}
	if c := &cases[i]; !c.send {
		c.ops.storeRecv(c, v, ok)
	}
	return i
}
