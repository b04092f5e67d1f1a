package rt

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"
)

// meta is the "meta" strategy: the greedy depth-first search of Rungta
// and Mercer, "A Meta Heuristic for Effectively Detecting Concurrency
// Errors" (Fig. 2), guided by their two-tier ranking (Fig. 4) and with
// their stochastic bounded backtracking (Fig. 5).
//
// The search is stateless, as in CHESS: executions are deterministic given
// their choices, so a state is a schedule prefix (the goroutine picks and
// select choices made so far), reached again by replaying it. One
// execution is one greedy path of gdf_search:
//
//   - Each execution first replays the prefix of the backtrack state it
//     starts from, then takes that state's move, then continues greedily.
//   - At each decision chooseBestSuccessor ranks the successors, one per
//     candidate goroutine. Tier 1: a successor that executes the next key
//     location of Config.Sequence (the candidate is parked at the Observe,
//     Read or Write point of Locations[Sequence[level]]) goes to mStates,
//     the others to hStates; nextStateToExplore keeps in each only the
//     successors of least secondary-heuristic value (tier 2). The best is
//     a random element of mStates, else of hStates; every other unvisited
//     successor goes to the backtrack set with its meta level (number of
//     key locations observed) and heuristic value.
//   - A select with several ready cases has one successor per case: the
//     case is chosen at random and the other cases go to the backtrack set
//     with the level and value of the select's successor (cases do not
//     differ in position, so there is nothing to rank them by).
//   - Visited states are recognised by their happens-before fingerprint
//     (CHESS's state caching) combined with their meta level: two
//     schedules that order every pair of dependent operations alike reach
//     the same state, and the level tells apart orders of independent key
//     locations, which the sequence cares about. A successor's fingerprint
//     is predicted from the candidate's pending operation (exact except for
//     rendezvous on unbuffered channels, whose successors are then only
//     recognised by their own path). Visited successors are skipped.
//     Like CHESS, the key ignores fairness (which goroutines a yield
//     demoted). The set keeps up to 3 Mi keys and is cleared when full.
//   - When every successor of a state is visited, the path ends there, as
//     in the paper; the execution still has to run to its end, so it
//     continues with random choices that add nothing to the search.
//   - A prefix the execution does not follow (a program that does not
//     repeat itself: time, map order, global state) is given up where it
//     departs, and the search goes on greedily from there.
//   - When an execution ends without error, backtrackState picks the
//     state the next execution starts from: a meta level chosen uniformly
//     among the levels that hold states (pickBacktrackMetaLevel; the paper
//     picks between 1 and n, and levels without states would only waste
//     the draw), then the least heuristic value at that level, ties broken
//     at random. An empty backtrack set ends the search: it is exhausted.
//   - The backtrack set holds at most Config.BacktrackBound states
//     (boundSize): when it overflows, the worst state (lowest level, then
//     highest value) is evicted. Each level is a min-max heap, so adding,
//     taking the best and evicting the worst cost O(log n).
//
// With an empty Sequence every successor is at level 0: the search is a
// greedy depth-first search ranked by the secondary heuristic alone.
//
// Secondary heuristics (Config.Heuristic): "pfsm" scores a successor by
// the polymorphic distance from the choosing goroutine's position (its
// call stack at its pending operation, or the entry of its function when
// it has not started) to the next key location of the successor's level.
// The reference implementation scores only the goroutine that executed
// the transition, at its position after it; without lookahead the
// runtime only knows the position before it, which is what is scored.
// Once the whole sequence is observed every successor scores 0. "random"
// scores a successor with a random number. "prefer" scores 0 the
// goroutines spawned at a position listed in Config.Prefer and 1 the
// others.
//
// The search's random choices come from one generator seeded by
// Config.Seed, so a search is reproducible from its seed. The prefix of a
// backtrack state is stored once: the paths of executions form a tree of
// segments, each execution storing only the moves it made after its
// prefix.
type meta struct {
	seq     []int
	heur    heuristic
	prefer  []string
	dist    *Distances
	r       rng
	visited visitedSet
	bt      backtrackSet

	// The current execution.
	prefix    []move   // the moves to replay
	alt       move     // the backtrack state's move, after the prefix
	altH      int32    // the backtrack state's secondary value
	hasAlt    bool     // alt is still to be taken
	from      *segment // the path the prefix belongs to
	seg       *segment // this execution's moves after its prefix
	cur       int      // moves made so far
	level     int      // key locations observed so far
	h         int32    // the secondary value of the current state
	redundant bool     // the path reached visited states only
	exhausted bool     // the backtrack set was empty at the end of a path

	// Scratch, reused at every decision.
	succs   []successor
	mStates []successor
	hStates []successor
	hcache  []hcached
	spawned map[uintptr]bool

	stats metaStats
}

