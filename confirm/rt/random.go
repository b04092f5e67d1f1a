package rt

// random picks a uniformly random enabled goroutine and select case; each
// execution's generator is seeded from the search seed and its number.
type random struct {
	seed int64
	r    rng
}

func newRandom(seed int64) *random { return &random{seed: seed} }

func (s *random) Begin(n int)          { s.r = rng{execSeed(s.seed, n)} }
func (s *random) Pick(d *Decision) int { return s.r.intn(len(d.Enabled)) }
func (s *random) End(o *Outcome) bool  { return true }
func (s *random) PickCase(d *Decision, g int, ready []int) int {
	return s.r.intn(len(ready))
}
