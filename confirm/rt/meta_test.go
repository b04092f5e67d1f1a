package rt

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestNextStateToExplore(t *testing.T) {
	tests := []struct {
		name string
		hs   []int32 // values offered in order
		want []int   // indexes (into hs) kept
	}{
		{"empty keeps the first", []int32{5}, []int{0}},
		{"ties join", []int32{3, 3, 3}, []int{0, 1, 2}},
		{"better replaces", []int32{3, 3, 1}, []int{2}},
		{"worse is dropped", []int32{2, 7, 2}, []int{0, 2}},
		{"replace then tie", []int32{9, 4, 4, 8}, []int{1, 2}},
	}
	for _, tt := range tests {
		var states []successor
		for i, h := range tt.hs {
			states = nextStateToExplore(states, successor{i: i, h: h})
		}
		var got []int
		for _, s := range states {
			got = append(got, s.i)
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: kept %v, want %v", tt.name, got, tt.want)
		}
	}
}

// fakeDecision builds a decision whose candidates are parked at the given
// operations, with spawn positions 1..n (see fakeMeta's prefer map).
func fakeDecision(ops []opKind, locs []int) *Decision {
	e := &exec{}
	d := &Decision{e: e}
	for i, k := range ops {
		g := &G{id: i, spawnPC: uintptr(i + 1), hb: uint64(i) * 7}
		g.op = op{kind: k, loc: locs[i]}
		e.gs = append(e.gs, g)
		d.Enabled = append(d.Enabled, Candidate{G: i, Op: k.String(), Loc: locs[i], code: k})
	}
	return d
}

// fakeMeta returns a prefer-heuristic meta strategy over seq in which the
// goroutines spawned at the given fake positions are preferred.
func fakeMeta(seq []int, preferred ...int) *meta {
	m := &meta{seq: seq, heur: heurPrefer, spawned: map[uintptr]bool{}, bt: backtrackSet{bound: 100}}
	for pc := 1; pc <= 8; pc++ {
		m.spawned[uintptr(pc)] = false
	}
	for _, g := range preferred {
		m.spawned[uintptr(g+1)] = true
	}
	return m
}