// metaStats count what the search did, for tests and benchmarks.
type metaStats struct {
	paths      int // executions that started from a backtrack state
	pruned     int // successors skipped because visited
	deadEnds   int // paths that ended at visited states
	mismatches int // prefixes that could not be replayed exactly
}

// heuristic is a secondary heuristic.
type heuristic uint8

const (
	heurPFSM heuristic = iota
	heurRandom
	heurPrefer
)

// defaultBacktrackBound is the paper's bound on saved backtrack states.
const defaultBacktrackBound = 100000

func init() { newMetaStrategy = newMeta }

// newMeta returns the meta strategy for cfg, or an error naming what in
// the config cannot be used.
func newMeta(cfg *Config, test string) (Strategy, error) {
	for i, l := range cfg.Sequence {
		if l < 0 || l >= len(cfg.Locations) {
			return nil, fmt.Errorf("rt: strategy meta: Sequence[%d] = %d is not an index of the %d Locations", i, l, len(cfg.Locations))
		}
	}
	m := &meta{
		seq:     cfg.Sequence,
		r:       rng{uint64(cfg.Seed)},
		bt:      backtrackSet{bound: cfg.BacktrackBound},
		spawned: make(map[uintptr]bool),
	}
	if m.bt.bound < 0 {
		return nil, fmt.Errorf("rt: strategy meta: negative BacktrackBound %d", cfg.BacktrackBound)
	}
	if m.bt.bound == 0 {
		m.bt.bound = defaultBacktrackBound
	}
	switch cfg.Heuristic {
	case "", "pfsm":
		m.heur = heurPFSM
		d := cfg.Distances
		if d == nil {
			if len(cfg.Sequence) == 0 {
				break // every successor scores 0
			}
			return nil, fmt.Errorf("rt: strategy meta: heuristic pfsm needs the distance tables (Config.Distances); without them use heuristic random or prefer")
		}
		if len(d.Targets) < len(cfg.Sequence) {
			return nil, fmt.Errorf("rt: strategy meta: %d distance targets for a sequence of %d locations", len(d.Targets), len(cfg.Sequence))
		}
		if d.compiled == nil {
			if err := d.Compile(); err != nil {
				return nil, fmt.Errorf("rt: strategy meta: %w", err)
			}
		}
		m.dist = d
	case "random":
		m.heur = heurRandom
	case "prefer":
		m.heur = heurPrefer
		if len(cfg.Prefer) == 0 {
			return nil, fmt.Errorf("rt: strategy meta: heuristic prefer needs the spawn positions of the preferred goroutines (Config.Prefer)")
		}
		for _, p := range cfg.Prefer {
			if _, _, ok := splitPos(p); !ok {
				return nil, fmt.Errorf("rt: strategy meta: Prefer entry %q is not file:line", p)
			}
		}
		m.prefer = cfg.Prefer
	default:
		return nil, fmt.Errorf("rt: strategy meta: unknown heuristic %q (want pfsm, random or prefer)", cfg.Heuristic)
	}
	return m, nil
}

// NeedsStacks reports whether the heuristic ranks positions: pfsm reads
// call stacks and prefer spawn positions, which are recorded only then.
func (m *meta) NeedsStacks() bool { return m.heur != heurRandom }

// Exhausted reports whether the search ended because the backtrack set
// was empty.
func (m *meta) Exhausted() bool { return m.exhausted }

// Begin starts an execution from the state backtrackState chose (the
// initial state for the first one).
func (m *meta) Begin(int) {
	m.cur, m.level, m.h = 0, 0, 0
	m.seg = nil
	m.redundant = false
	clear(m.hcache)
}

