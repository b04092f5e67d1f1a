package rt

// The driver protocol: the driver writes a Config as JSON to a file and
// names it in the CONFIRM_CONFIG environment variable of the test process;
// RunTest writes a Result as JSON to Config.ResultFile.

// EnvConfig is the environment variable that names the config file.
const EnvConfig = "CONFIRM_CONFIG"

// Config tells RunTest what to run.
type Config struct {
	// Test is the name of the top-level test to control; other tests run
	// as plain tests. Empty means every test RunTest is called for.
	Test string `json:"test,omitempty"`
	// Strategy is "random", "pct", "meta", "serial" (no preemption, see
	// serial) or "replay".
	Strategy string `json:"strategy"`
	// Seed seeds the strategy; each execution derives its own seed from it.
	Seed int64 `json:"seed"`
	// PCTDepth is the bug depth d of the pct strategy (default 3).
	PCTDepth int `json:"pctDepth,omitempty"`
	// MaxExecs bounds the number of executions, the serial ones included
	// (0: no bound).
	MaxExecs int `json:"maxExecs,omitempty"`
	// MaxSteps bounds the scheduling points of one execution; an execution
	// that exceeds it is cut off without a verdict (Stats.Truncated).
	MaxSteps int `json:"maxSteps,omitempty"`
	// BudgetMillis bounds the wall time of the whole search.
	BudgetMillis int64 `json:"budgetMillis,omitempty"`
	// StallMillis is how long a handoff may wait for a goroutine running
	// uncontrolled code before the scheduler moves on without it.
	StallMillis int64 `json:"stallMillis,omitempty"`
	// Replay is the token of a schedule to replay (Strategy "replay").
	Replay string `json:"replay,omitempty"`
	// ResultFile is where RunTest writes the Result.
	ResultFile string `json:"resultFile"`
	// Locations are the positions of the Observe, Read and Write points the
	// instrumenter inserted; their index is the loc argument.
	Locations []Location `json:"locations,omitempty"`

	// The fields below configure the "meta" strategy (Rungta & Mercer's
	// greedy depth-first search with the two-tier ranking).

	// Sequence is the key-location sequence the search drives the
	// execution along: indexes into Locations, in order.
	Sequence []int `json:"sequence,omitempty"`
	// Heuristic is the secondary heuristic: "pfsm" (the default),
	// "random" or "prefer".
	Heuristic string `json:"heuristic,omitempty"`
	// Prefer lists the spawn positions ("file:line", as in Goroutine) of
	// the goroutines the "prefer" heuristic favours.
	Prefer []string `json:"prefer,omitempty"`
	// BacktrackBound bounds the backtrack set (default 100,000); the
	// worst states are evicted first.
	BacktrackBound int `json:"backtrackBound,omitempty"`
	// Distances are the pfsm tables; Distances.Targets[i] is the location
	// Sequence[i]. RunTest compiles them once before the search.
	Distances *Distances `json:"distances,omitempty"`

	// Want is the failure the search is for: a warning's own kind of
	// failure on its own sites. With Want set, a failure that does not
	// match it does not end the search: the first execution of each
	// failure signature is kept in Result.Found and the search goes on.
	// Without it, the first failure that the serial executions do not
	// also have ends the search.
	Want *Want `json:"want,omitempty"`
	// NoLeaks turns the leak oracle off.
	NoLeaks bool `json:"noLeaks,omitempty"`
	// NoSerial skips the serial executions that start every search (see
	// Result.Serial); strategy "serial" and replays never run them.
	NoSerial bool `json:"noSerial,omitempty"`
}

// A Location is a source position the instrumenter was asked to mark.
type Location struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col,omitempty"`
	// Kind is "observe", "read" or "write".
	Kind string `json:"kind"`
	// Label is a human-readable description, e.g. "writes (*Counter).n".
	Label string `json:"label,omitempty"`
}

// Result is what RunTest reports back.
type Result struct {
	// Test is the top-level test that was controlled.
	Test string `json:"test"`
	// Verdict is "error" when an execution failed, "none" when the budget
	// was spent without error, "diverged" when a replay could not follow
	// its token.
	Verdict string `json:"verdict"`
	// Failure describes the error found; nil unless Verdict is "error".
	Failure *Failure `json:"failure,omitempty"`
	// Trace is the schedule of the failing (or replayed) execution.
	Trace []Event `json:"trace,omitempty"`
	// Goroutines describes every goroutine of the traced execution.
	Goroutines []Goroutine `json:"goroutines,omitempty"`
	// Token replays the failing execution.
	Token string `json:"token,omitempty"`
	// Divergence says how a replay diverged, when it did.
	Divergence string `json:"divergence,omitempty"`
	// Stats are the search statistics.
	Stats Stats `json:"stats"`
	// Error explains VerdictInvalid.
	Error string `json:"error,omitempty"`
	// Found are the failures found on the way that are not what
	// Config.Want asks for: the first execution of each signature (at
	// most MaxFound), each with its trace and token. They are bugs of
	// their own.
	Found []Found `json:"found,omitempty"`
	// Serial is the failure of the test's serial execution (no
	// preemption: the goroutine that runs goes on until it blocks), when
	// it failed: the test fails without any interleaving. Failures with
	// its signature need no interleaving; they are not reported as bugs.
	Serial *Failure `json:"serial,omitempty"`
	// Unrepeatable says why the test cannot be run twice in one process:
	// its first serial execution passed and the second failed as Serial
	// says. The search stops there (VerdictUnrepeatable).
	Unrepeatable string `json:"unrepeatable,omitempty"`
}

