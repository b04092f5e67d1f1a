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
	// MaxExecs bounds the number of executions (0: no bound).
	MaxExecs int `json:"maxExecs,omitempty"`
	// MaxSteps bounds the scheduling points of one execution; an execution
	// that exceeds it ends with failure kind "livelock".
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
}

// Failure kinds.
const (
	FailTest     = "test-failure" // t.Error, t.Fatal, ...
	FailPanic    = "panic"
	FailDeadlock = "deadlock" // all blocked, or a wait-for cycle among lock waiters
	FailLeak     = "leak"     // body returned, goroutines it started blocked forever
	FailRace     = "race"
	FailLivelock = "livelock" // step bound exceeded
	FailExit     = "exit"     // os.Exit or log.Fatal under control
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
	// Exhausted is set when the search stopped because its strategy had
	// nothing left to explore (the meta strategy's backtrack set was
	// empty), not because the budget was spent.
	Exhausted bool `json:"exhausted,omitempty"`
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
)

// FailStuck is the failure kind of VerdictStuck.
const FailStuck = "stuck"