// Pick is one step of gdf_search: replay, the backtrack state's move, or
// the best successor.
func (m *meta) Pick(d *Decision) int {
	if m.cur < len(m.prefix) {
		if i := findMove(d, m.prefix[m.cur]); i >= 0 {
			m.cur++
			m.observe(d.Enabled[i].Loc)
			return i
		}
		m.mismatch()
	}
	if m.hasAlt {
		m.hasAlt = false
		if i := findMove(d, m.alt); i >= 0 {
			m.h = m.altH
			m.record(m.alt)
			m.observe(d.Enabled[i].Loc)
			return i
		}
		m.mismatch()
	}
	if m.redundant {
		return m.r.intn(len(d.Enabled))
	}
	i := m.chooseBestSuccessor(d)
	if i < 0 {
		m.redundant = true
		m.stats.deadEnds++
		return m.r.intn(len(d.Enabled))
	}
	c := &d.Enabled[i]
	m.record(pickMove(c.G, c.code))
	m.observe(c.Loc)
	return i
}

// PickCase chooses a ready case of a select: the recorded one while
// replaying, else a random one, the others going to the backtrack set.
func (m *meta) PickCase(d *Decision, g int, ready []int) int {
	if m.cur < len(m.prefix) {
		if j := findCase(m.prefix[m.cur], ready); j >= 0 {
			m.cur++
			return j
		}
		m.mismatch()
	}
	if m.hasAlt {
		m.hasAlt = false
		if j := findCase(m.alt, ready); j >= 0 {
			m.record(m.alt)
			return j
		}
		m.mismatch()
	}
	j := m.r.intn(len(ready))
	if m.redundant {
		return j
	}
	m.ensureSeg()
	for k, c := range ready {
		if k != j {
			m.bt.add(m.backtrackEntry(caseMoveOf(c), int32(m.level), m.h))
		}
	}
	m.bt.boundSize()
	m.record(caseMoveOf(ready[j]))
	return j
}

// End picks the state the next execution starts from; it returns false
// when there is none (or when the execution failed: the search is over).
func (m *meta) End(o *Outcome) bool {
	if o.Diverged != "" {
		return false
	}
	if !m.backtrackState() {
		m.exhausted = true
		return false
	}
	return true
}

// observe advances the meta level when a key location was executed.
func (m *meta) observe(loc int) {
	if m.level < len(m.seq) && loc >= 0 && loc == m.seq[m.level] {
		m.level++
	}
}

// mismatch gives up replaying a prefix the execution does not follow (a
// nondeterministic program): the search goes on greedily from here.
func (m *meta) mismatch() {
	m.stats.mismatches++
	m.prefix = m.prefix[:0]
	m.hasAlt = false
}

// ensureSeg starts the execution's segment of moves at the current point.
func (m *meta) ensureSeg() {
	if m.seg == nil {
		m.seg = &segment{parent: m.from, base: m.cur}
	}
}

// record appends a move made after the prefix.
func (m *meta) record(mv move) {
	m.ensureSeg()
	m.seg.moves = append(m.seg.moves, mv)
	m.cur++
}

// backtrackEntry is the backtrack state that takes move mv from the
// current state.
func (m *meta) backtrackEntry(mv move, level, h int32) state {
	return state{seg: m.seg, n: m.cur, alt: mv, level: level, h: h, tie: m.r.next()}
}

// A successor is a candidate of a decision as chooseBestSuccessor ranks
// it.
type successor struct {
	i     int    // index in Decision.Enabled
	level int32  // meta level after the move
	h     int32  // secondary heuristic value
	key   uint64 // visited-set key
}

// chooseBestSuccessor is Fig. 4's choose_best_successor: it returns the
// index of the best unvisited successor, after adding the others to the
// backtrack set, or -1 when every successor is visited.
func (m *meta) chooseBestSuccessor(d *Decision) int {
	fp := d.Fingerprint()
	m.succs, m.mStates, m.hStates = m.succs[:0], m.mStates[:0], m.hStates[:0]
	for i := range d.Enabled {
		c := &d.Enabled[i]
		level := m.level
		if level < len(m.seq) && c.Loc >= 0 && c.Loc == m.seq[level] {
			level++
		}
		key := mix(d.successorFingerprint(fp, c), uint64(level))
		if !m.visit(key) {
			m.stats.pruned++
			continue
		}
		s := successor{i: i, level: int32(level), h: m.hValue(d, c, level), key: key}
		m.succs = append(m.succs, s)
		if level > m.level {
			m.mStates = nextStateToExplore(m.mStates, s)
		} else {
			m.hStates = nextStateToExplore(m.hStates, s)
		}
	}
	best := m.mStates
	if len(best) == 0 {
		best = m.hStates
	}
	if len(best) == 0 {
		return -1
	}
	b := best[m.r.intn(len(best))]
	m.ensureSeg()
	for _, s := range m.succs {
		if s.i != b.i {
			c := &d.Enabled[s.i]
			m.bt.add(m.backtrackEntry(pickMove(c.G, c.code), s.level, s.h))
		}
	}
	m.bt.boundSize()
	m.h = b.h
	return b.i
}