// MaxFound bounds Result.Found.
const MaxFound = 8

// Found is a failure found on the way to another one.
type Found struct {
	Failure    *Failure    `json:"failure"`
	Trace      []Event     `json:"trace,omitempty"`
	Goroutines []Goroutine `json:"goroutines,omitempty"`
	Token      string      `json:"token,omitempty"`
	// Execution is the number of the execution that found it.
	Execution int `json:"execution"`
}

// Failure kinds.
const (
	FailTest     = "test-failure" // t.Error, t.Fatal, ...
	FailPanic    = "panic"
	FailDeadlock = "deadlock" // all blocked, or a wait-for cycle among lock waiters
	FailLeak     = "leak"     // body returned, goroutines it started blocked forever
	FailRace     = "race"
	FailExit     = "exit" // os.Exit or log.Fatal under control
)

// Failure describes an error found by an oracle.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	// Stack is the user's stack for panics, and the stacks of the blocked
	// goroutines for deadlocks and leaks.
	Stack string `json:"stack,omitempty"`
	// Goroutines are the goroutines involved (the deadlock cycle, the
	// racing pair, the panicking goroutine).
	Goroutines []int `json:"goroutines,omitempty"`
	// Objects are the runtime objects involved, by Event.Object id.
	Objects []int `json:"objects,omitempty"`
	// Waits say what each blocked goroutine of a deadlock or leak waits
	// for.
	Waits []Wait `json:"waits,omitempty"`
	// Cycle is the wait-for cycle of a deadlock among lock waiters, when
	// it is one: goroutine ids, each waiting for a lock the next one
	// holds (the last for the first's).
	Cycle []int `json:"cycle,omitempty"`
	// Accesses are the two accesses of a race, in execution order.
	Accesses []Access `json:"accesses,omitempty"`
	// Frames are the user's frames ("file:line", innermost first) of the
	// goroutine that panicked or exited.
	Frames []string `json:"frames,omitempty"`
}

// Wait is what a blocked goroutine of a deadlock or leak waits for.
type Wait struct {
	G int `json:"g"`
	// Op is the blocked operation, as in Event.Op.
	Op string `json:"op"`
	// Object and ObjectKind are the object waited on, as in Event.
	Object     int    `json:"object,omitempty"`
	ObjectKind string `json:"objectKind,omitempty"`
	// Frames are the goroutine's user frames, "file:line", innermost
	// first: its blocked operation, then its callers.
	Frames []string `json:"frames,omitempty"`
	// Holders are the goroutines that hold the lock it waits for.
	Holders []int `json:"holders,omitempty"`
	// HoldsRead is set when it waits in RLock of an RWMutex it holds a
	// read lock of.
	HoldsRead bool `json:"holdsRead,omitempty"`
	// LockedAt is where the lock it waits for was acquired ("file:line"),
	// when positions were recorded.
	LockedAt string `json:"lockedAt,omitempty"`
	// Spawned is where the goroutine was started ("file:line" of its go
	// statement), when positions were recorded.
	Spawned string `json:"spawned,omitempty"`
}

// Access is one side of a race.
type Access struct {
	G     int  `json:"g"`
	Loc   int  `json:"loc"`
	Write bool `json:"write,omitempty"`
	// Pos is "file:line" of the access and Label what it accesses (from
	// Config.Locations).
	Pos   string `json:"pos,omitempty"`
	Label string `json:"label,omitempty"`
}

// An Event is one scheduling decision of an execution.
type Event struct {
	Step int `json:"step"`
	// G is the goroutine that ran the operation.
	G int `json:"g"`
	// Op is the operation: "go", "exit", "lock", "unlock", "rlock",
	// "runlock", "trylock", "wg.add", "wg.wait", "once", "cond.wait",
	// "cond.signal", "send", "recv", "close", "select", "atomic", "yield",
	// "sleep", "read", "write", "observe".
	Op string `json:"op"`
	// Object is the runtime's id of the object (mutex, channel, address),
	// numbered in first-use order within the execution; 0 when none.
	Object int `json:"object,omitempty"`
	// ObjectKind is "mutex", "rwmutex", "chan", "wg", "once", "cond", "var".
	ObjectKind string `json:"objectKind,omitempty"`
	// Choice is the chosen case of a select (-1 default), or the spawned
	// goroutine of a "go".
	Choice int `json:"choice,omitempty"`
	// Loc is the Config.Locations index for read, write and observe.
	Loc int `json:"loc,omitempty"`
	// File and Line are the user's source position of the operation.
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Func is the function containing the operation.
	Func string `json:"func,omitempty"`
}