func TestChooseBestSuccessor(t *testing.T) {
	tests := []struct {
		name      string
		ops       []opKind
		locs      []int
		level     int
		preferred []int
		want      []int // acceptable choices
		wantLevel []int // levels of the backtrack states, sorted
	}{
		{
			name: "the next key location wins over a better value",
			ops:  []opKind{opYield, opObserve, opObserve}, locs: []int{-1, 4, 5},
			preferred: []int{0}, want: []int{2}, wantLevel: []int{0, 0},
		},
		{
			name: "no key location: least value",
			ops:  []opKind{opYield, opObserve, opLock}, locs: []int{-1, 4, -1},
			preferred: []int{2}, want: []int{2}, wantLevel: []int{0, 0},
		},
		{
			name: "ties are broken at random among the best",
			ops:  []opKind{opYield, opYield, opYield}, locs: []int{-1, -1, -1},
			preferred: []int{0, 1}, want: []int{0, 1}, wantLevel: []int{0, 0},
		},
		{
			name: "at level 1 the next location is the second",
			ops:  []opKind{opObserve, opObserve}, locs: []int{5, 6},
			level: 1, want: []int{1}, wantLevel: []int{1},
		},
		{
			name: "successors observing it keep their level in the backtrack set",
			ops:  []opKind{opObserve, opObserve, opYield}, locs: []int{5, 5, -1},
			preferred: []int{2}, want: []int{0, 1}, wantLevel: []int{0, 1},
		},
	}
	for _, tt := range tests {
		for seed := range 8 {
			m := fakeMeta([]int{5, 6}, tt.preferred...)
			m.r = rng{uint64(seed)}
			m.level = tt.level
			d := fakeDecision(tt.ops, tt.locs)
			i := m.chooseBestSuccessor(d)
			if !containsInt(tt.want, i) {
				t.Fatalf("%s (seed %d): chose %d, want one of %v", tt.name, seed, i, tt.want)
			}
			var levels []int
			for lv, h := range m.bt.levels {
				for range h {
					levels = append(levels, lv)
				}
			}
			if fmt.Sprint(levels) != fmt.Sprint(tt.wantLevel) {
				t.Errorf("%s: backtrack levels %v, want %v", tt.name, levels, tt.wantLevel)
			}
			// The same decision again: every successor is visited.
			if j := m.chooseBestSuccessor(d); j != -1 {
				t.Errorf("%s: chose %d among visited successors", tt.name, j)
			}
		}
	}
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestBacktrackState(t *testing.T) {
	var b backtrackSet
	b.bound = 100
	add := func(level, h int32, tie uint64) { b.add(state{level: level, h: h, tie: tie, n: int(h)}) }
	add(0, 5, 1)
	add(0, 2, 9)
	add(0, 2, 3)
	add(2, 7, 1)
	add(2, 1, 4)
	// Level 1 is empty: it must never be picked.
	r := rng{1}
	seen := map[int]int{}
	for range 200 {
		seen[b.pickBacktrackMetaLevel(&r)]++
	}
	if seen[1] != 0 || seen[0] < 60 || seen[2] < 60 {
		t.Errorf("levels picked %v, want 0 and 2 about equally, never 1", seen)
	}
	// Each level yields its states best first, ties by tie.
	var got []string
	for _, lv := range []int{0, 0, 2, 0, 2} {
		s := b.take(lv)
		got = append(got, fmt.Sprintf("%d:%d/%d", s.level, s.h, s.tie))
	}
	want := "[0:2/3 0:2/9 2:1/4 0:5/1 2:7/1]"
	if fmt.Sprint(got) != want {
		t.Errorf("took %v, want %s", got, want)
	}
	if b.size != 0 {
		t.Errorf("size %d after taking everything", b.size)
	}
}

func TestBoundSize(t *testing.T) {
	tests := []struct {
		name   string
		bound  int
		states [][2]int32 // level, h
		want   []string   // remaining "level:h", by level then h
	}{
		{"under the bound nothing goes", 4, [][2]int32{{0, 1}, {1, 1}}, []string{"0:1", "1:1"}},
		{"the lowest level goes first", 3, [][2]int32{{1, 9}, {0, 1}, {2, 5}, {1, 3}}, []string{"1:3", "1:9", "2:5"}},
		{"then the highest values", 3, [][2]int32{{1, 9}, {1, 1}, {2, 5}, {1, 3}}, []string{"1:1", "1:3", "2:5"}},
		{"exactly the bound is kept", 32, func() (s [][2]int32) {
			for h := range int32(40) {
				s = append(s, [2]int32{0, 39 - h})
			}
			return s
		}(), func() (s []string) {
			for h := range 32 {
				s = append(s, fmt.Sprintf("0:%d", h))
			}
			return s
		}()},
	}
	for _, tt := range tests {
		b := backtrackSet{bound: tt.bound}
		for i, s := range tt.states {
			b.add(state{level: s[0], h: s[1], tie: uint64(i)})
			b.boundSize()
			if b.size > tt.bound {
				t.Fatalf("%s: size %d over bound %d", tt.name, b.size, tt.bound)
			}
		}
		var got []string
		for lv := range b.levels {
			for len(b.levels[lv]) > 0 {
				s := b.take(lv)
				got = append(got, fmt.Sprintf("%d:%d", s.level, s.h))
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("%s: kept %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestMinMaxHeap checks the double-ended heap against a sorted slice on
// random operations.
func TestMinMaxHeap(t *testing.T) {
	r := rng{7}
	var h minMaxHeap
	var ref []int32
	for step := range 20000 {
		switch op := r.intn(5); {
		case op < 3 || len(ref) == 0:
			v := int32(r.intn(50))
			h.push(state{h: v, tie: uint64(step)})
			ref = append(ref, v)
			slices.Sort(ref)
		case op == 3:
			if got := h.popMin().h; got != ref[0] {
				t.Fatalf("step %d: popMin = %d, want %d", step, got, ref[0])
			}
			ref = ref[1:]
		default:
			if got := h.popMax().h; got != ref[len(ref)-1] {
				t.Fatalf("step %d: popMax = %d, want %d", step, got, ref[len(ref)-1])
			}
			ref = ref[:len(ref)-1]
		}
		if len(h) != len(ref) {
			t.Fatalf("step %d: %d states, want %d", step, len(h), len(ref))
		}
	}
}

func TestVisitedSet(t *testing.T) {
	var v visitedSet
	r := rng{3}
	keys := map[uint64]bool{}
	for range 50000 {
		k := r.next()%100000 + 2 // with repeats; 0 and 1 are the same key
		if got, want := v.add(k), !keys[k]; got != want {
			t.Fatalf("add(%d) = %v, want %v", k, got, want)
		}
		keys[k] = true
	}
	if v.n > len(v.slots)*3/4 {
		t.Errorf("%d keys in %d slots", v.n, len(v.slots))
	}
}

func TestSegmentFill(t *testing.T) {
	root := &segment{moves: []move{1, 2, 3, 4}}
	child := &segment{parent: root, base: 2, moves: []move{7, 8}}
	grand := &segment{parent: child, base: 3, moves: []move{9}}
	tests := []struct {
		s    *segment
		n    int
		want string
	}{
		{root, 3, "[1 2 3]"},
		{child, 4, "[1 2 7 8]"},
		{grand, 4, "[1 2 7 9]"},
		{grand, 2, "[1 2]"}, // a prefix shorter than the segment's base
	}
	for _, tt := range tests {
		if got := fmt.Sprint(tt.s.fill(make([]move, tt.n), tt.n)); got != tt.want {
			t.Errorf("fill(%d) = %s, want %s", tt.n, got, tt.want)
		}
	}
}

func TestMetaConfigErrors(t *testing.T) {
	locs := []Location{{File: "a.go", Line: 1, Kind: "observe"}}
	tests := []struct {
		cfg  Config
		want string
	}{
		{Config{Sequence: []int{1}, Locations: locs}, "not an index of the 1 Locations"},
		{Config{Sequence: []int{0}, Locations: locs}, "needs the distance tables"},
		{Config{Sequence: []int{0}, Locations: locs, Heuristic: "pfsm", Distances: &Distances{}}, "0 distance targets"},
		{Config{Sequence: []int{0}, Locations: locs, Heuristic: "prefer"}, "needs the spawn positions"},
		{Config{Sequence: []int{0}, Locations: locs, Heuristic: "prefer", Prefer: []string{"a.go"}}, "not file:line"},
		{Config{Sequence: []int{0}, Locations: locs, Heuristic: "best"}, "unknown heuristic"},
		{Config{Sequence: []int{0}, Locations: locs, Heuristic: "random", BacktrackBound: -1}, "negative BacktrackBound"},
	}
	for _, cfg := range []Config{{}, {Heuristic: "random"}} {
		cfg.Strategy = "meta"
		if _, err := newStrategy(&cfg, "T"); err != nil {
			t.Errorf("config %+v (no sequence): %v", cfg, err)
		}
	}
	for _, tt := range tests {
		tt.cfg.Strategy = "meta"
		_, err := newStrategy(&tt.cfg, "T")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("config %+v: error %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

// Key locations of the bodies below.
const (
	locNoise = iota
	locSet
	locCheck
	locUnused
)

var metaLocs = []Location{
	locNoise:  {File: "meta_test.go", Line: 1, Kind: "observe", Label: "noise"},
	locSet:    {File: "meta_test.go", Line: 2, Kind: "observe", Label: "A sets the flag"},
	locCheck:  {File: "meta_test.go", Line: 3, Kind: "observe", Label: "B checks the flag"},
	locUnused: {File: "meta_test.go", Line: 4, Kind: "observe", Label: "never reached"},
}

// rareOrder is a bug that needs goroutine A's k-th step before goroutine
// B's second: B panics when it sees A's flag. Others goroutines make noise.
func rareOrder(k, others int) func(*testing.T) {
	return func(t *testing.T) {
		var flag Int32
		var wg WaitGroup
		wg.Add(2 + others)
		Go(func() { // A
			defer wg.Done()
			for range k {
				Observe(locNoise)
			}
			Observe(locSet)
			flag.Store(1)
		})
		Go(func() { // B
			defer wg.Done()
			Observe(locCheck)
			if flag.Load() == 1 {
				panic("B saw A's flag")
			}
		})
		for range others {
			Go(func() {
				defer wg.Done()
				for range k {
					Observe(locNoise)
				}
			})
		}
		wg.Wait()
	}
}

// preferA is the spawn position of goroutine A in rareOrder.
func preferA(t *testing.T) string {
	t.Helper()
	var pos string
	s := &spawnProbe{want: 1, pos: &pos}
	cfg := &Config{Strategy: "custom"}
	capturePCs.Store(true)
	defer capturePCs.Store(false)
	s.Begin(0)
	e := newExec(cfg, 0, s)
	t.Run("probe", func(st *testing.T) { e.runBody(st, rareOrder(1, 0)) })
	if pos == "" {
		t.Fatal("no spawn position for goroutine A")
	}
	return pos
}

// spawnProbe is a random strategy that records where goroutine want was
// spawned.
type spawnProbe struct {
	random
	want int
	pos  *string
}

func (s *spawnProbe) Pick(d *Decision) int {
	for _, c := range d.Enabled {
		if c.G == s.want && *s.pos == "" {
			*s.pos = posOf(d.e.gs[c.G].spawnPC)
		}
	}
	return s.random.Pick(d)
}

// TestMetaFindsRareOrder: the meta strategy, told the sequence "A sets,
// B checks" and to prefer A, finds in a few executions an order random
// search almost never finds.
func TestMetaFindsRareOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("runs hundreds of executions")
	}
	const k, others, seeds = 20, 2, 5
	body := rareOrder(k, others)
	prefer := preferA(t)
	found := map[string]int{}
	execs := map[string]int{}
	for seed := range int64(seeds) {
		for _, c := range []Config{
			{Strategy: "meta", Heuristic: "prefer", Prefer: []string{prefer}, MaxExecs: 20},
			{Strategy: "meta", Heuristic: "random", MaxExecs: 200},
			{Strategy: "random", MaxExecs: 200},
		} {
			c.Seed, c.Sequence, c.Locations = seed, []int{locSet, locCheck}, metaLocs
			res := search(t, c, body)
			name := c.Strategy + "+" + c.Heuristic
			if res.Verdict == VerdictError {
				if res.Failure.Kind != FailPanic {
					t.Fatalf("%s seed %d: failure %+v", name, seed, res.Failure)
				}
				found[name]++
				execs[name] += res.Stats.Executions
			}
		}
	}
	t.Logf("error density over %d seeds: %v; executions to error (sum over finding seeds): %v", seeds, found, execs)
	if found["meta+prefer"] != seeds {
		t.Errorf("meta+prefer found the bug with %d of %d seeds within 20 executions", found["meta+prefer"], seeds)
	}
	if found["random+"] > 1 {
		t.Errorf("random found the bug with %d of %d seeds within 200 executions: the body is not a rare-order bug", found["random+"], seeds)
	}
}

// independent runs goroutines that touch nothing shared: every
// interleaving reaches the same happens-before state.
func independent(gs, steps int) func(*testing.T) {
	return func(t *testing.T) {
		var wg WaitGroup
		wg.Add(gs)
		for range gs {
			Go(func() {
				defer wg.Done()
				for range steps {
					Observe(locNoise)
				}
			})
		}
		wg.Wait()
	}
}

// TestMetaVisitedPrunes: with happens-before state caching the search
// exhausts a body of independent goroutines in a few executions, far
// fewer than its distinct schedules.
func TestMetaVisitedPrunes(t *testing.T) {
	const gs, steps = 3, 3
	res := search(t, Config{Strategy: "meta", Heuristic: "random", Seed: 1, MaxExecs: 2000,
		Sequence: []int{locUnused}, Locations: metaLocs}, independent(gs, steps))
	if res.Verdict != VerdictNone || !res.Stats.Exhausted {
		t.Fatalf("verdict %q exhausted %v after %d executions", res.Verdict, res.Stats.Exhausted, res.Stats.Executions)
	}
	// Each goroutine makes steps+2 scheduling decisions (start, observes,
	// wg.Done); 3 goroutines have (3·5)!/(5!)³ = 756756 orders of them.
	t.Logf("exhausted after %d executions, %d steps", res.Stats.Executions, res.Stats.Steps)
	if res.Stats.Executions > 200 {
		t.Errorf("%d executions for one happens-before state space of at most 6^3 states", res.Stats.Executions)
	}
}

// TestMetaSystematic: on a small body the search (with pruning) finds
// a bug every time, before exhausting the states, with or without a
// sequence.
func TestMetaSystematic(t *testing.T) {
	for seed := range int64(5) {
		for _, seq := range [][]int{{locUnused}, nil} {
			res := search(t, Config{Strategy: "meta", Heuristic: "random", Seed: seed, MaxExecs: 5000,
				Sequence: seq, Locations: metaLocs}, rareOrder(3, 0))
			if res.Verdict != VerdictError {
				t.Fatalf("seed %d, sequence %v: verdict %q exhausted %v after %d executions", seed, seq, res.Verdict, res.Stats.Exhausted, res.Stats.Executions)
			}
		}
	}
}

// TestMetaReplay: the token of a meta-found error replays to the same
// trace.
func TestMetaReplay(t *testing.T) {
	body := rareOrder(6, 1)
	for _, c := range []Config{
		{Strategy: "meta", Heuristic: "prefer", Prefer: []string{preferA(t)}},
		{Strategy: "meta", Heuristic: "random"},
	} {
		c.Seed, c.MaxExecs, c.Sequence, c.Locations = 3, 3000, []int{locSet, locCheck}, metaLocs
		res := search(t, c, body)
		if res.Verdict != VerdictError || res.Token == "" {
			t.Fatalf("%s: verdict %q after %d executions", c.Heuristic, res.Verdict, res.Stats.Executions)
		}
		rep := search(t, Config{Strategy: "replay", Replay: res.Token, Locations: metaLocs}, body)
		if rep.Verdict != VerdictError || rep.Failure.Kind != res.Failure.Kind {
			t.Fatalf("%s: replay verdict %q failure %+v divergence %q", c.Heuristic, rep.Verdict, rep.Failure, rep.Divergence)
		}
		if !sameTrace(rep.Trace, res.Trace) {
			t.Fatalf("%s: replayed trace differs:\n%v\n%v", c.Heuristic, rep.Trace, res.Trace)
		}
	}
}

// fpProbe is a random strategy that checks successorFingerprint: the
// prediction for the chosen candidate must be the fingerprint of the next
// decision, except after a channel operation.
type fpProbe struct {
	random
	predicted uint64
	chan_     bool
	checked   int
	wrong     []string
}

func (s *fpProbe) Pick(d *Decision) int {
	fp := d.Fingerprint()
	if s.predicted != 0 && !s.chan_ {
		s.checked++
		if fp != s.predicted {
			s.wrong = append(s.wrong, fmt.Sprintf("step %d", d.Step))
		}
	}
	i := s.random.Pick(d)
	c := &d.Enabled[i]
	s.predicted = d.successorFingerprint(fp, c)
	switch c.code {
	case opSend, opRecv, opSelect, opClose:
		s.chan_ = true
	default:
		s.chan_ = false
	}
	return i
}

func TestSuccessorFingerprint(t *testing.T) {
	body := func(t *testing.T) {
		var mu Mutex
		var rw RWMutex
		var wg WaitGroup
		var n Int64
		x := 0
		for range 3 {
			wg.Go(func() {
				mu.Lock()
				x++
				mu.Unlock()
				rw.RLock()
				_ = x
				rw.RUnlock()
				n.Add(1)
				Observe(locNoise)
				Gosched()
			})
		}
		wg.Wait()
	}
	s := &fpProbe{random: random{seed: 5}}
	cfg := &Config{Strategy: "custom", Locations: metaLocs}
	for n := range 20 {
		s.Begin(n)
		s.predicted = 0
		e := newExec(cfg, n, s)
		t.Run("exec", func(st *testing.T) { e.runBody(st, body) })
	}
	if s.checked < 100 || len(s.wrong) > 0 {
		t.Errorf("%d predictions checked, wrong at %v", s.checked, s.wrong)
	}
}

// BenchmarkMetaDecision measures one decision of the meta strategy (the
// ranking, the visited set, the backtrack set) among 8 candidates.
func BenchmarkMetaDecision(b *testing.B) {
	for _, heur := range []heuristic{heurRandom, heurPrefer} {
		b.Run(map[heuristic]string{heurRandom: "random", heurPrefer: "prefer"}[heur], func(b *testing.B) {
			m := fakeMeta([]int{5, 6}, 3)
			m.heur = heur
			m.bt.bound = defaultBacktrackBound
			ops := []opKind{opLock, opYield, opObserve, opObserve, opAtomic, opYield, opLock, opRead}
			d := fakeDecision(ops, []int{-1, -1, 4, 7, -1, -1, -1, 2})
			b.ReportAllocs()
			b.ResetTimer()
			m.Begin(0)
			for range b.N {
				d.e.gs[0].hb++ // a new state each time
				m.Pick(d)
			}
		})
	}
}

// BenchmarkExecMeta is BenchmarkExecRandom with the meta strategy
// (random secondary heuristic, a key location never reached): the
// overhead of ranking, visited and backtrack sets per scheduling point.
func BenchmarkExecMeta(b *testing.B) {
	execBench(b, &Config{Strategy: "meta", Heuristic: "random", Seed: 1, Sequence: []int{locUnused}, Locations: metaLocs}, benchBody)
}

// TestMetaSelectCases: the ready cases of a select are successors too.
// A body of three selects with two ready cases each has eight schedules;
// the search runs each once, then is exhausted.
func TestMetaSelectCases(t *testing.T) {
	seen := map[string]int{}
	body := func(t *testing.T) {
		a, b := MakeChan[int](3), MakeChan[int](3)
		for range 3 {
			Send(a, 1)
			Send(b, 1)
		}
		var path []int
		for range 3 {
			path = append(path, Select(false, RecvCase(a, nil, nil), RecvCase(b, nil, nil)))
		}
		seen[fmt.Sprint(path)]++
	}
	res := search(t, Config{Strategy: "meta", Heuristic: "random", Seed: 2, MaxExecs: 100,
		Sequence: []int{locUnused}, Locations: metaLocs}, body)
	if res.Verdict != VerdictNone || !res.Stats.Exhausted || res.Stats.Executions != 8 || len(seen) != 8 {
		t.Fatalf("verdict %q exhausted %v after %d executions; case sequences %v", res.Verdict, res.Stats.Exhausted, res.Stats.Executions, seen)
	}
}

// TestMetaNondeterministicBody: a body that does not repeat itself makes
// prefixes unreplayable; the search goes on greedily instead of
// reporting a divergence.
func TestMetaNondeterministicBody(t *testing.T) {
	runs := 0
	body := func(t *testing.T) {
		runs++
		var wg WaitGroup
		for range 1 + runs%3 {
			wg.Go(func() {
				Observe(locNoise)
				Observe(locNoise)
			})
		}
		wg.Wait()
	}
	cfg := &Config{Strategy: "meta", Heuristic: "random", Seed: 4, MaxExecs: 30, Sequence: []int{locUnused}, Locations: metaLocs}
	res := runSearch(t, cfg, body)
	if res.Verdict != VerdictNone || res.Divergence != "" {
		t.Fatalf("verdict %q divergence %q", res.Verdict, res.Divergence)
	}
	m := newMetaForTest(t, cfg)
	for n := range 30 {
		m.Begin(n)
		e := newExec(cfg, n, m)
		t.Run("exec", func(st *testing.T) { e.runBody(st, body) })
		if e.diverged != "" || e.failure != nil {
			t.Fatalf("execution %d: diverged %q failure %+v", n, e.diverged, e.failure)
		}
		if !m.End(&Outcome{Steps: e.step}) {
			break
		}
	}
	t.Logf("search: %d executions; strategy stats %+v", res.Stats.Executions, m.stats)
	if m.stats.mismatches == 0 {
		t.Errorf("no prefix mismatch counted: %+v", m.stats)
	}
}

func newMetaForTest(t *testing.T, cfg *Config) *meta {
	t.Helper()
	s, err := newMeta(cfg, t.Name())
	if err != nil {
		t.Fatal(err)
	}
	return s.(*meta)
}