// nextStateToExplore is Fig. 4's next_state_to_explore: states holds the
// successors of least value seen so far; s joins them on a tie and
// replaces them when it is better.
func nextStateToExplore(states []successor, s successor) []successor {
	switch {
	case len(states) == 0 || s.h == states[0].h:
		return append(states, s)
	case s.h < states[0].h:
		return append(states[:0], s)
	}
	return states
}

// visit adds key to the visited set; it returns false if it was there.
func (m *meta) visit(key uint64) bool { return m.visited.add(key) }

// A visitedSet is a set of state keys: open addressing with linear
// probing over a power-of-two table (0 marks an empty slot). It holds at
// most 3/4 of maxVisitedSlots keys (3 Mi, 32 MiB) and is cleared when
// full: the search then only loses some pruning.
type visitedSet struct {
	slots []uint64
	n     int
}

const maxVisitedSlots = 1 << 22

// add adds key; it returns false if the set had it.
func (v *visitedSet) add(key uint64) bool {
	if key == 0 {
		key = 1
	}
	if 4*(v.n+1) > 3*len(v.slots) {
		v.grow()
	}
	mask := uint64(len(v.slots) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		switch v.slots[i] {
		case key:
			return false
		case 0:
			v.slots[i] = key
			v.n++
			return true
		}
	}
}

// grow doubles the table, or clears it at its largest size.
func (v *visitedSet) grow() {
	if len(v.slots) >= maxVisitedSlots {
		clear(v.slots)
		v.n = 0
		return
	}
	old := v.slots
	v.slots = make([]uint64, max(1<<12, 2*len(old)))
	v.n = 0
	for _, k := range old {
		if k != 0 {
			v.add(k)
		}
	}
}

// backtrackState is Fig. 5's get_backtrack_state: it sets up the next
// execution to start from a state of a random meta level with the least
// heuristic value there; false when the backtrack set is empty.
func (m *meta) backtrackState() bool {
	if m.bt.size == 0 {
		return false
	}
	st := m.bt.take(m.bt.pickBacktrackMetaLevel(&m.r))
	m.prefix = st.seg.fill(slices.Grow(m.prefix[:0], st.n)[:st.n], st.n)
	m.alt, m.altH, m.hasAlt = st.alt, st.h, true
	m.from = st.seg
	m.stats.paths++
	return true
}

// hValue is the secondary heuristic value of the successor in which
// candidate c ran, at meta level level.
func (m *meta) hValue(d *Decision, c *Candidate, level int) int32 {
	switch m.heur {
	case heurRandom:
		return int32(m.r.next() >> 33)
	case heurPrefer:
		if m.preferred(d.e.gs[c.G].spawnPC) {
			return 0
		}
		return 1
	}
	if level >= len(m.seq) {
		return 0
	}
	if c.code == opStart {
		return m.dist.FromFuncPC(level, c.PC)
	}
	return m.stackDistance(c.G, d.e.gs[c.G].parkSeq, d.Stack(c.G), level)
}

// hcached is the last pfsm value of a goroutine's stack.
type hcached struct {
	park  uint64 // the goroutine's parkSeq when its stack was captured
	level int
	h     int32
}

// stackDistance returns the pfsm distance of goroutine g at stack, the
// one it parked with at scheduling point park, to the location of level,
// remembering it while g does not move: only the goroutine that ran has a
// new stack at the next decision.
func (m *meta) stackDistance(g int, park uint64, stack []uintptr, level int) int32 {
	if len(stack) == 0 {
		return Infinity
	}
	for len(m.hcache) <= g {
		m.hcache = append(m.hcache, hcached{})
	}
	hc := &m.hcache[g]
	if hc.park == park && hc.level == level {
		return hc.h
	}
	h := m.dist.FromPCs(level, stack)
	*hc = hcached{park: park, level: level, h: h}
	return h
}

