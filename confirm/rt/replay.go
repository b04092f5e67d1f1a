package rt

import (
	"fmt"
	"strings"
)

// replay follows the decisions of a token. A recorded goroutine that is
// not enabled, or that is at another operation than recorded, or a select
// case that is not ready, is a divergence: the execution is abandoned and
// Divergence says where and why.
type replay struct {
	entries  []tokEntry
	expect   *expectation // the failure the token recorded, if any
	randSeed uint64       // the seed of the execution's random source
	i        int
	cur      tokEntry
	div      string
}

// newReplay returns the strategy replaying tok, a token of test.
func newReplay(tok, test string) (Strategy, error) {
	if strings.HasPrefix(tok, seedTokenPrefix) {
		return newSeedReplay(tok, test)
	}
	name, entries, expect, seed, err := decodeToken(tok)
	if err != nil {
		return nil, err
	}
	if name != test {
		return nil, fmt.Errorf("rt: replay token is for test %q, not %q", name, test)
	}
	return &replay{entries: entries, expect: expect, randSeed: seed}, nil
}

func (s *replay) Begin(int) { s.i, s.div = 0, "" }

func (s *replay) Pick(d *Decision) int {
	if s.i >= len(s.entries) {
		s.div = fmt.Sprintf("step %d: the execution continues past the end of the recorded schedule (%d steps)", d.Step, len(s.entries))
		return -1
	}
	t := s.entries[s.i]
	s.i++
	s.cur = t
	for j, c := range d.Enabled {
		if c.G != t.g {
			continue
		}
		if c.code != t.op {
			s.div = fmt.Sprintf("step %d: goroutine %d is at %s, the schedule recorded %s", d.Step, t.g, c.Op, t.op)
			return -1
		}
		return j
	}
	var en []string
	for _, c := range d.Enabled {
		en = append(en, fmt.Sprintf("%d (%s)", c.G, c.Op))
	}
	s.div = fmt.Sprintf("step %d: goroutine %d (recorded at %s) is not enabled; enabled: %s", d.Step, t.g, t.op, strings.Join(en, ", "))
	return -1
}

func (s *replay) PickCase(d *Decision, g int, ready []int) int {
	for j, c := range ready {
		if c == s.cur.choice {
			return j
		}
	}
	s.div = fmt.Sprintf("step %d: the select of goroutine %d recorded case %d, which is not ready (ready: %v)", d.Step, g, s.cur.choice, ready)
	return -1
}

func (s *replay) End(o *Outcome) bool {
	if s.div == "" && o.Diverged == "" && s.i < len(s.entries) {
		s.div = fmt.Sprintf("the execution ended after %d steps; the schedule has %d", s.i, len(s.entries))
	}
	return false
}

// want returns what the replayed execution must end in: the failure its
// token recorded (other races on the way do not end it), or nil.
func (s *replay) want() *Want {
	if s.expect == nil {
		return nil
	}
	return &Want{Kind: WantSignature, Signature: s.expect.sig}
}

// Divergence says how the replay diverged ("" if it did not).
func (s *replay) Divergence() string { return s.div }

// seedReplay re-runs one execution of a random or pct search from a seed
// token.
type seedReplay struct {
	Strategy
	n int
}

func newSeedReplay(tok, test string) (Strategy, error) {
	st, err := decodeSeedToken(tok)
	if err != nil {
		return nil, err
	}
	if st.test != test {
		return nil, fmt.Errorf("rt: seed token is for test %q, not %q", st.test, test)
	}
	switch st.strategy {
	case 1:
		return &seedReplay{Strategy: newRandom(st.seed), n: st.n}, nil
	case 2:
		p := newPCT(st.seed, st.depth, 0)
		p.k = st.k
		return &seedReplay{Strategy: p, n: st.n}, nil
	case 3:
		return &seedReplay{Strategy: serial{}}, nil
	}
	return nil, fmt.Errorf("rt: seed token names unknown strategy %d", st.strategy)
}

func (s *seedReplay) Begin(int) { s.Strategy.Begin(s.n) }

func (s *seedReplay) End(o *Outcome) bool {
	s.Strategy.End(o)
	return false
}