// Goroutine describes one goroutine of an execution.
type Goroutine struct {
	ID     int `json:"id"`
	Parent int `json:"parent"`
	// File and Line are where it was spawned (the go statement).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Func is the function it runs.
	Func string `json:"func,omitempty"`
}

// Stats are the statistics of a search.
type Stats struct {
	Executions int     `json:"executions"`
	Steps      int64   `json:"steps"`
	Seconds    float64 `json:"seconds"`
	// StepsToError is the number of steps of the failing execution.
	StepsToError int `json:"stepsToError,omitempty"`
	// Preemptions is the number of preemptions of the failing execution
	// (switches away from a goroutine that could go on), once shrunk;
	// ShrunkFrom is that number before shrinking (see shrink.go).
	Preemptions int `json:"preemptions,omitempty"`
	ShrunkFrom  int `json:"shrunkFrom,omitempty"`
	// ShrinkRuns counts the executions shrinking ran (among Executions).
	ShrinkRuns int `json:"shrinkRuns,omitempty"`
	// Exhausted is set when the search stopped because its strategy had
	// nothing left to explore (the meta strategy's backtrack set was
	// empty, or the test has a single schedule), not because the budget
	// was spent.
	Exhausted bool `json:"exhausted,omitempty"`
	// Truncated counts the executions cut off at the step bound
	// (Config.MaxSteps): they ended without a verdict.
	Truncated int `json:"truncated,omitempty"`
	// OverBudget counts the executions cut off, without a verdict,
	// because the search's budget ran out while they ran (an execution
	// that takes longer than the budget).
	OverBudget int `json:"overBudget,omitempty"`
	// Ignored counts the failing executions whose failure the serial
	// execution also had (no interleaving needed).
	Ignored int `json:"ignored,omitempty"`
	// Goroutines is the most goroutines an execution started (the body
	// counts as one): 1 means the test has no concurrency to explore.
	Goroutines int `json:"goroutines,omitempty"`
	// SiteGoroutines is, for a search for a race (Config.Want), the most
	// goroutines that executed the warned accesses in one execution: 0
	// when no execution reached them, 1 when the test runs them in one
	// goroutine only.
	SiteGoroutines int `json:"siteGoroutines,omitempty"`
	// TooManyGoroutines is set when the search stopped because an
	// execution started more goroutines than the runtime explores
	// (1,000).
	TooManyGoroutines bool `json:"tooManyGoroutines,omitempty"`
	// OneGoroutine is set when the search stopped because the test runs
	// the warned accesses in one goroutine only, so it cannot show the
	// race.
	OneGoroutine bool `json:"oneGoroutine,omitempty"`
	// ForeignOps counts the operations called by goroutines the runtime
	// does not control (started by code that is not rewritten: a
	// testing/synctest bubble, a net/http server, time.AfterFunc) during
	// the executions. They ran unscheduled, with the real primitives, so
	// their interleavings were not explored.
	ForeignOps int64 `json:"foreignOps,omitempty"`
}

// Verdicts. VerdictStuck, VerdictCrashed and VerdictInvalid were added
// after the first version of this protocol.
const (
	VerdictError    = "error"    // an oracle fired: Failure says which
	VerdictNone     = "none"     // the budget was spent without error
	VerdictDiverged = "diverged" // a replay could not follow its token
	// VerdictStuck: nothing progressed for a long time because goroutines
	// were blocked outside instrumented code (not a deadlock verdict);
	// Failure (kind FailStuck) names them.
	VerdictStuck = "stuck"
	// VerdictCrashed is written to ResultFile before each execution; if
	// the process dies, it stays, with a Token (a seed token for random
	// and pct) that reproduces the execution that was running.
	VerdictCrashed = "crashed"
	// VerdictInvalid: the config could not be used; Error says why.
	VerdictInvalid = "invalid"
	// VerdictUnrepeatable: the test passed once and failed when run again
	// in the same process; Unrepeatable says how.
	VerdictUnrepeatable = "unrepeatable"
)

// FailStuck is the failure kind of VerdictStuck.
const FailStuck = "stuck"

// Involved returns the goroutines f names: those it involves, and those
// of its waits and accesses.
func (f *Failure) Involved() map[int]bool {
	m := make(map[int]bool)
	for _, g := range f.Goroutines {
		m[g] = true
	}
	for _, w := range f.Waits {
		m[w.G] = true
	}
	for _, a := range f.Accesses {
		m[a.G] = true
	}
	return m
}