// preferred reports whether a go statement at pc is at a Prefer position.
func (m *meta) preferred(pc uintptr) bool {
	if pc == 0 {
		return false
	}
	p, ok := m.spawned[pc]
	if !ok {
		pos := posOf(pc)
		for _, want := range m.prefer {
			if samePos(pos, want) {
				p = true
				break
			}
		}
		m.spawned[pc] = p
	}
	return p
}

// samePos reports whether two "file:line" positions are the same line,
// one file name being a path suffix of the other.
func samePos(a, b string) bool {
	fa, la, ok1 := splitPos(a)
	fb, lb, ok2 := splitPos(b)
	return ok1 && ok2 && la == lb && sameFile(fa, fb)
}

// splitPos splits "file:line".
func splitPos(p string) (file string, line int, ok bool) {
	i := strings.LastIndexByte(p, ':')
	if i <= 0 {
		return "", 0, false
	}
	line, err := strconv.Atoi(p[i+1:])
	return p[:i], line, err == nil && line > 0
}

// successorFingerprint predicts the Fingerprint of the state in which
// candidate c has executed its pending operation, from fp, the current
// one. It follows the hashing of execLocked and newGLocked: the
// goroutine's hash takes the operation kind and then the object's hash,
// and a go statement adds the child. A rendezvous on an unbuffered
// channel also changes the partner's hash, which is not predicted.
func (d *Decision) successorFingerprint(fp uint64, c *Candidate) uint64 {
	g := d.e.gs[c.G]
	o := &g.op
	id := uint64(g.id) + 1
	hb := mix(g.hb, uint64(o.kind))
	if o.hdr != nil && !o.hbDone {
		hb = mix(hb, o.hdr.hb)
	}
	fp += mix(id, hb) - mix(id, g.hb)
	if o.kind == opGo {
		child := uint64(len(d.e.gs)) + 1
		fp += mix(child, mix(g.hb, child))
	}
	return fp
}

// A move is one recorded choice: a goroutine picked at a decision (its id
// and operation kind), or the case a select took.
type move uint32

const caseFlag move = 1 << 31

func pickMove(g int, op opKind) move { return move(g)<<5 | move(op) }
func caseMoveOf(c int) move          { return caseFlag | move(c+1) }

// findMove returns the index of the candidate mv picks, or -1.
func findMove(d *Decision, mv move) int {
	if mv&caseFlag != 0 {
		return -1
	}
	g, op := int(mv>>5), opKind(mv&31)
	for i := range d.Enabled {
		if c := &d.Enabled[i]; c.G == g {
			if c.code == op {
				return i
			}
			return -1
		}
	}
	return -1
}

// findCase returns the index in ready of the case mv takes, or -1.
func findCase(mv move, ready []int) int {
	if mv&caseFlag == 0 {
		return -1
	}
	return slices.Index(ready, int(mv&^caseFlag)-1)
}

// A segment is the moves of one execution after its prefix, which is the
// first base moves of the parent's path.
type segment struct {
	parent *segment
	base   int
	moves  []move
}

// fill writes the first n moves of s's path into buf[:n] and returns it.
func (s *segment) fill(buf []move, n int) []move {
	for s != nil && n > 0 {
		if s.base < n {
			copy(buf[s.base:n], s.moves[:n-s.base])
			n = s.base
		}
		s = s.parent
	}
	return buf
}

// A state is a backtrack state: the successor reached by taking move alt
// after the first n moves of seg's path.
type state struct {
	seg   *segment
	n     int
	alt   move
	level int32
	h     int32
	tie   uint64 // random: breaks ties of h uniformly
}

// less orders states of one level, best first.
func (a *state) less(b *state) bool {
	return a.h < b.h || a.h == b.h && a.tie < b.tie
}

// backtrackSet holds backtrack states by meta level, each level a
// min-max heap on the heuristic value: its best state is taken when the
// search backtracks to the level, its worst evicted when the set is full.
type backtrackSet struct {
	levels []minMaxHeap
	size   int
	bound  int
}

// add adds s, unless the set is full and s would be its worst state.
func (b *backtrackSet) add(s state) {
	if b.size >= b.bound && !b.betterThanWorst(&s) {
		return
	}
	for len(b.levels) <= int(s.level) {
		b.levels = append(b.levels, nil)
	}
	b.levels[s.level].push(s)
	b.size++
}

