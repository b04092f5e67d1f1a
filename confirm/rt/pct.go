package rt

// pct is the PCT strategy (Burckhardt et al., "A Randomized Scheduler with
// Probabilistic Guarantees of Finding Bugs", ASPLOS 2010): goroutines get
// random distinct priorities (at least depth); the highest-priority
// enabled goroutine runs; at depth-1 change points, chosen uniformly among
// the k steps the execution is estimated to take, the goroutine about to
// run drops to priority i for the i-th change point (below every initial
// one). k is estimated as the
// longest execution seen so far.
type pct struct {
	seed    int64
	depth   int
	k       int
	r       rng
	prio    []float64
	changes []int // changes[i] is the step of the change point to priority i+1
}

func newPCT(seed int64, depth, maxSteps int) *pct {
	if depth <= 0 {
		depth = 3
	}
	k := 100
	if maxSteps > 0 && maxSteps < k {
		k = maxSteps
	}
	return &pct{seed: seed, depth: depth, k: k}
}

func (s *pct) Begin(n int) {
	s.r = rng{execSeed(s.seed, n)}
	s.prio = s.prio[:0]
	s.changes = s.changes[:0]
	for i := 1; i < s.depth; i++ {
		s.changes = append(s.changes, 1+s.r.intn(s.k))
	}
}

// priority returns goroutine g's priority, giving new goroutines a random
// one above every change-point priority.
func (s *pct) priority(g int) float64 {
	for len(s.prio) <= g {
		s.prio = append(s.prio, float64(s.depth)+float64(s.r.next()>>11)/(1<<53))
	}
	return s.prio[g]
}

func (s *pct) highest(d *Decision) int {
	best := 0
	for i, c := range d.Enabled {
		if s.priority(c.G) > s.priority(d.Enabled[best].G) {
			best = i
		}
	}
	return best
}

func (s *pct) Pick(d *Decision) int {
	best := s.highest(d)
	for i, step := range s.changes {
		if step == d.Step {
			s.prio[d.Enabled[best].G] = float64(i + 1)
			best = s.highest(d)
		}
	}
	return best
}

func (s *pct) PickCase(d *Decision, g int, ready []int) int { return s.r.intn(len(ready)) }

func (s *pct) End(o *Outcome) bool {
	if o.Steps > s.k {
		s.k = o.Steps
	}
	return true
}
