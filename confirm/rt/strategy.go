package rt

import "fmt"

// A Strategy decides, at every scheduling point of an execution, which
// enabled goroutine runs next and which ready case a select takes.
//
// The runtime calls Begin before each execution, Pick at every decision,
// PickCase when a select has several ready cases, and End after the
// execution. Everything a search needs is in the Decision: the candidates
// with their pending operation, object, key location and position, the
// step number, and a happens-before fingerprint of the execution so far.
// Executions are deterministic given the choices, so a strategy replays a
// schedule prefix simply by repeating its choices (see the replay
// strategy). A strategy that ranks goroutines by their call stacks also
// implements NeedsStacks() bool returning true; Decision.Stack then works.
type Strategy interface {
	// Begin is called before execution n (numbered from 0).
	Begin(n int)
	// Pick returns the index in d.Enabled of the goroutine to run next,
	// or -1 to abandon the execution (a strategy with a Divergence() string
	// method says why).
	Pick(d *Decision) int
	// PickCase returns the index in ready of the case that goroutine g's
	// select takes (ready holds case indexes, in source order).
	PickCase(d *Decision, g int, ready []int) int
	// End is called after the execution; it returns false to stop the
	// search.
	End(o *Outcome) bool
}

// A Decision is a scheduling point as a strategy sees it.
type Decision struct {
	// Step is the number of the step being decided (from 1).
	Step int
	// Last is the goroutine that executed the previous step (-1 at the
	// start): choosing another one is a preemption when Last is enabled.
	Last int
	// Enabled are the candidates: the enabled goroutines that fairness
	// allows (yielding goroutines are left out while others can run), in
	// goroutine id order.
	Enabled []Candidate

	e *exec
}

// A Candidate is an enabled goroutine and its pending operation.
type Candidate struct {
	G  int
	Op string // as in Event.Op; "start" for a goroutine not yet started
	// Object is the id of the object operated on (0: none).
	Object int
	// Loc is the Config.Locations index of a read, write or observe
	// point, -1 otherwise.
	Loc int
	// PC is the program counter of the operation in the user's code (a
	// return address, as runtime.Callers gives), or for a goroutine not
	// yet started the entry of its function (as reflect's Pointer gives).
	// Positions are recorded only for strategies that need stacks and for
	// replays; otherwise PC is 0.
	PC uintptr

	code opKind
}

// Fingerprint returns a hash of the happens-before relation of the
// execution so far (CHESS): two schedules that order every pair of
// dependent operations alike have the same fingerprint.
func (d *Decision) Fingerprint() uint64 {
	var h uint64
	for _, g := range d.e.gs {
		h += mix(uint64(g.id)+1, g.hb)
	}
	return h
}

// Stack returns the call stack of goroutine g at its pending operation,
// innermost first, when the strategy asked for stacks (nil otherwise). The
// slice is g's own buffer: it is overwritten when g reaches its next
// scheduling point, so a strategy that keeps it must copy it.
func (d *Decision) Stack(g int) []uintptr {
	if g < 0 || g >= len(d.e.gs) {
		return nil
	}
	return d.e.gs[g].stack
}

// Outcome is what a strategy learns of a finished execution.
type Outcome struct {
	Steps   int
	Failure *Failure
	// Diverged is set when the execution could not follow the strategy.
	Diverged string
}

// newStrategy returns the strategy a config names.
func newStrategy(cfg *Config, test string) (Strategy, error) {
	switch cfg.Strategy {
	case "", "random":
		return newRandom(cfg.Seed), nil
	case "pct":
		return newPCT(cfg.Seed, cfg.PCTDepth, cfg.MaxSteps), nil
	case "serial":
		return serial{}, nil
	case "replay":
		return newReplay(cfg.Replay, test)
	case "meta":
		if newMetaStrategy != nil {
			return newMetaStrategy(cfg, test)
		}
	}
	return nil, fmt.Errorf("rt: unknown strategy %q (want random, pct, meta, serial or replay)", cfg.Strategy)
}

// newMetaStrategy builds the "meta" strategy (Rungta & Mercer's greedy
// depth-first search). The file that implements it sets this variable in
// an init function, so that the scheduler does not depend on it.
var newMetaStrategy func(cfg *Config, test string) (Strategy, error)

// rng is a small deterministic generator (splitmix64).
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a uniform number in [0, n).
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// execSeed derives the seed of execution n from the search seed.
func execSeed(seed int64, n int) uint64 { return mix(uint64(seed), uint64(n)+1) }