// betterThanWorst reports whether s is better than the state boundSize
// would evict first.
func (b *backtrackSet) betterThanWorst(s *state) bool {
	for lv, q := range b.levels {
		if len(q) == 0 {
			continue
		}
		w := &q[0]
		switch {
		case len(q) == 2:
			w = &q[1]
		case len(q) > 2:
			w = &q[1]
			if q[1].less(&q[2]) {
				w = &q[2]
			}
		}
		return int(s.level) > lv || int(s.level) == lv && s.less(w)
	}
	return true
}

// take removes and returns the best state of a level that has states.
func (b *backtrackSet) take(level int) state {
	b.size--
	return b.levels[level].popMin()
}

// pickBacktrackMetaLevel chooses a meta level uniformly among those that
// hold states. The set must not be empty.
func (b *backtrackSet) pickBacktrackMetaLevel(r *rng) int {
	n := 0
	for _, l := range b.levels {
		if len(l) > 0 {
			n++
		}
	}
	k := r.intn(n)
	for i, l := range b.levels {
		if len(l) > 0 {
			if k == 0 {
				return i
			}
			k--
		}
	}
	panic("rt: pickBacktrackMetaLevel on an empty backtrack set")
}

// boundSize is the paper's bound_size: while the set holds more than
// bound states, the worst (lowest level, then highest value) is evicted.
func (b *backtrackSet) boundSize() {
	for lv := 0; b.size > b.bound && lv < len(b.levels); {
		if len(b.levels[lv]) == 0 {
			lv++
			continue
		}
		b.levels[lv].popMax()
		b.size--
	}
}

// A minMaxHeap is a double-ended priority queue of states (Atkinson et
// al., "Min-max heaps and generalized priority queues", 1986): nodes at
// even depths are not greater than their descendants, nodes at odd depths
// not less.
type minMaxHeap []state

func minLevel(i int) bool { return bits.Len(uint(i+1))%2 == 1 }

func (h *minMaxHeap) push(s state) {
	*h = append(*h, s)
	q := *h
	i := len(q) - 1
	if i == 0 {
		return
	}
	p := (i - 1) / 2
	if minLevel(i) {
		if q[p].less(&q[i]) {
			q[i], q[p] = q[p], q[i]
			q.bubbleUp(p, true)
		} else {
			q.bubbleUp(i, false)
		}
	} else {
		if q[i].less(&q[p]) {
			q[i], q[p] = q[p], q[i]
			q.bubbleUp(p, false)
		} else {
			q.bubbleUp(i, true)
		}
	}
}

// before reports whether a belongs above b on a min level (max false) or
// on a max level (max true).
func before(a, b *state, max bool) bool {
	if max {
		return b.less(a)
	}
	return a.less(b)
}

// bubbleUp moves node i up through its grandparents.
func (q minMaxHeap) bubbleUp(i int, max bool) {
	for i > 2 {
		gp := ((i-1)/2 - 1) / 2
		if !before(&q[i], &q[gp], max) {
			return
		}
		q[i], q[gp] = q[gp], q[i]
		i = gp
	}
}

func (h *minMaxHeap) popMin() state {
	return h.remove(0)
}

func (h *minMaxHeap) popMax() state {
	q := *h
	i := 0
	switch {
	case len(q) == 2:
		i = 1
	case len(q) > 2:
		i = 1
		if q[1].less(&q[2]) {
			i = 2
		}
	}
	return h.remove(i)
}

// remove removes the root (i = 0) or a child of the root.
func (h *minMaxHeap) remove(i int) state {
	q := *h
	s := q[i]
	n := len(q) - 1
	q[i] = q[n]
	q[n] = state{}
	q = q[:n]
	*h = q
	if i < n {
		q.trickleDown(i, !minLevel(i))
	}
	return s
}

// trickleDown moves node i, on a min (max false) or max level, down to
// its place.
func (q minMaxHeap) trickleDown(i int, max bool) {
	n := len(q)
	for {
		// m: the first among i's children and grandchildren.
		m := -1
		for _, c := range [...]int{2*i + 1, 2*i + 2, 4*i + 3, 4*i + 4, 4*i + 5, 4*i + 6} {
			if c < n && (m < 0 || before(&q[c], &q[m], max)) {
				m = c
			}
		}
		if m < 0 || !before(&q[m], &q[i], max) {
			return
		}
		q[m], q[i] = q[i], q[m]
		if m <= 2*i+2 {
			return // a child: it has no descendants to compare with
		}
		if p := (m - 1) / 2; before(&q[p], &q[m], max) {
			q[m], q[p] = q[p], q[m]
		}
		i = m
	}
}
