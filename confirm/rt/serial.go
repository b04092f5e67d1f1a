package rt

// serial runs the goroutine that ran last for as long as it is enabled
// (no preemption), otherwise the enabled goroutine created first, and a
// select takes its first ready case. It is deterministic and has no
// interleaving a plain run would not have: a failure it also finds does
// not need an unusual schedule, so it is no evidence of a concurrency bug
// (the pipeline checks this before it confirms a warning by a test
// failure or a panic).
type serial struct{}

func (serial) Begin(int)                          {}
func (serial) PickCase(*Decision, int, []int) int { return 0 }
func (serial) End(*Outcome) bool                  { return true }

func (serial) Pick(d *Decision) int {
	for i, c := range d.Enabled {
		if c.G == d.Last {
			return i
		}
	}
	return 0
}
