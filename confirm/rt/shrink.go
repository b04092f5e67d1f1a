package rt

// Shrinking a failing schedule: a search stops at the first failing
// execution it meets, whose schedule may switch goroutines far more often
// than the bug needs (a random or pct search preempts anywhere). Before
// the failure is reported, the schedule is shrunk: seen as blocks (a
// goroutine running some steps), a block is merged with the next block of
// the same goroutine, which removes the preemptions between them, as long
// as the execution still ends in the same failure. What is reported, and
// what the token replays, is the last execution that did.

// maxShrinkRuns bounds the executions one shrinking tries.
const maxShrinkRuns = 64

// A block is a goroutine running n steps.
type block struct {
	g, n int
}

// blocksOf returns the blocks of a schedule.
func blocksOf(entries []tokEntry) []block {
	var bs []block
	for _, t := range entries {
		if len(bs) > 0 && bs[len(bs)-1].g == t.g {
			bs[len(bs)-1].n++
			continue
		}
		bs = append(bs, block{g: t.g, n: 1})
	}
	return bs
}

// mergeNext returns bs with block i merged with the next block of the same
// goroutine, or false when there is none.
func mergeNext(bs []block, i int) ([]block, bool) {
	for j := i + 1; j < len(bs); j++ {
		if bs[j].g != bs[i].g {
			continue
		}
		out := make([]block, 0, len(bs)-1)
		out = append(out, bs[:i]...)
		out = append(out, block{g: bs[i].g, n: bs[i].n + bs[j].n})
		out = append(out, bs[i+1:j]...)
		out = append(out, bs[j+1:]...)
		// Neighbours of the same goroutine are one block.
		merged := out[:0]
		for _, b := range out {
			if len(merged) > 0 && merged[len(merged)-1].g == b.g {
				merged[len(merged)-1].n += b.n
				continue
			}
			merged = append(merged, b)
		}
		return merged, true
	}
	return nil, false
}

// blockStrategy runs a schedule given as blocks: each block's goroutine
// for its steps, or until it cannot run (then the next block); past the
// last block, the goroutine that ran last while it can, as serial does.
// Selects take the cases the shrunk execution's goroutine took in the
// original, in order, when they are ready.
type blockStrategy struct {
	blocks []block
	cases  map[int][]int // per goroutine, the select cases it took, in order
	k      int           // the current block
	left   int           // its steps left
	taken  map[int]int   // per goroutine, the selects decided so far
}

func newBlockStrategy(bs []block, entries []tokEntry) *blockStrategy {
	s := &blockStrategy{blocks: bs, cases: make(map[int][]int)}
	for _, t := range entries {
		if t.choice != noChoice {
			s.cases[t.g] = append(s.cases[t.g], t.choice)
		}
	}
	return s
}

func (s *blockStrategy) Begin(int) {
	s.k, s.left, s.taken = 0, 0, make(map[int]int)
	if len(s.blocks) > 0 {
		s.left = s.blocks[0].n
	}
}

func (s *blockStrategy) Pick(d *Decision) int {
	for s.k < len(s.blocks) {
		if s.left > 0 {
			for i, c := range d.Enabled {
				if c.G == s.blocks[s.k].g {
					s.left--
					return i
				}
			}
		}
		s.k++
		if s.k < len(s.blocks) {
			s.left = s.blocks[s.k].n
		}
	}
	for i, c := range d.Enabled {
		if c.G == d.Last {
			return i
		}
	}
	return 0
}

func (s *blockStrategy) PickCase(d *Decision, g int, ready []int) int {
	n := s.taken[g]
	s.taken[g] = n + 1
	if cs := s.cases[g]; n < len(cs) {
		for i, c := range ready {
			if c == cs[n] {
				return i
			}
		}
	}
	return 0
}

func (s *blockStrategy) End(*Outcome) bool { return true }

// shrink returns the execution with the fewest preemptions it finds that
// ends in a failure with the signature of o's (and, when the search wants
// a failure, one that matches it), starting from e.
func (s *searcher) shrink(e *exec, o *Outcome) (*exec, *Outcome) {
	if s.replayed != nil || o.Failure == nil || len(e.tok) == 0 || !shrinkable(o.Failure.Kind) ||
		s.want != nil && s.want.Kind == WantSequence || e.preemptions == 0 {
		return e, o // nothing to shrink: a serial schedule is as plain as it gets
	}
	sig := o.Failure.signatureHash()
	entries := e.tok
	bs := blocksOf(entries)
	before := e.preemptions
	runs := 0
	// try runs the schedule cand and keeps it when it ends in the same
	// failure, replayably, without more preemptions (and, with fewer,
	// in fewer steps).
	try := func(cand []block, fewer bool) bool {
		runs++
		s.res.Stats.ShrinkRuns++
		// A new execution takes over the buffers of the previous one
		// (its schedule and trace): e and the candidates must keep theirs.
		s.prev = nil
		e2, o2 := s.run(newBlockStrategy(cand, entries), e.n)
		if o2.Failure == nil || o2.Failure.signatureHash() != sig || o2.Diverged != "" ||
			s.want != nil && !s.want.Matches(o2.Failure, e2.observedSequence()) ||
			e2.preemptions > e.preemptions || fewer && e2.step >= e.step || !s.replays(e2, o2) {
			return false
		}
		e, o, entries = e2, o2, e2.tok
		bs = blocksOf(entries)
		return true
	}
	for i := 0; i < len(bs) && runs < maxShrinkRuns && !s.over(); {
		if cand, ok := mergeNext(bs, i); !ok || !try(cand, false) {
			i++
		} // else the same i: merge it further
	}
	// Then the fewest steps: a block of a goroutine the failure does not
	// involve is dropped (the goroutine runs later, if at all).
	involved := o.Failure.Involved()
	for i := 0; i < len(bs) && runs < maxShrinkRuns && !s.over(); {
		if involved[bs[i].g] || bs[i].g == 0 || !try(append(append([]block(nil), bs[:i]...), bs[i+1:]...), true) {
			i++
		}
	}
	s.res.Stats.Preemptions, s.res.Stats.ShrunkFrom = e.preemptions, before
	return e, o
}

// shrinkable reports whether failures of kind are shrunk: those that need
// an interleaving to show (a deadlock, a leak, a race). A test failure or
// a panic is reported as found.
func shrinkable(kind string) bool {
	return kind == FailDeadlock || kind == FailLeak || kind == FailRace
}

// replays reports whether the token of e, a shrinking candidate, replays
// to its failure: only such a schedule may replace the search's own.
func (s *searcher) replays(e *exec, o *Outcome) bool {
	e2, o2 := traced(s.t, s.cfg, e.n, encodeToken(s.t.Name(), e.tok, o.Failure, e.randSeed), s.body)
	return e2 != nil && o2.Failure.signatureHash() == o.Failure.signatureHash()
}
